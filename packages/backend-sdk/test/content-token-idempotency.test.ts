/**
 * The money-moving calls of ContentTokenClient against the simulated service (MSW): every call sends an
 * Idempotency-Key and reuses it on its own retries (network errors, 429, 503, with Retry-After), a
 * 202 is followed through the write lookup, and a write still pending after the wait is `write_pending`.
 */
import { randomUUID } from "node:crypto";
import type { MockService } from "@slotgate/mock-service";
import { PATHS } from "@slotgate/protocol";
import { http, HttpResponse } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContentTokenClient, type ContentTokenClientOptions, SlotgateBackendError, isPendingWrite } from "../src/index.js";
import { msw, simulatedService, startMsw } from "./support/simulated-service.js";

let mock: MockService;
/** Every request the client sent to a money endpoint or the write lookup, in order. */
let sent: Array<{ method: string; path: string; key: string | null; authorization: string | null }>;
/** Every sleep the client asked for, in ms (the fake sleep resolves at once). */
let sleeps: number[];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function client(overrides: Partial<ContentTokenClientOptions> = {}): ContentTokenClient {
  const c = mock.fixtures.webClient;
  return new ContentTokenClient({
    authServerUrl: mock.baseUrl,
    clientId: c.client_id,
    clientSecret: c.client_secret,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
    ...overrides,
  });
}

const buyUrl = () => `${mock.baseUrl}${PATHS.userBuyContentToken}`;
const lookupUrl = () => `${mock.baseUrl}${PATHS.chainWrite}`;
const buyArgs = (amount = "100") => ({ user_dbkey: mock.fixtures.slot.user_id, amount, cuid: mock.fixtures.provider.cuid });
const slotBalance = async (tokens: ContentTokenClient) => (await tokens.balance(mock.fixtures.slot.address, { cuid: mock.fixtures.provider.cuid })).balance;
const buys = () => sent.filter((r) => r.path === PATHS.userBuyContentToken);

beforeAll(() => startMsw());
afterAll(() => msw.close());
beforeEach(async () => {
  mock = await simulatedService("http://127.0.0.1:9/unused");
  sent = [];
  sleeps = [];
  msw.events.removeAllListeners();
  msw.events.on("request:start", ({ request }) => {
    const path = new URL(request.url).pathname;
    if (request.method === "POST" || path.startsWith("/v1/chain/writes/")) {
      sent.push({ method: request.method, path, key: request.headers.get("idempotency-key"), authorization: request.headers.get("authorization") });
    }
  });
});

describe("Idempotency-Key on every money-moving call", () => {
  it("registerProvider, buy, increaseUsed and release each send a fresh UUID key; other calls send none", async () => {
    const tokens = client();
    const p = mock.fixtures.provider;
    const slot = mock.fixtures.slot;
    await tokens.registerProvider({ cuid: `idem-${Date.now()}`, release_per: 10, owner_addr: `0x${"ab".repeat(20)}` });
    await tokens.buy(buyArgs());
    await tokens.increaseUsed({ user_dbkey: slot.user_id, amount: "5", cuid: p.cuid }, { key: p.aes_key, iv: p.aes_iv });
    await tokens.release({ cuid: p.cuid, slot: slot.address }).catch(() => undefined); // release_disabled: still keyed
    await tokens.testEncryption("x");
    expect(sent.map((r) => r.path)).toEqual([
      PATHS.initPermissionProvider,
      PATHS.userBuyContentToken,
      PATHS.increaseUsedContentToken,
      PATHS.releaseUsedBalance,
      PATHS.testEncryption,
    ]);
    const keys = sent.slice(0, 4).map((r) => r.key);
    for (const key of keys) expect(key).toMatch(UUID);
    expect(new Set(keys).size).toBe(4);
    expect(sent[4]!.key).toBeNull();
  });

  it("sends the caller's key as is; the same key and arguments again answer the first answer and buy once", async () => {
    const tokens = client();
    const before = BigInt(await slotBalance(tokens));
    const key = `order-${randomUUID()}`;
    const first = await tokens.buy(buyArgs("100"), { idempotencyKey: key });
    const again = await tokens.buy(buyArgs("100"), { idempotencyKey: key });
    expect(again).toEqual(first);
    expect(buys().map((r) => r.key)).toEqual([key, key]);
    expect(BigInt(await slotBalance(tokens))).toBe(before + 100n);
  });

  it("refuses a malformed key locally, before any request", async () => {
    const tokens = client();
    for (const bad of ["has space", "x".repeat(256), "é", ""]) {
      const err = await tokens.buy(buyArgs(), { idempotencyKey: bad }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "invalid_argument" });
    }
    expect(sent).toEqual([]);
  });

  it("another request under a used key is service_error idempotency_key_reused (422), not retried, and buys nothing", async () => {
    const tokens = client();
    const key = randomUUID();
    await tokens.buy(buyArgs("10"), { idempotencyKey: key });
    const before = await slotBalance(tokens);
    const err = await tokens.buy(buyArgs("11"), { idempotencyKey: key }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlotgateBackendError);
    expect(err).toMatchObject({ code: "service_error", error: "idempotency_key_reused", serviceStatus: 422 });
    expect(buys()).toHaveLength(2);
    expect(await slotBalance(tokens)).toBe(before);
  });
});

