import { encryptHex } from "@slotgate/protocol/crypto";
import { errorBodySchema } from "@slotgate/protocol/schemas";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basic, type ChainUser, chainContracts, chainOf, chainSnapshot, newUser, pinOf, postBasic, type TestClient } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The development-api beyond the shared conformance checks: a PIN-approved purchase, the opt-in
 * replay protection of the encrypted spend call, bad input on every endpoint (4xx, stable code,
 * nothing changed on chain or in the database) and the dev-only operator routes.
 */
let server: TestServer;
let client: TestClient;
let user: ChainUser;
let cuid: string;
let key: string;
let iv: string;
let contracts: Awaited<ReturnType<typeof chainContracts>>;
const OWNER = "0x00000000000000000000000000000000c0ffee02";

beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil" });
  client = await registerClient(server.url, { blockchain: true });
  user = await newUser(server, client);
  cuid = `ct-${Date.now()}`;
  const init = await postBasic(server, client, "/v1/development-api/init_permission_provider", {
    client_id: client.client_id,
    cuid,
    release_per: 20,
    owner_addr: OWNER,
  });
  expect(init.status).toBe(200);
  key = String(init.json["aes_key"]);
  iv = String(init.json["aes_iv"]);
  contracts = chainContracts(server);
});
afterAll(async () => {
  contracts?.close();
  await server?.close();
});

const balance = async () => (await call(server.url, "GET", `/v1/development-api/balance_adex/${user.contentAddress}?cuid=${cuid}`)).json;
const spend = (payload: Record<string, unknown>) =>
  postBasic(server, client, "/v1/development-api/increase_used_content_token", { encrypted_message: encryptHex(JSON.stringify(payload), key, iv) });

