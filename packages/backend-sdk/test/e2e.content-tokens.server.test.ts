/**
 * The keyed money calls of ContentTokenClient end to end against the real reference server
 * (@slotgate/server on 127.0.0.1 with its development chain, an Anvil node), through a fault-injecting
 * proxy that loses answers and answers 503/429 itself. To make the server answer 202 (a write accepted
 * but not landed within its wait, here CHAIN_WRITE_WAIT_MS=1000), a test turns the node's automine off,
 * so the transaction waits in the mempool, and mines it when it wants the write to land.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { type ReferenceServer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ContentTokenClient, type ContentTokenClientOptions, type SlotgateBackendError, isPendingWrite } from "../src/index.js";
import { type FaultProxy, faultProxy } from "./support/fault-proxy.js";
import { freePort } from "./support/http-server.js";

let service: ReferenceServer;
let proxy: FaultProxy;
let client: { client_id: string; client_secret: string };
let userId: string;
let slot: string;
let spendKey: { key: string; iv: string };
const cuid = `sdk-${randomBytes(4).toString("hex")}`;
/** Requested sleeps of the current test's client, in ms (each actually sleeps at most 50 ms). */
let sleeps: number[] = [];
/** The registration's own trace (the first money call, answered 202 and followed). */
let registration: { answer: Record<string, unknown>; requests: FaultProxy["requests"]; sleeps: number[] };
let rpcUrl: string;

/** One JSON-RPC call to the server's development chain (Anvil). */
async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}
/** Holds every new transaction in the mempool (writes do not land) until {@link landWrites}. */
const holdWrites = () => rpc("evm_setAutomine", [false]);
/** Mines what waits and turns automine back on. */
async function landWrites(): Promise<void> {
  await rpc("evm_setAutomine", [true]);
  await rpc("evm_mine");
}
/** Resolves once the proxy has seen a request matching `match` after `mark`. */
async function seen(mark: number, match: (r: { method: string; path: string }) => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (since(mark).some(match)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the request was never sent");
}
const isLookup = (r: { method: string; path: string }) => r.method === "GET" && r.path.startsWith("/v1/chain/writes/");

function tokens(overrides: Partial<ContentTokenClientOptions> = {}): ContentTokenClient {
  return new ContentTokenClient({
    authServerUrl: proxy.origin,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50)));
    },
    ...overrides,
  });
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const basic = () => ({ authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}` });
const balance = async () => tokens().balance(slot, { cuid });
const since = (mark: number) => proxy.requests.slice(mark);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const isBuy = (r: { path: string }) => r.path === "/v1/development-api/user_buy_content_token";

beforeAll(async () => {
  service = await startReferenceServer({ env: { LOG_LEVEL: "silent", CHAIN_WRITE_WAIT_MS: "1000" } });
  proxy = await faultProxy(service.url);
  rpcUrl = String(((await (await fetch(`${service.url}/v1/chain`)).json()) as { rpc_url?: string }).rpc_url);
  expect(rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  const loopbackUri = `http://127.0.0.1:${await freePort()}/callback`;
  const dev = await post("/v1/dev-user/signup", { email: `dev-${Date.now()}@example.test`, password: "dev-password-123" });
  expect(dev.status).toBe(201);
  const reg = await post(
    "/v1/dev-user/clients",
    {
      name: "Backend SDK money e2e",
      redirect_uris: [loopbackUri],
      download_url: "https://game.example/download",
      web_url: "https://game.example/",
      platform: "game", // the player signs in through the game's loopback URI (the JWT redirect of spec 4.14)
      blockchain: true,
    },
    { authorization: `Bearer ${String(dev.body.token)}` },
  );
  expect(reg.status).toBe(201);
  client = { client_id: String(reg.body.client_id), client_secret: String(reg.body.client_secret) };
  const signup = await signUpPlayer(service.url, service.dataDir, {
    client_id: client.client_id,
    redirect_uri: loopbackUri,
    state: "money-e2e",
    email: `player-${Date.now()}@example.test`,
    password: "user-password-123",
  });
  expect(signup.status).toBe(302);
  userId = String(decodeJwt(new URL(signup.headers.get("location")!).searchParams.get("jwt")!).sub);

  // The provider registration is the first money call.
  sleeps = [];
  const answer = await tokens().registerProvider({ cuid, release_per: 20, owner_addr: `0x${randomBytes(20).toString("hex")}` });
  registration = { answer: answer as unknown as Record<string, unknown>, requests: [...proxy.requests], sleeps: [...sleeps] };
  spendKey = { key: String(answer.aes_key), iv: String(answer.aes_iv) };

  const fund = await post("/v1/dev/fund_slot", { client_id: client.client_id, user_id: userId, xotn: "1000000", cuid }, basic());
  expect(fund.status, JSON.stringify(fund.body)).toBe(200);
  slot = String(fund.body.slot);
}, 120_000);

afterEach(async () => {
  await rpc("evm_setAutomine", [true]);
});

afterAll(async () => {
  await proxy?.close();
  await service?.close();
});