describe("retries within the call, with the same key", () => {
  it("a network failure, then success: two attempts with one key, and the purchase happens once", async () => {
    const tokens = client();
    const before = BigInt(await slotBalance(tokens));
    msw.use(http.post(buyUrl(), () => HttpResponse.error(), { once: true }));
    const answer = await tokens.buy(buyArgs("40"));
    expect(answer).toMatchObject({ success: true, token_amount: "40" });
    expect(buys()).toHaveLength(2);
    expect(buys()[1]!.key).toBe(buys()[0]!.key);
    expect(BigInt(await slotBalance(tokens))).toBe(before + 40n);
    // No Retry-After: jittered backoff between half and all of baseDelayMs.
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(125);
    expect(sleeps[0]).toBeLessThanOrEqual(250);
  });

  it("503 and 429 are retried after the Retry-After the service asked for", async () => {
    const tokens = client();
    msw.use(
      http.post(buyUrl(), () => HttpResponse.json({ success: false, error: "chain_unavailable" }, { status: 503, headers: { "Retry-After": "1" } }), {
        once: true,
      }),
    );
    msw.use(
      http.post(buyUrl(), () => HttpResponse.json({ success: false, error: "rate_limited" }, { status: 429, headers: { "Retry-After": "3" } }), { once: true }),
    );
    const answer = await tokens.buy(buyArgs("7"));
    expect(answer).toMatchObject({ success: true, token_amount: "7" });
    expect(sleeps).toEqual([3000, 1000]);
    expect(buys()).toHaveLength(3);
    expect(new Set(buys().map((r) => r.key)).size).toBe(1);
  });

  it("backoff doubles without Retry-After; after the last attempt the last error is thrown", async () => {
    const tokens = client({ retry: { attempts: 3, baseDelayMs: 100 } });
    msw.use(http.post(buyUrl(), () => HttpResponse.json({ success: false, error: "chain_unavailable" }, { status: 503 })));
    const err = await tokens.buy(buyArgs()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "service_error", error: "chain_unavailable", serviceStatus: 503 });
    expect(buys()).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it("a Retry-After longer than maxDelayMs ends the retries", async () => {
    const tokens = client({ retry: { maxDelayMs: 5000 } });
    msw.use(http.post(buyUrl(), () => HttpResponse.json({ success: false, error: "rate_limited" }, { status: 429, headers: { "Retry-After": "60" } })));
    const err = await tokens.buy(buyArgs()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "service_error", error: "rate_limited", serviceStatus: 429 });
    expect(buys()).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("retry: false sends once; 4xx answers other than 429 are never retried", async () => {
    msw.use(http.post(buyUrl(), () => HttpResponse.error(), { once: true }));
    const err = await client({ retry: false })
      .buy(buyArgs())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "network_error" });
    expect(buys()).toHaveLength(1);
    const short = await client()
      .buy({ ...buyArgs(), amount: "1000.000000000000000001" })
      .catch((e: unknown) => e);
    expect(short).toMatchObject({ code: "service_error", error: "insufficient_allowance" });
    expect(buys()).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("an abort during the wait between attempts ends the call with aborted", async () => {
    const controller = new AbortController();
    const tokens = client({
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          controller.abort(new Error("caller gave up"));
        }),
    });
    msw.use(http.post(buyUrl(), () => HttpResponse.json({ success: false, error: "chain_unavailable" }, { status: 503 })));
    const err = await tokens.buy(buyArgs(), { signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "aborted" });
    expect(buys()).toHaveLength(1);
  });
});

