import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainUser, basic, chainOf, chainSnapshot, newUser, pinOf, postBasic, type TestClient, xotnBalance } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The money endpoints over HTTP with `Idempotency-Key` (docs/decisions/exactly-once.md): a retry with
 * the same key answers the first outcome and moves nothing again, another request under the key is
 * 422, a malformed key is 400 and changes nothing; a write that does not land within the wait is
 * answered 202 with a Location that its owner (only) follows to the answer.
 */
let server: TestServer;
let client: TestClient;
let user: ChainUser;
let pin: ReturnType<typeof pinOf>;
let share: string;
let cuid: string;

beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil", CHAIN_WRITE_WAIT_MS: "20000" });
  client = await registerClient(server.url, { blockchain: true });
  user = await newUser(server, client);
  pin = pinOf("505050");
  const reg = await call(server.url, "POST", "/v1/pin/register", { token: user.token, body: { user_uuid: user.uuid, ...pin } });
  share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
  await chainOf(server).fundWallet({ user_uuid: user.uuid, xotn: "10000" });
  await chainOf(server).fundWallet({ user_uuid: user.uuid, xotn: "10000", wallet: "user" });
  cuid = `idem-${Date.now()}`;
  const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
    client_id: client.client_id,
    cuid,
    release_per: 20,
    owner_addr: `0x${"c0".repeat(20)}`,
  });
  expect(init.status).toBe(200);
  // The user's consent for this cuid's purchases (issue 21: per slot and cuid).
  const approve = await call(server.url, "POST", "/v1/pin/verify", {
    token: user.token,
    body: { user_uuid: user.uuid, ...pin, key_share_user: share, operation: { kind: "approve_purchases", cuid, amount: "10000" } },
  });
  expect(approve.status, approve.text).toBe(200);
});
afterAll(async () => server?.close());

const buy = (amount: string, key?: string) =>
  call(server.url, "POST", "/v1/development-api/user_buy_content_token", {
    body: { client_id: client.client_id, user_dbkey: user.userId, amount, cuid },
    headers: { ...basic(client), ...(key === undefined ? {} : { "idempotency-key": key }) },
  });
const balance = async () => (await call(server.url, "GET", `/v1/development-api/balance_adex/${user.contentAddress}?cuid=${cuid}`)).json["balance"];

describe("Idempotency-Key on the money endpoints", () => {
  it("a purchase sent three times at once with one key buys once, and every answer is the first one", async () => {
    const before = BigInt(String(await balance()));
    const key = randomUUID();
    const answers = await Promise.all([buy("100", key), buy("100", key), buy("100", key)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[1]!.json).toEqual(answers[0]!.json);
    expect(answers[2]!.json).toEqual(answers[0]!.json);
    expect(BigInt(String(await balance()))).toBe(before + 100n);
    // Later, once more: the same answer.
    const again = await buy("100", key);
    expect(again.json).toEqual(answers[0]!.json);
    expect(BigInt(String(await balance()))).toBe(before + 100n);
  });

  it("a transfer retried with its key moves the XOTN once", async () => {
    const to = `0x${randomUUID().replace(/-/g, "").slice(0, 40).padEnd(40, "0")}`;
    const key = randomUUID();
    const body = {
      from_address: await chainOf(server).walletAddressFor(user.uuid),
      to_address: to,
      amount: "9",
      contract_address: chainOf(server).addresses.xotn,
      pin_hash: pin.pin_hash,
      key_share_user: share,
    };
    const send = () => call(server.url, "POST", "/v1/token/transfer", { token: user.token, body, headers: { "idempotency-key": key } });
    const [first, second] = await Promise.all([send(), send()]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json).toEqual(first.json);
    expect(await xotnBalance(server, to)).toBe(9n);
  });

  it("another request under a used key is 422 idempotency_key_reused, and moves nothing", async () => {
    const key = randomUUID();
    expect((await buy("10", key)).status).toBe(200);
    const before = await balance();
    const other = await buy("11", key);
    expect([other.status, other.json["error"]]).toEqual([422, "idempotency_key_reused"]);
    expect(await balance()).toBe(before);
  });

  it("a malformed key is 400 naming the header, and changes nothing", async () => {
    const before = await chainSnapshot(server);
    for (const key of ["has space", "x".repeat(256), "é"]) {
      const res = await buy("10", key);
      expect([res.status, res.json["error"]]).toEqual([400, "invalid_request"]);
      expect(String(res.json["error_description"] ?? res.json["message"] ?? res.text)).toContain("Idempotency-Key");
    }
    expect(await chainSnapshot(server)).toBe(before);
  });
});

describe("a write that does not land within the wait", () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ CHAIN: "anvil", CHAIN_WRITE_WAIT_MS: "1" });
  });
  afterAll(async () => slow?.close());

  it("is answered 202 with its write_id and a Location its owner follows to the answer (a provider key shown once); others get 404", async () => {
    const slowClient = await registerClient(slow.url, { blockchain: true });
    const key = randomUUID();
    const cuidOfSlow = `slow-${Date.now()}`;
    const res = await call(slow.url, "POST", "/v1/development-api/init_permission_provider", {
      body: { client_id: slowClient.client_id, cuid: cuidOfSlow, release_per: 5, owner_addr: `0x${"c1".repeat(20)}` },
      headers: { ...basic(slowClient), "idempotency-key": key },
    });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ success: true, status: "pending", write_id: expect.stringMatching(/^[1-9][0-9]*$/) });
    const location = res.headers.get("location")!;
    expect(location).toBe(`/v1/chain/writes/${res.json["write_id"]}`);
    expect(res.headers.get("retry-after")).toBe("2");
    let state = await call(slow.url, "GET", location, { headers: basic(slowClient) });
    for (let i = 0; i < 200 && state.json["status"] !== "confirmed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await call(slow.url, "GET", location, { headers: basic(slowClient) });
    }
    expect(state.status).toBe(200);
    expect(state.json).toMatchObject({
      success: true,
      write_id: res.json["write_id"],
      status: "confirmed",
      result: { success: true, tx_hash: expect.stringMatching(/^0x/) },
    });
    // The first answer given for the client's first registration shows its key; no later one does: not
    // another lookup, not a retry under the same Idempotency-Key.
    const shown = state.json["result"] as Record<string, unknown>;
    expect(shown).toMatchObject({ key_issued: true, aes_key: expect.stringMatching(/^[0-9a-f]{64}$/), aes_iv: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const { aes_key: _key, aes_iv: _iv, ...withoutKey } = shown;
    expect((await call(slow.url, "GET", location, { headers: basic(slowClient) })).json["result"]).toEqual(withoutKey);
    const retry = await call(slow.url, "POST", "/v1/development-api/init_permission_provider", {
      body: { client_id: slowClient.client_id, cuid: cuidOfSlow, release_per: 5, owner_addr: `0x${"c1".repeat(20)}` },
      headers: { ...basic(slowClient), "idempotency-key": key },
    });
    expect([retry.status, retry.json]).toEqual([200, withoutKey]);
    // Another client, a user's token, no credentials, a malformed id.
    const stranger = await registerClient(slow.url, { blockchain: true });
    expect((await call(slow.url, "GET", location, { headers: basic(stranger) })).json["error"]).toBe("write_not_found");
    const player = await newUser(slow, slowClient);
    expect((await call(slow.url, "GET", location, { token: player.token })).status).toBe(404);
    expect((await call(slow.url, "GET", location)).status).toBe(401);
    expect((await call(slow.url, "GET", "/v1/chain/writes/abc", { headers: basic(slowClient) })).status).toBe(400);
  });
});
