import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, call, exchange, pkce, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
let web: Awaited<ReturnType<typeof registerClient>>;
let chainClient: Awaited<ReturnType<typeof registerClient>>;

beforeAll(async () => {
  server = await startTestServer();
  web = await registerClient(server.url, { redirect_uris: ["https://app.example/cb", "https://app.example/other"] });
  chainClient = await registerClient(server.url, { blockchain: true });
});
afterAll(async () => server?.close());

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call(server.url, "POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
const used = async (code: string) => {
  const { createHash } = await import("node:crypto");
  const [row] = await server.sql<{ used: boolean }>("SELECT used_at IS NOT NULL AS used FROM authorization_codes WHERE code_hash = $1", [
    createHash("sha256").update(code).digest("base64url"),
  ]);
  return row?.used;
};

describe("POST /oauth/token", () => {
  it("exchanges a code for an ES256 at+jwt access token (spec 2.2), no-store", async () => {
    const { code } = await authorizeCode(server.url, web);
    const res = await exchange(server.url, web, code);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toMatchObject({ success: true, token_type: "Bearer", expires_in: 3600, user_id: expect.stringMatching(/^[1-9][0-9]*$/) });
    expect(res.json).not.toHaveProperty("content_address");
    const token = String(res.json["access_token"]);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", typ: "at+jwt", kid: expect.any(String) });
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: [] };
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: server.url, audience: web.client_id, typ: "at+jwt" });
    expect(payload).toMatchObject({ sub: res.json["user_id"], client_id: web.client_id, token_use: "access_token" });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it("accepts JSON bodies and client_secret_basic", async () => {
    const a = await authorizeCode(server.url, web);
    const json = await call(server.url, "POST", "/oauth/token", {
      body: { grant_type: "authorization_code", code: a.code, redirect_uri: web.redirect_uris[0], client_id: web.client_id, client_secret: web.client_secret },
    });
    expect(json.status).toBe(200);
    const b = await authorizeCode(server.url, web);
    const basic = Buffer.from(`${encodeURIComponent(web.client_id)}:${encodeURIComponent(web.client_secret)}`).toString("base64");
    const res = await form({ grant_type: "authorization_code", code: b.code, redirect_uri: web.redirect_uris[0]! }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
  });

  it("answers a blockchain client without content_address while the server runs without a chain (none is made up)", async () => {
    const first = await authorizeCode(server.url, chainClient);
    const r1 = await exchange(server.url, chainClient, first.code);
    expect(r1.json).toMatchObject({ success: true, token_type: "Bearer" });
    expect(r1.json).not.toHaveProperty("content_address");
  });

  it("refuses a replayed code with invalid_grant and revokes the token issued from it", async () => {
    const { code } = await authorizeCode(server.url, web);
    const first = await exchange(server.url, web, code);
    const token = String(first.json["access_token"]);
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token })).status).toBe(200);
    const replay = await exchange(server.url, web, code);
    expect(replay.status).toBe(400);
    expect(replay.json).toMatchObject({ success: false, error: "invalid_grant", error_description: expect.any(String) });
    const after = await call(server.url, "GET", "/v1/oauth/validate", { token });
    expect(after.status).toBe(401);
    expect(after.json["error"]).toBe("invalid_token");
  });

  it("refuses an expired code (60 s lifetime, 30 s skew)", async () => {
    const { code } = await authorizeCode(server.url, web);
    await server.sql("UPDATE authorization_codes SET expires_at = now() - interval '31 seconds' WHERE used_at IS NULL");
    const res = await exchange(server.url, web, code);
    expect(res.status).toBe(400);
    expect(res.json["error"]).toBe("invalid_grant");
  });

  it("accepts a code within the clock-skew tolerance after expiry", async () => {
    const { code } = await authorizeCode(server.url, web);
    await server.sql("UPDATE authorization_codes SET expires_at = now() - interval '10 seconds' WHERE used_at IS NULL");
    expect((await exchange(server.url, web, code)).status).toBe(200);
  });

  it("binds the code to its client: another client's valid credentials get invalid_grant", async () => {
    const other = await registerClient(server.url, { redirect_uris: web.redirect_uris });
    const { code } = await authorizeCode(server.url, web);
    const res = await exchange(server.url, other, code);
    expect(res.status).toBe(400);
    expect(res.json["error"]).toBe("invalid_grant");
  });

  it("binds the code to its redirect_uri: another registered URI gets invalid_grant, an unregistered one 401", async () => {
    const { code } = await authorizeCode(server.url, web);
    const unregistered = await exchange(server.url, web, code, { redirect_uri: "https://evil.example/cb" });
    expect(unregistered.status).toBe(401);
    expect(unregistered.json["error"]).toBe("redirect_uri_mismatch");
    expect(await used(code)).toBe(false);
    const other = await exchange(server.url, web, code, { redirect_uri: "https://app.example/other" });
    expect(other.status).toBe(400);
    expect(other.json["error"]).toBe("invalid_grant");
  });

  it.each([
    ["a wrong secret", (c: typeof web) => ({ client_id: c.client_id, client_secret: `${c.client_secret}x` })],
    ["an unknown client", () => ({ client_id: "sg_ffffffffffffffffffffffff", client_secret: "a".repeat(43) })],
    ["no secret", (c: typeof web) => ({ client_id: c.client_id })],
  ])("answers 401 invalid_client for %s and leaves the code unused", async (_n, creds) => {
    const { code } = await authorizeCode(server.url, web);
    const res = await form({ grant_type: "authorization_code", code, redirect_uri: web.redirect_uris[0]!, ...creds(web) });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_client", error_description: expect.any(String) });
    expect(await used(code)).toBe(false);
  });

  it("refuses client credentials in both Basic and body with 400 invalid_request", async () => {
    const basic = Buffer.from(`${web.client_id}:${web.client_secret}`).toString("base64");
    const res = await form(
      { grant_type: "authorization_code", code: "x", redirect_uri: web.redirect_uris[0]!, client_secret: web.client_secret },
      { authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(400);
    expect(res.json["error"]).toBe("invalid_request");
  });

  it.each([
    ["grant_type=password", { grant_type: "password" }, 400, "unsupported_grant_type"],
    ["grant_type=client_credentials", { grant_type: "client_credentials" }, 400, "unsupported_grant_type"],
    ["no grant_type", { grant_type: undefined }, 400, "invalid_request"],
    ["no code", { code: undefined }, 400, "invalid_request"],
    ["no redirect_uri", { redirect_uri: undefined }, 400, "invalid_request"],
    ["an unknown code", { code: "never-issued" }, 400, "invalid_grant"],
  ])("answers %s with %s %s", async (_n, patch, status, error) => {
    const fields: Record<string, string | undefined> = {
      grant_type: "authorization_code",
      code: "c0de",
      redirect_uri: web.redirect_uris[0],
      client_id: web.client_id,
      client_secret: web.client_secret,
      extra_param_ignored: "yes",
      ...patch,
    };
    const res = await form(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ success: false, error, error_description: res.json["message"] });
  });

  it("rejects malformed JSON (400 malformed_json), wrong-typed fields (400) and an oversized body (413)", async () => {
    const bad = await call(server.url, "POST", "/oauth/token", { body: "{nope" });
    expect(bad.status).toBe(400);
    expect(bad.json["error"]).toBe("malformed_json");
    const typed = await call(server.url, "POST", "/oauth/token", {
      body: { grant_type: "authorization_code", code: 5, redirect_uri: [], client_id: web.client_id, client_secret: web.client_secret },
    });
    expect(typed.status).toBe(400);
    expect(typed.json["error"]).toBe("invalid_request");
    const big = await form({ grant_type: "authorization_code", code: "x".repeat(70_000) });
    expect(big.status).toBe(413);
    const text = await call(server.url, "POST", "/oauth/token", { body: "hello", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
  });

  describe("PKCE (S256)", () => {
    it("accepts the right verifier", async () => {
      const p = pkce();
      const { code } = await authorizeCode(server.url, web, { challenge: p.challenge });
      expect((await exchange(server.url, web, code, { code_verifier: p.verifier })).status).toBe(200);
    });
    it("refuses a wrong or missing verifier with invalid_grant", async () => {
      const p = pkce();
      const a = await authorizeCode(server.url, web, { challenge: p.challenge });
      expect((await exchange(server.url, web, a.code, { code_verifier: pkce().verifier })).json["error"]).toBe("invalid_grant");
      const b = await authorizeCode(server.url, web, { challenge: p.challenge });
      expect((await exchange(server.url, web, b.code)).json["error"]).toBe("invalid_grant");
    });
    it("refuses a verifier for a code issued without a challenge", async () => {
      const { code } = await authorizeCode(server.url, web);
      expect((await exchange(server.url, web, code, { code_verifier: pkce().verifier })).json["error"]).toBe("invalid_grant");
    });
  });
});