describe("ContentTokenClient money calls against the reference server", () => {
  it("registerProvider sent a UUID key and answered the first registration's key", () => {
    expect(registration.answer).toMatchObject({
      success: true,
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      aes_key: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(registration.requests).toHaveLength(1);
    expect(registration.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/development-api/init_permission_provider",
      idempotencyKey: expect.stringMatching(UUID),
    });
    expect(registration.sleeps).toEqual([]);
  });

  it("a purchase answered 202 (chain not mining) is followed through the write lookup, paced by Retry-After: 2, to its answer", async () => {
    const before = BigInt((await balance()).balance);
    const mark = proxy.requests.length;
    sleeps = [];
    await holdWrites();
    const buying = tokens().buy({ user_dbkey: userId, amount: "21", cuid });
    await seen(mark, isLookup);
    expect(BigInt((await balance()).balance), "not landed while the chain holds it").toBe(before);
    await landWrites();
    const answer = await buying;
    expect(answer).toMatchObject({ success: true, token_amount: "21", tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const trace = since(mark).filter((r) => isBuy(r) || isLookup(r));
    expect(trace[0]).toMatchObject({ method: "POST", idempotencyKey: expect.stringMatching(UUID) });
    expect(trace.length).toBeGreaterThanOrEqual(2);
    for (const r of trace.slice(1)) expect(r).toMatchObject({ method: "GET", path: expect.stringMatching(/^\/v1\/chain\/writes\/[1-9][0-9]*$/) });
    expect(new Set(trace.slice(1).map((r) => r.path)).size).toBe(1);
    expect(sleeps[0]).toBe(2000);
    expect(BigInt((await balance()).balance)).toBe(before + 21n);
  });

  it("an answer lost after the purchase reached the server: the retry with the same key buys once", async () => {
    const before = BigInt((await balance()).balance);
    const mark = proxy.requests.length;
    proxy.plan(isBuy, "lose_answer");
    sleeps = [];
    const answer = await tokens().buy({ user_dbkey: userId, amount: "100", cuid });
    expect(answer).toMatchObject({ success: true, token_amount: "100", tx_hash: expect.stringMatching(/^0x/) });
    const posts = since(mark).filter(isBuy);
    expect(posts).toHaveLength(2);
    expect(posts[0]!.idempotencyKey).toMatch(UUID);
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
    expect(BigInt((await balance()).balance)).toBe(before + 100n);
  });

  it("a spend whose answer was lost is recorded once", async () => {
    const before = await balance();
    const mark = proxy.requests.length;
    proxy.plan((r) => r.path === "/v1/development-api/increase_used_content_token", "lose_answer");
    const answer = await tokens().increaseUsed({ user_dbkey: userId, amount: "7", cuid }, spendKey);
    expect(answer).toMatchObject({ success: true, amount: "7" });
    const posts = since(mark).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
    const after = await balance();
    expect(BigInt(after.used_balances)).toBe(BigInt(before.used_balances) + 7n);
    expect(BigInt(after.balance)).toBe(BigInt(before.balance) - 7n);
  });

  it("503 and 429 in front of the server are retried after their Retry-After with the same key; one purchase", async () => {
    const before = BigInt((await balance()).balance);
    const mark = proxy.requests.length;
    proxy.plan(
      isBuy,
      { status: 503, headers: { "retry-after": "1" }, body: { success: false, error: "chain_unavailable" } },
      { status: 429, headers: { "retry-after": "3" }, body: { success: false, error: "rate_limited" } },
    );
    sleeps = [];
    await tokens().buy({ user_dbkey: userId, amount: "5", cuid });
    expect(sleeps.slice(0, 2)).toEqual([1000, 3000]);
    const posts = since(mark).filter(isBuy);
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(BigInt((await balance()).balance)).toBe(before + 5n);
  });

  it("another request under a used key is service_error idempotency_key_reused (422) and buys nothing", async () => {
    const key = `order-${randomUUID()}`;
    await tokens().buy({ user_dbkey: userId, amount: "10", cuid }, { idempotencyKey: key });
    const before = (await balance()).balance;
    const err = (await tokens()
      .buy({ user_dbkey: userId, amount: "11", cuid }, { idempotencyKey: key })
      .catch((e: unknown) => e)) as SlotgateBackendError;
    expect(err).toMatchObject({ code: "service_error", error: "idempotency_key_reused", serviceStatus: 422 });
    expect((await balance()).balance).toBe(before);
  });

  it("write_pending with the writeId when the wait ends first; tokens.write() answers the purchase, and the call again with its key answers the same", async () => {
    const before = BigInt((await balance()).balance);
    const key = randomUUID();
    const client = tokens();
    await holdWrites();
    const err = (await client
      .buy({ user_dbkey: userId, amount: "3", cuid }, { idempotencyKey: key, pendingTimeoutMs: 0 })
      .catch((e: unknown) => e)) as SlotgateBackendError;
    expect(err).toMatchObject({ code: "write_pending", status: 202, serviceStatus: 202, writeId: expect.stringMatching(/^[1-9][0-9]*$/) });
    expect(await client.write(err.writeId!)).toEqual({ success: true, status: "pending", write_id: err.writeId });
    await landWrites();
    let answer = await client.write(err.writeId!);
    for (let i = 0; i < 200 && isPendingWrite(answer); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await client.write(err.writeId!);
    }
    expect(answer).toMatchObject({ success: true, token_amount: "3", tx_hash: expect.stringMatching(/^0x/) });
    expect(await client.buy({ user_dbkey: userId, amount: "3", cuid }, { idempotencyKey: key })).toEqual(answer);
    expect(BigInt((await balance()).balance)).toBe(before + 3n);
  });

  it("tokens.write() of an unknown write is service_error write_not_found", async () => {
    const err = await tokens()
      .write("987654321")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "service_error", error: "write_not_found", serviceStatus: 404 });
  });
});
