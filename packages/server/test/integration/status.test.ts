import { createHmac } from "node:crypto";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, call, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { type Receiver, startReceiver } from "../support/receiver.js";

const SECRET = "marketplace-secret-0123456789abcdefghijklmnop";
let server: TestServer;
let marketplace: Receiver;
let client: Awaited<ReturnType<typeof registerClient>>;
let user: { token: string; userId: string };
let other: { token: string; userId: string };

async function login(): Promise<{ token: string; userId: string }> {
  const { code } = await authorizeCode(server.url, client);
  const res = await exchange(server.url, client, code);
  return { token: String(res.json["access_token"]), userId: String(res.json["user_id"]) };
}

beforeAll(async () => {
  marketplace = await startReceiver();
  server = await startTestServer({ MARKETPLACE_URL: `${marketplace.url}/hooks/slotgate`, MARKETPLACE_SECRET: SECRET, MARKETPLACE_RETRY_BASE_MS: "100" });
  client = await registerClient(server.url);
  user = await login();
  other = await login();
});
afterAll(async () => {
  await server?.close();
  await marketplace?.close();
});

const statusRows = async (userId: string) => server.sql("SELECT status FROM login_status WHERE user_id = $1", [userId]);
const outboxCount = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM outbox"))[0]!.n);

describe("GET /v1/oauth/validate", () => {
  it("answers 200 for a valid access token, with CORS *", async () => {
    const res = await call(server.url, "GET", "/v1/oauth/validate", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, valid: true, user_id: user.userId, client_id: client.client_id, token_use: "access_token" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await fetch(`${server.url}/v1/oauth/validate`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
  });

  it("answers 401 invalid_token with WWW-Authenticate for missing, malformed, forged, expired and foreign-issuer tokens", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
    const kid = jwks.keys[0]!.kid;
    const forged = await new SignJWT({ client_id: client.client_id, token_use: "access_token" })
      .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
      .setIssuer(server.url)
      .setSubject(user.userId)
      .setAudience(client.client_id)
      .setJti("x")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    const [header, payload] = user.token.split(".");
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), sub: other.userId })).toString("base64url")}.${user.token.split(".")[2]}`;
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${payload}.`;
    for (const token of [undefined, "garbage", forged, tampered, none]) {
      const res = await call(server.url, "GET", "/v1/oauth/validate", token ? { token } : {});
      expect(res.status).toBe(401);
      expect(res.json["error"]).toBe("invalid_token");
      expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    }
  });

  it("rejects a developer-center token as an end-user bearer token", async () => {
    const res = await call(server.url, "GET", "/v1/oauth/validate", { token: client.devToken });
    expect(res.status).toBe(401);
  });

  it("revocation takes effect at once even though verification results are cached", async () => {
    const fresh = await login();
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: fresh.token })).status).toBe(200);
    const revoke = await call(server.url, "POST", "/v1/oauth/revoke", { token: fresh.token });
    expect(revoke.status).toBe(200);
    expect(revoke.json).toEqual({ success: true, revoked: true });
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: fresh.token })).status).toBe(401);
    const status = await call(server.url, "POST", "/v1/oauth/status/login", {
      token: fresh.token,
      body: { user_id: fresh.userId, client_id: client.client_id },
    });
    expect(status.status).toBe(401);
  });
});