describe("purchases paid by the user's own slot wallet, with the user's consent for that provider", () => {
  it("the user consents for the cuid with a PIN-signed operation; the provider's backend then buys, in one transaction", async () => {
    const pin = pinOf("424242");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: user.token, body: { user_uuid: user.uuid, ...pin } });
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    await chainOf(server).fundWallet({ user_uuid: user.uuid, xotn: "10000" });
    const refused = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
      client_id: client.client_id,
      user_dbkey: user.userId,
      amount: "1000",
      cuid,
    });
    expect([refused.status, refused.json["error"]], "no consent yet").toEqual([409, "insufficient_allowance"]);
    const noCuid = await call(server.url, "POST", "/v1/pin/verify", {
      token: user.token,
      body: { user_uuid: user.uuid, ...pin, key_share_user: share, operation: { kind: "approve_purchases", amount: "5000" } },
    });
    expect([noCuid.status, noCuid.json["error"]], "the consent names its cuid").toEqual([400, "invalid_request"]);
    const approve = await call(server.url, "POST", "/v1/pin/verify", {
      token: user.token,
      body: { user_uuid: user.uuid, ...pin, key_share_user: share, operation: { kind: "approve_purchases", cuid, amount: "5000" } },
    });
    expect(approve.status).toBe(200);
    const buy = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
      client_id: client.client_id,
      user_dbkey: user.userId,
      amount: "1000",
      cuid,
    });
    expect(buy.status).toBe(200);
    expect(buy.json).toMatchObject({ token_amount: "1000", platform_fee: "150", provider_received: "850" });
    expect(await balance()).toMatchObject({ balance: "1000", used_balances: "0" });
  });

  it("provider B can neither buy with, nor spend, nor release against a user who consented only to provider A", async () => {
    const clientB = await registerClient(server.url, { blockchain: true });
    const cuidB = `ctb-${Date.now()}`;
    const ownerB = "0x00000000000000000000000000000000c0ffee0b";
    const initB = await postBasic(server, clientB, "/v1/development-api/init_permission_provider", {
      client_id: clientB.client_id,
      cuid: cuidB,
      release_per: 100,
      owner_addr: ownerB,
    });
    expect(initB.status).toBe(200);
    const [keyB, ivB] = [String(initB.json["aes_key"]), String(initB.json["aes_iv"])];
    const slotXotn = () => contracts.xotn.balanceOf(user.contentAddress);
    const before = { xotn: await slotXotn(), consentA: await contracts.exchange.purchase_allowance(user.contentAddress, cuid), balance: await balance() };
    expect(before.consentA).toBeGreaterThan(0n);
    const asB = (path: string, body: Record<string, unknown>) => postBasic(server, clientB, path, body);
    const spendB = (payload: Record<string, unknown>) =>
      asB("/v1/development-api/increase_used_content_token", {
        encrypted_message: encryptHex(JSON.stringify({ client_id: clientB.client_id, user_dbkey: user.userId, ...payload }), keyB, ivB),
      });
    // The user never played B's game: no slot of cuidB, and a refused purchase opens none (docs/decisions/marketplace.md).
    const attempts: Array<[string, () => Promise<{ status: number; json: Record<string, unknown> }>, number, string]> = [
      [
        "buy on B's own cuid",
        () => asB("/v1/development-api/user_buy_content_token", { client_id: clientB.client_id, user_dbkey: user.userId, amount: "1", cuid: cuidB }),
        409,
        "insufficient_allowance",
      ],
      [
        "buy on A's cuid",
        () => asB("/v1/development-api/user_buy_content_token", { client_id: clientB.client_id, user_dbkey: user.userId, amount: "1", cuid }),
        404,
        "provider_not_registered",
      ],
      ["spend on A's cuid", () => spendB({ amount: "1", cuid }), 403, "encrypted_message_mismatch"],
      ["spend on B's cuid", () => spendB({ amount: "1", cuid: cuidB }), 404, "slot_not_found"],
      [
        "release on A's cuid",
        () => asB("/v1/development-api/release_used_balance", { client_id: clientB.client_id, cuid, slot: user.contentAddress }),
        404,
        "provider_not_registered",
      ],
      [
        "the faucet for A's cuid",
        () => asB("/v1/dev/fund_slot", { client_id: clientB.client_id, user_id: user.userId, xotn: "1", cuid }),
        404,
        "provider_not_registered",
      ],
    ];
    for (const [what, attempt, status, code] of attempts) {
      const res = await attempt();
      expect([res.status, res.json["error"]], what).toEqual([status, code]);
    }
    const slotsOfB = await call(server.url, "GET", `/v1/slots?cu_id=${cuidB}`, { token: user.token });
    expect([slotsOfB.status, slotsOfB.json["slots"]], "no slot of B's cuid was opened").toEqual([200, []]);
    await asB("/v1/dev/enable_release", { client_id: clientB.client_id, cuid: cuidB });
    const release = await asB("/v1/development-api/release_used_balance", { client_id: clientB.client_id, cuid: cuidB, slot: user.contentAddress });
    expect([release.status, release.json["released_amount"]], "release on B's own cuid").toEqual([200, "0"]);
    expect({ xotn: await slotXotn(), consentA: await contracts.exchange.purchase_allowance(user.contentAddress, cuid), balance: await balance() }).toEqual(
      before,
    );
    expect(await contracts.exchange.purchase_allowance(user.contentAddress, cuidB)).toBe(0n);
    expect(await contracts.exchange.balance_adex(user.contentAddress, cuidB)).toEqual([0n, 0n]);
    expect(await contracts.xotn.balanceOf(ownerB)).toBe(0n);
  });
});

describe("opt-in replay protection of the encrypted spend call", () => {
  it("once on, a message needs nonce and ts, is accepted once, and a stale one is refused", async () => {
    const on = await postBasic(server, client, "/v1/development-api/spend_protection", { client_id: client.client_id, enabled: true });
    expect(on.json).toMatchObject({ success: true, replay_protection: true });
    const base = { client_id: client.client_id, user_dbkey: user.userId, cuid };
    const plain = await spend({ ...base, amount: "10" });
    expect([plain.status, plain.json["error"]], "no nonce/ts").toEqual([400, "invalid_encrypted_message"]);
    const now = Math.floor(Date.now() / 1000);
    const message = encryptHex(JSON.stringify({ ...base, amount: "10", nonce: "nonce-000000001", ts: now }), key, iv);
    const first = await postBasic(server, client, "/v1/development-api/increase_used_content_token", { encrypted_message: message });
    expect(first.status).toBe(200);
    const replay = await postBasic(server, client, "/v1/development-api/increase_used_content_token", { encrypted_message: message });
    expect([replay.status, replay.json["error"]]).toEqual([409, "replayed_message"]);
    // CTR is malleable: flip "10" into "90" without the key; the nonce inside is still the used one.
    const offset = JSON.stringify({ ...base, amount: "10" }).indexOf('"amount":"10"') + '"amount":"'.length;
    const bytes = Buffer.from(message, "hex");
    bytes[offset] = bytes[offset]! ^ "1".charCodeAt(0) ^ "9".charCodeAt(0);
    const flipped = await postBasic(server, client, "/v1/development-api/increase_used_content_token", { encrypted_message: bytes.toString("hex") });
    expect([flipped.status, flipped.json["error"]]).toEqual([409, "replayed_message"]);
    const stale = await spend({ ...base, amount: "10", nonce: "nonce-000000002", ts: now - 3600 });
    expect([stale.status, stale.json["error"]]).toEqual([400, "stale_message"]);
    expect(await balance()).toMatchObject({ balance: "990", used_balances: "10" });
    const off = await postBasic(server, client, "/v1/development-api/spend_protection", { client_id: client.client_id, enabled: false });
    expect(off.json).toMatchObject({ replay_protection: false });
  });
});

