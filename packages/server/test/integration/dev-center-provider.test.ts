import { getAddress } from "ethers";
import { encryptHex } from "@slotgate/protocol/crypto";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainSnapshot, newUser, postBasic, type TestClient } from "../support/chain-flows.js";
import { call, devSignup, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The provider side of a blockchain application in the developer center: register a cuid, see its
 * release share and flag, switch the spend replay protection, rotate the AES key and IV (both decrypt
 * inside PROVIDER_KEY_OVERLAP_SECONDS, only the new one after); bad input and other developers.
 */
const OVERLAP_SECONDS = 3;
const OWNER = "0x00000000000000000000000000000000c0ffee03";
let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil", PROVIDER_KEY_OVERLAP_SECONDS: String(OVERLAP_SECONDS) });
  client = await registerClient(server.url, { blockchain: true });
});
afterAll(async () => server?.close());

const path = (suffix: string, id = client.client_id) => `/v1/dev-user/clients/${id}/provider${suffix}`;

describe("provider side in the developer center", () => {
  let cuid: string;
  let key: string;
  let iv: string;

  it("registers a cuid (the first answers the AES key and IV once) and shows release_per and the release flag", async () => {
    const before = await call(server.url, "GET", path(""), { token: client.devToken });
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({ success: true, client_id: client.client_id, registered: false, cuids: [] });
    cuid = `dc-${randomBytes(4).toString("hex")}`;
    const res = await call(server.url, "POST", path("/cuids"), { token: client.devToken, body: { cuid, release_per: 25, owner_addr: OWNER } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    key = String(res.json["aes_key"]);
    iv = String(res.json["aes_iv"]);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const second = await call(server.url, "POST", path("/cuids"), { token: client.devToken, body: { cuid: `${cuid}-b`, release_per: 0, owner_addr: OWNER } });
    expect(second.status).toBe(200);
    expect(second.json).not.toHaveProperty("aes_key");
    await postBasic(server, client, "/v1/dev/enable_release", { client_id: client.client_id, cuid });
    const status = await call(server.url, "GET", path(""), { token: client.devToken });
    expect(status.json).toMatchObject({ registered: true, replay_protection: false, key_rotated_at: null });
    expect(status.json["cuids"]).toEqual([
      expect.objectContaining({ cuid, release_per: 25, release_enabled: true, owner_addr: getAddress(OWNER) }),
      expect.objectContaining({ cuid: `${cuid}-b`, release_per: 0, release_enabled: false }),
    ]);
    const taken = await call(server.url, "POST", path("/cuids"), { token: client.devToken, body: { cuid, release_per: 1, owner_addr: OWNER } });
    expect([taken.status, taken.json["error"]]).toEqual([409, "cuid_taken"]);
  }, 60_000);

  it("turns the spend replay protection on and off, recorded in the audit list", async () => {
    const on = await call(server.url, "POST", path("/replay_protection"), { token: client.devToken, body: { enabled: true } });
    expect(on.json).toMatchObject({ replay_protection: true });
    const off = await call(server.url, "POST", path("/replay_protection"), { token: client.devToken, body: { enabled: false } });
    expect(off.json).toMatchObject({ replay_protection: false });
    const audit = await call(server.url, "GET", `/v1/dev-user/clients/${client.client_id}/audit`, { token: client.devToken });
    const actions = (audit.json["entries"] as Array<{ action: string; detail: Record<string, unknown> }>).map((e) => e.action);
    expect(actions.slice(0, 4)).toEqual(["provider.replay_protection", "provider.replay_protection", "provider.cuid_registered", "provider.cuid_registered"]);
    expect(JSON.stringify(audit.json)).not.toContain(key);
  });

  it("rotates the AES key: a spend under the old key works inside the window and fails after it; the new key works", async () => {
    const user = await newUser(server, client);
    expect((await postBasic(server, client, "/v1/dev/fund_slot", { client_id: client.client_id, user_id: user.userId, xotn: "1000", cuid })).status).toBe(200);
    const buy = await postBasic(server, client, "/v1/development-api/user_buy_content_token", {
      client_id: client.client_id,
      user_dbkey: user.userId,
      amount: "100",
      cuid,
    });
    expect(buy.status).toBe(200);
    const spend = (k: string, i: string) =>
      postBasic(server, client, "/v1/development-api/increase_used_content_token", {
        encrypted_message: encryptHex(JSON.stringify({ client_id: client.client_id, user_dbkey: user.userId, amount: "1", cuid }), k, i),
      });
    const rotation = await call(server.url, "POST", path("/key"), { token: client.devToken });
    expect(rotation.status).toBe(200);
    const [newKey, newIv] = [String(rotation.json["aes_key"]), String(rotation.json["aes_iv"])];
    expect(newKey).toMatch(/^[0-9a-f]{64}$/);
    expect(newKey).not.toBe(key);
    const until = Date.parse(String(rotation.json["previous_key_valid_until"]));
    expect(until - Date.now()).toBeLessThanOrEqual(OVERLAP_SECONDS * 1000);
    expect((await call(server.url, "GET", path(""), { token: client.devToken })).json["previous_key_valid_until"]).toBe(
      rotation.json["previous_key_valid_until"],
    );
    expect((await spend(key, iv)).status).toBe(200);
    expect((await spend(newKey, newIv)).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()) + 100));
    const late = await spend(key, iv);
    expect([late.status, late.json["error"]]).toEqual([400, "invalid_encrypted_message"]);
    expect((await spend(newKey, newIv)).status).toBe(200);
    const shown = await call(server.url, "GET", path(""), { token: client.devToken });
    expect(JSON.stringify(shown.json)).not.toContain(newKey);
    expect(shown.json["previous_key_valid_until"]).toBeNull();
  }, 60_000);

  it("bad input: 400 invalid_request with details and nothing changed on chain or in the database", async () => {
    const before = await chainSnapshot(server);
    const cases: Array<[string, unknown]> = [
      ["/cuids", {}],
      ["/cuids", { cuid: "", release_per: 1, owner_addr: OWNER }],
      ["/cuids", { cuid: "ok-cuid", release_per: -1, owner_addr: OWNER }],
      ["/cuids", { cuid: "ok-cuid", release_per: 1.5, owner_addr: OWNER }],
      ["/cuids", { cuid: "ok-cuid", release_per: 1, owner_addr: "0x123" }],
      ["/cuids", { cuid: "ok-cuid", release_per: 1, owner_addr: OWNER, client_id: "sg_other" }],
      ["/replay_protection", {}],
      ["/replay_protection", { enabled: "yes" }],
      ["/key", { overlap_seconds: 0 }],
    ];
    for (const [suffix, body] of cases) {
      const res = await call(server.url, "POST", path(suffix), { token: client.devToken, body });
      expect(res.status, `${suffix} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json["error"]).toBe("invalid_request");
      expect(Array.isArray(res.json["details"])).toBe(true);
    }
    const badKey = await call(server.url, "POST", path("/cuids"), {
      token: client.devToken,
      body: { cuid: "ok-cuid", release_per: 1, owner_addr: OWNER },
      headers: { "idempotency-key": "x".repeat(300) },
    });
    expect([badKey.status, badKey.json["error"]]).toEqual([400, "invalid_request"]);
    expect(await chainSnapshot(server)).toBe(before);
  });

  it("another developer's token (and none) is refused on every provider endpoint, nothing changed", async () => {
    const other = await devSignup(server.url);
    const before = await chainSnapshot(server);
    const cases: Array<[string, string, unknown]> = [
      ["GET", "", undefined],
      ["POST", "/cuids", { cuid: "hijack-cuid", release_per: 1, owner_addr: OWNER }],
      ["POST", "/replay_protection", { enabled: true }],
      ["POST", "/key", undefined],
    ];
    for (const [method, suffix, body] of cases) {
      const res = await call(server.url, method, path(suffix), { token: other.token, ...(body === undefined ? {} : { body }) });
      expect([res.status, res.json["error"]], `${method} ${suffix}`).toEqual([404, "client_not_found"]);
      const anon = await call(server.url, method, path(suffix), body === undefined ? {} : { body });
      expect([anon.status, anon.json["error"]]).toEqual([401, "invalid_token"]);
    }
    expect(await chainSnapshot(server)).toBe(before);
  });

  it("a client without a provider record: rotate and replay protection answer 404 provider_not_registered", async () => {
    const plain = await registerClient(server.url, { blockchain: true });
    const rotate = await call(server.url, "POST", path("/key", plain.client_id), { token: plain.devToken });
    expect([rotate.status, rotate.json["error"]]).toEqual([404, "provider_not_registered"]);
    const replay = await call(server.url, "POST", path("/replay_protection", plain.client_id), { token: plain.devToken, body: { enabled: true } });
    expect([replay.status, replay.json["error"]]).toEqual([404, "provider_not_registered"]);
  });
});

describe("CHAIN=off", () => {
  it("answers 503 service_unavailable on the provider endpoints", async () => {
    const off = await startTestServer();
    try {
      const c = await registerClient(off.url, { blockchain: true });
      const res = await call(off.url, "GET", `/v1/dev-user/clients/${c.client_id}/provider`, { token: c.devToken });
      expect([res.status, res.json["error"]]).toEqual([503, "service_unavailable"]);
    } finally {
      await off.close();
    }
  });
});