describe("a write answered 202 (accepted, not landed yet)", () => {
  const pending = (id: string) => ({ success: true, status: "pending", write_id: id });
  const answer202 = (id: string, retryAfter = "2") =>
    HttpResponse.json(pending(id), { status: 202, headers: { Location: `/v1/chain/writes/${id}`, "Retry-After": retryAfter } });
  const result = { success: true, tx_hash: `0x${"1".repeat(64)}`, token_amount: "100", xotn_paid: "100", platform_fee: "15", provider_received: "85" };

  it("is followed through the write lookup, paced by Retry-After, to its answer", async () => {
    const states = [
      { success: true, write_id: "7", status: "pending" },
      { success: true, write_id: "7", status: "submitted" },
      { success: true, write_id: "7", status: "confirmed", result },
    ];
    msw.use(
      http.post(buyUrl(), () => answer202("7", "1"), { once: true }),
      http.get(lookupUrl(), ({ params }) =>
        params["write_id"] === "7" ? HttpResponse.json(states.shift()) : HttpResponse.json({ error: "write_not_found" }, { status: 404 }),
      ),
    );
    const tokens = client();
    expect(await tokens.buy(buyArgs())).toEqual(result);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${PATHS.userBuyContentToken}`,
      "GET /v1/chain/writes/7",
      "GET /v1/chain/writes/7",
      "GET /v1/chain/writes/7",
    ]);
    // The lookup is authenticated with the client's credentials.
    expect(sent[1]!.authorization).toBe(sent[0]!.authorization);
    expect(sent[1]!.authorization).toMatch(/^Basic /);
    expect(sleeps).toEqual([1000, 1000, 1000]);
  });

  it("a write that failed throws the error the call would have thrown", async () => {
    msw.use(
      http.post(buyUrl(), () => answer202("8"), { once: true }),
      http.get(lookupUrl(), () =>
        HttpResponse.json({ success: true, write_id: "8", status: "failed", error: { code: "insufficient_allowance", message: "approve more" } }),
      ),
    );
    const err = await client()
      .buy(buyArgs())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "service_error", error: "insufficient_allowance", serviceStatus: 409 });
  });

  it("still pending after pendingTimeoutMs: write_pending with the writeId, and tokens.write() answers later", async () => {
    let landed = false;
    msw.use(
      http.post(buyUrl(), () => answer202("9"), { once: true }),
      http.get(lookupUrl(), () =>
        HttpResponse.json(landed ? { success: true, write_id: "9", status: "confirmed", result } : { success: true, write_id: "9", status: "submitted" }),
      ),
    );
    const real: number[] = [];
    const tokens = client({
      pendingTimeoutMs: 60,
      sleep: (ms) => {
        real.push(ms);
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const err = await tokens.buy(buyArgs()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlotgateBackendError);
    expect(err).toMatchObject({ code: "write_pending", writeId: "9", status: 202 });
    expect((err as SlotgateBackendError).toJSON()).toMatchObject({ code: "write_pending", writeId: "9" });
    // The wait is bounded by the timeout, not by the 2 s Retry-After.
    expect(real.length).toBeGreaterThanOrEqual(1);
    for (const ms of real) expect(ms).toBeLessThanOrEqual(60);

    const still = await tokens.write("9");
    expect(still).toEqual({ success: true, status: "pending", write_id: "9" });
    expect(isPendingWrite(still)).toBe(true);
    landed = true;
    expect(await tokens.write("9")).toEqual(result);
  });

  it("a 202 whose write_id is not the documented shape is invalid_response, and nothing is looked up", async () => {
    msw.use(http.post(buyUrl(), () => answer202("../../oauth/token"), { once: true }));
    const err = await client()
      .buy(buyArgs())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "invalid_response", serviceStatus: 202 });
    expect(sent.map((r) => r.method)).toEqual(["POST"]);
  });

  it("pendingTimeoutMs: 0 (per call) throws write_pending at once, without a lookup", async () => {
    msw.use(http.post(buyUrl(), () => answer202("10"), { once: true }));
    const err = await client()
      .buy(buyArgs(), { pendingTimeoutMs: 0 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "write_pending", writeId: "10" });
    expect(sent.map((r) => r.method)).toEqual(["POST"]);
  });
});

describe("tokens.write(writeId)", () => {
  it("an unknown id is service_error write_not_found (the simulated service settles every write at once)", async () => {
    const err = await client()
      .write("12345")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "service_error", error: "write_not_found", serviceStatus: 404 });
  });

  it("a malformed id is invalid_argument, before any request", async () => {
    for (const bad of ["abc", "0", "", "1/2"]) {
      expect(
        await client()
          .write(bad)
          .catch((e: unknown) => e),
      ).toMatchObject({ code: "invalid_argument" });
    }
    expect(sent).toEqual([]);
  });

  it("a failed write throws its error", async () => {
    msw.use(
      http.get(lookupUrl(), () =>
        HttpResponse.json({ success: true, write_id: "3", status: "failed", error: { code: "idempotency_key_reused", message: "x" } }),
      ),
    );
    expect(
      await client()
        .write("3")
        .catch((e: unknown) => e),
    ).toMatchObject({ code: "service_error", error: "idempotency_key_reused", serviceStatus: 422 });
  });
});

describe("options", () => {
  it("rejects a malformed retry policy or pendingTimeoutMs with invalid_options naming it", () => {
    expect(() => client({ retry: { attempts: 0 } })).toThrowError(/retry.attempts/);
    expect(() => client({ retry: { baseDelayMs: -1 } })).toThrowError(/retry.baseDelayMs/);
    expect(() => client({ retry: "yes" as never })).toThrowError(/retry must be/);
    expect(() => client({ pendingTimeoutMs: Number.NaN })).toThrowError(/pendingTimeoutMs/);
    expect(() => client({ sleep: 5 as never })).toThrowError(/sleep must be a function/);
  });
});