describe("bad input on every development-api endpoint", () => {
  it("answers 4xx with a stable code and changes nothing", async () => {
    const before = { db: await chainSnapshot(server), balance: await balance() };
    const id = client.client_id;
    const cases: Array<[string, unknown, number, string, Record<string, string>?]> = [
      ["/v1/development-api/init_permission_provider", { client_id: id, cuid: "x y", release_per: 5, owner_addr: OWNER }, 400, "invalid_request"],
      ["/v1/development-api/init_permission_provider", { client_id: id, cuid: "fresh-cuid-1", release_per: 5.5, owner_addr: OWNER }, 400, "invalid_request"],
      ["/v1/development-api/init_permission_provider", { client_id: id, cuid: "fresh-cuid-1", release_per: 5, owner_addr: "0x1" }, 400, "invalid_request"],
      ["/v1/development-api/init_permission_provider", { client_id: id, cuid, release_per: 5, owner_addr: OWNER }, 409, "cuid_taken"],
      ["/v1/development-api/user_buy_content_token", { client_id: id, user_dbkey: user.userId, amount: "-5", cuid }, 400, "invalid_request"],
      [
        "/v1/development-api/user_buy_content_token",
        { client_id: id, user_dbkey: user.userId, amount: "1", cuid: "unregistered-cuid" },
        404,
        "provider_not_registered",
      ],
      ["/v1/development-api/user_buy_content_token", { client_id: "sg_other", user_dbkey: user.userId, amount: "1", cuid }, 403, "token_user_mismatch"],
      ["/v1/development-api/increase_used_content_token", { encrypted_message: "abc" }, 400, "invalid_request"],
      ["/v1/development-api/increase_used_content_token", { encrypted_message: encryptHex("not json", key, iv) }, 400, "invalid_encrypted_message"],
      [
        "/v1/development-api/increase_used_content_token",
        { encrypted_message: encryptHex(JSON.stringify({ client_id: id, user_dbkey: user.userId, amount: "999999", cuid }), key, iv) },
        409,
        "insufficient_balance",
      ],
      ["/v1/development-api/release_used_balance", { client_id: id, cuid, slot: "0xnot" }, 400, "invalid_request"],
      ["/v1/development-api/release_used_balance", { client_id: id, cuid, slot: user.contentAddress }, 409, "release_disabled"],
      ["/v1/development-api/test_encryption", { client_id: id, test_string: 5 }, 400, "invalid_request"],
      ["/v1/development-api/spend_protection", { client_id: id, enabled: "yes" }, 400, "invalid_request"],
      ["/v1/dev/fund_slot", { client_id: id, user_id: "0", xotn: "5", cuid }, 400, "invalid_request"],
      ["/v1/dev/fund_slot", { client_id: id, user_id: "999999999", xotn: "5", cuid }, 404, "slot_not_found"],
      ["/v1/dev/fund_slot", { client_id: id, user_id: user.userId, xotn: "1.5", cuid }, 400, "invalid_request"],
      ["/v1/dev/fund_slot", { client_id: id, user_id: user.userId, xotn: "5" }, 400, "invalid_request"],
      ["/v1/dev/fund_slot", { client_id: id, user_id: user.userId, xotn: "5", cuid: "unregistered-cuid" }, 404, "provider_not_registered"],
      ["/v1/dev/enable_release", { cuid: "" }, 400, "invalid_request"],
      ["/v1/dev/register_slot", { client_id: id, cuid, meta_idx: -2, user_id: user.userId }, 400, "invalid_request"],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await postBasic(server, client, path, body);
      expect([res.status, res.json["error"]], `${path} ${JSON.stringify(body)}`).toEqual([status, code]);
    }
    for (const path of ["/v1/development-api/init_permission_provider", "/v1/development-api/test_encryption", "/v1/dev/fund_slot"]) {
      const res = await call(server.url, "POST", path, { body: { client_id: id }, token: user.token });
      expect([res.status, res.json["error"]], `${path} with a bearer token`).toEqual([401, "invalid_client"]);
    }
    const malformed = await call(server.url, "POST", "/v1/development-api/user_buy_content_token", {
      body: "{",
      headers: { authorization: `Basic ${Buffer.from(`${id}:${client.client_secret}`).toString("base64")}` },
    });
    expect([malformed.status, malformed.json["error"]]).toEqual([400, "malformed_json"]);
    for (const q of ["cuid=a&cuid=b", "cuid=bad%20cuid"]) {
      const res = await call(server.url, "GET", `/v1/development-api/balance_adex/${user.contentAddress}?${q}`);
      expect([res.status, res.json["error"]], q).toEqual([400, "invalid_request"]);
    }
    expect({ db: await chainSnapshot(server), balance: await balance() }).toEqual(before);
  });

  it("balance_adex is public and CORS-readable", async () => {
    const res = await call(server.url, "GET", `/v1/development-api/balance_adex/${user.contentAddress}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("dev-only operator routes (in-process chain)", () => {
  it("fund_slot gives XOTN and the consent for the caller's cuid, no more; enable_release turns release on", async () => {
    const other = await newUser(server, client);
    const fund = await postBasic(server, client, "/v1/dev/fund_slot", { client_id: client.client_id, user_id: other.userId, xotn: "500", cuid });
    expect(fund.json).toMatchObject({ success: true, slot: other.contentAddress, cuid });
    expect(await contracts.exchange.purchase_allowance(other.contentAddress, cuid)).toBe(500n);
    const buy = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
      client_id: client.client_id,
      user_dbkey: other.userId,
      amount: "500",
      cuid,
    });
    expect(buy.status).toBe(200);
    const release = () =>
      postBasic(server, client, "/v1/development-api/release_used_balance", { client_id: client.client_id, cuid, slot: other.contentAddress });
    expect((await release()).json["error"]).toBe("release_disabled");
    const enabled = await postBasic(server, client, "/v1/dev/enable_release", { cuid });
    expect(enabled.json).toMatchObject({ success: true, enabled: true });
    expect((await release()).status).toBe(200);
  });
});

describe("property: random bodies on every chain endpoint", () => {
  it("always answer 4xx with a stable error body and change nothing", async () => {
    const before = { db: await chainSnapshot(server), balance: await balance() };
    const endpoints: Array<[string, Record<string, string>]> = [
      ["/v1/pin/register", { authorization: `Bearer ${user.token}` }],
      ["/v1/pin/verify", { authorization: `Bearer ${user.token}` }],
      ["/v1/pin/reset", { authorization: `Bearer ${user.token}` }],
      ["/v1/pin/recover", { authorization: `Bearer ${user.token}` }],
      ["/v1/token/transfer", { authorization: `Bearer ${user.token}` }],
      ["/idex-platform/exchange_token_owner", { authorization: `Bearer ${user.token}` }],
      ["/v1/development-api/init_permission_provider", basic(client)],
      ["/v1/development-api/user_buy_content_token", basic(client)],
      ["/v1/development-api/increase_used_content_token", basic(client)],
      ["/v1/development-api/release_used_balance", basic(client)],
      ["/v1/development-api/test_encryption", basic(client)],
      ["/v1/development-api/spend_protection", basic(client)],
      ["/v1/dev/fund_slot", basic(client)],
      ["/v1/dev/enable_release", basic(client)],
      ["/v1/dev/register_slot", basic(client)],
    ];
    // Bodies that keep the right keys but random values, and arbitrary JSON.
    const body = fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.record(
        {
          user_uuid: fc.oneof(fc.integer(), fc.string()),
          pin_hash: fc.string(),
          pin_salt: fc.string(),
          key_share_user: fc.string(),
          client_id: fc.string(),
          cuid: fc.string(),
          amount: fc.oneof(fc.string(), fc.integer()),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), body, async ([path, headers], payload) => {
        const res = await call(server.url, "POST", path, {
          body: JSON.stringify(payload) ?? "null",
          headers: { ...headers, "content-type": "application/json" },
        });
        expect(res.status, `${path} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${JSON.stringify(payload)}`).toBeLessThan(500);
        expect(errorBodySchema.safeParse(res.json).success).toBe(true);
      }),
      { numRuns: 150 },
    );
    expect({ db: await chainSnapshot(server), balance: await balance() }).toEqual(before);
  });
});