describe("login-status sync", () => {
  it("login then logout then check; transfer_enabled only when logged out", async () => {
    const body = { user_id: user.userId, client_id: client.client_id };
    const never = await call(server.url, "GET", `/v1/oauth/status/check?${new URLSearchParams(body)}`, { token: user.token });
    expect(never.json).toEqual({ success: true, ...body, status: "logged_out", transfer_enabled: true, timestamp: null });
    const inRes = await call(server.url, "POST", "/v1/oauth/status/login", { token: user.token, body });
    expect(inRes.status).toBe(200);
    expect(inRes.json).toMatchObject({ success: true, user_id: user.userId, status: "logged_in", timestamp: expect.any(String) });
    const check = await call(server.url, "GET", `/v1/oauth/status/check?${new URLSearchParams(body)}`, { token: user.token });
    expect(check.json).toMatchObject({ status: "logged_in", transfer_enabled: false, timestamp: inRes.json["timestamp"] });
    const out = await call(server.url, "POST", "/v1/oauth/status/logout", { token: user.token, body });
    expect(out.json).toMatchObject({ success: true, status: "logged_out", transfer_enabled: true });
    const after = await call(server.url, "GET", `/v1/oauth/status/check?${new URLSearchParams(body)}`, { token: user.token });
    expect(after.json).toMatchObject({ status: "logged_out", transfer_enabled: true, timestamp: out.json["timestamp"] });
  });

  it("refuses another user's token with 403 token_user_mismatch and changes nothing", async () => {
    const before = await outboxCount();
    for (const body of [
      { user_id: other.userId, client_id: client.client_id },
      { user_id: user.userId, client_id: "sg_000000000000000000000000" },
    ]) {
      const res = await call(server.url, "POST", "/v1/oauth/status/login", { token: user.token, body });
      expect(res.status).toBe(403);
      expect(res.json["error"]).toBe("token_user_mismatch");
      const check = await call(server.url, "GET", `/v1/oauth/status/check?${new URLSearchParams(body)}`, { token: user.token });
      expect(check.status).toBe(403);
    }
    expect(await statusRows(other.userId)).toHaveLength(0);
    expect(await outboxCount()).toBe(before);
  });

  it.each([
    ["missing client_id", { user_id: "1" }],
    ["extra field", { user_id: "1", client_id: "c", status: "logged_out" }],
    ["numeric user_id", { user_id: 1, client_id: "c" }],
    ["null body", null],
  ])("rejects %s with 400 invalid_request and changes nothing", async (_n, body) => {
    const before = await outboxCount();
    const res = await call(server.url, "POST", "/v1/oauth/status/logout", { token: other.token, body });
    expect(res.status).toBe(400);
    expect(res.json["error"]).toBe("invalid_request");
    expect(await outboxCount()).toBe(before);
    expect(await statusRows(other.userId)).toHaveLength(0);
  });

  it("rejects malformed JSON, oversized bodies, a missing token and a non-JSON body", async () => {
    const bad = await call(server.url, "POST", "/v1/oauth/status/login", { token: other.token, body: '{"user_id":' });
    expect(bad.json["error"]).toBe("malformed_json");
    const big = await call(server.url, "POST", "/v1/oauth/status/login", { token: other.token, body: { user_id: "1".repeat(70_000), client_id: "c" } });
    expect(big.status).toBe(413);
    const anon = await call(server.url, "POST", "/v1/oauth/status/login", { body: { user_id: other.userId, client_id: client.client_id } });
    expect(anon.status).toBe(401);
    const text = await call(server.url, "POST", "/v1/oauth/status/login", { token: other.token, body: "user_id=1", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(await statusRows(other.userId)).toHaveLength(0);
  });

  it("rejects a bad check query with 400 (missing, extra parameter)", async () => {
    const missing = await call(server.url, "GET", `/v1/oauth/status/check?user_id=${user.userId}`, { token: user.token });
    expect(missing.status).toBe(400);
    const extra = await call(server.url, "GET", `/v1/oauth/status/check?user_id=${user.userId}&client_id=${client.client_id}&x=1`, { token: user.token });
    expect(extra.status).toBe(400);
  });
});

describe("marketplace", () => {
  it("receives every change as an HMAC-signed webhook, retried with backoff after failures", async () => {
    const fresh = await login();
    marketplace.failFirst = 2;
    const start = marketplace.received.length;
    const body = { user_id: fresh.userId, client_id: client.client_id };
    await call(server.url, "POST", "/v1/oauth/status/login", { token: fresh.token, body });
    const got = await marketplace.waitFor(start + 1, 15_000);
    const hook = got[start]!;
    expect(hook.url.pathname).toBe("/hooks/slotgate");
    const sig = String(hook.headers["slotgate-signature"]);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig)!;
    expect(v1).toBe(createHmac("sha256", SECRET).update(`${t}.${hook.body}`).digest("hex"));
    expect(JSON.parse(hook.body)).toMatchObject({ type: "login_status.changed", ...body, status: "logged_in", transfer_enabled: false });
    // The receiver answers before the worker records the delivery: wait for the record.
    let row: { attempts: number; delivered: boolean } | undefined;
    for (let i = 0; i < 200 && !row?.delivered; i++) {
      [row] = await server.sql<{ attempts: number; delivered: boolean }>(
        "SELECT attempts, delivered_at IS NOT NULL AS delivered FROM outbox WHERE payload->>'user_id' = $1",
        [fresh.userId],
      );
      if (!row?.delivered) await new Promise((r) => setTimeout(r, 25));
    }
    expect(row).toMatchObject({ delivered: true });
    expect(row!.attempts).toBeGreaterThanOrEqual(3);
    marketplace.failFirst = 0;
    await call(server.url, "POST", "/v1/oauth/status/logout", { token: fresh.token, body });
    const next = await marketplace.waitFor(start + 2);
    expect(JSON.parse(next[start + 1]!.body)).toMatchObject({ status: "logged_out", transfer_enabled: true });
  });

  it("answers the listing check: allowed only when logged_out; requires the marketplace secret", async () => {
    const fresh = await login();
    const q = new URLSearchParams({ user_id: fresh.userId, client_id: client.client_id });
    const ask = () => call(server.url, "GET", `/v1/marketplace/listing_allowed?${q}`, { token: SECRET });
    expect((await ask()).json).toMatchObject({ status: "logged_out", listing_allowed: true });
    await call(server.url, "POST", "/v1/oauth/status/login", { token: fresh.token, body: Object.fromEntries(q) });
    expect((await ask()).json).toMatchObject({ status: "logged_in", listing_allowed: false });
    const noAuth = await call(server.url, "GET", `/v1/marketplace/listing_allowed?${q}`, { token: fresh.token });
    expect(noAuth.status).toBe(401);
    expect(noAuth.json["error"]).toBe("invalid_client");
    const missing = await call(server.url, "GET", `/v1/marketplace/listing_allowed?user_id=${fresh.userId}`, { token: SECRET });
    expect(missing.status).toBe(400);
    expect(missing.json["error"]).toBe("invalid_request");
    const extra = await call(server.url, "GET", `/v1/marketplace/listing_allowed?${q}&status=logged_out`, { token: SECRET });
    expect(extra.status).toBe(400);
  });
});
