import { createHash } from "node:crypto";
import { decodeJwt } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, call, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Server-side refresh (spec 9, v4): rotation on every use, the reuse-grace window for concurrent
 * refreshes, reuse detection that ends the family (RFC 9700 4.14.2), and logout / revocation.
 */
let server: TestServer;
let game: Awaited<ReturnType<typeof registerClient>>;

beforeAll(async () => {
  server = await startTestServer();
  game = await registerClient(server.url, { grant_types: ["refresh_token"] });
});
afterAll(async () => server?.close());

const hash = (token: string) => createHash("sha256").update(token).digest("base64url");
const refresh = (refreshToken: string, who: { client_id: string; client_secret: string } = game) =>
  call(server.url, "POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: who.client_id,
      client_secret: who.client_secret,
    }).toString(),
  });
const validate = (token: string) => call(server.url, "GET", "/v1/oauth/validate", { token });

async function signIn(who = game) {
  const { code } = await authorizeCode(server.url, who);
  const res = await exchange(server.url, who, code);
  expect(res.status).toBe(200);
  return { accessToken: String(res.json["access_token"]), refreshToken: String(res.json["refresh_token"]), userId: String(res.json["user_id"]) };
}

/** Moves a used token's first use into the past, beyond the grace window (10 s). */
async function ageUse(refreshToken: string, seconds: number) {
  await server.sql(`UPDATE refresh_tokens SET used_at = used_at - make_interval(secs => $2) WHERE token_hash = $1`, [hash(refreshToken), seconds]);
}

describe("refresh tokens (opt-in per confidential client)", () => {
  it("the code exchange returns a refresh token only to a client registered with the grant; the access token names its family", async () => {
    const first = await signIn();
    expect(first.refreshToken).toMatch(/^sgr_[A-Za-z0-9_-]{43}$/);
    expect(decodeJwt(first.accessToken)["sid"]).toEqual(expect.any(String));
    const plain = await registerClient(server.url);
    const { code } = await authorizeCode(server.url, plain);
    const res = await exchange(server.url, plain, code);
    expect(res.json).not.toHaveProperty("refresh_token");
    expect(decodeJwt(String(res.json["access_token"]))).not.toHaveProperty("sid");
    const notRegistered = await refresh(first.refreshToken, plain);
    expect([notRegistered.status, notRegistered.json["error"]]).toEqual([400, "unauthorized_client"]);
  });

  it("rotates on every use: a new refresh token and a new access token that validates", async () => {
    const first = await signIn();
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.headers.get("cache-control")).toBe("no-store");
    expect(second.json).toMatchObject({ success: true, token_type: "Bearer", expires_in: 3600, user_id: first.userId });
    const rotated = String(second.json["refresh_token"]);
    expect(rotated).not.toBe(first.refreshToken);
    const access = String(second.json["access_token"]);
    expect(decodeJwt(access)["sid"]).toBe(decodeJwt(first.accessToken)["sid"]);
    expect((await validate(access)).json).toMatchObject({ valid: true, user_id: first.userId, client_id: game.client_id, token_use: "access_token" });
    const third = await refresh(rotated);
    expect(third.status).toBe(200);
    expect(third.json["refresh_token"]).not.toBe(rotated);
  });

  it("reuse grace: two concurrent refreshes with one token both succeed and get the same successor", async () => {
    const first = await signIn();
    const [a, b] = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json["refresh_token"]).toBe(b.json["refresh_token"]);
    expect(a.json["access_token"]).not.toBe(b.json["access_token"]);
    expect((await validate(String(a.json["access_token"]))).status).toBe(200);
    expect((await validate(String(b.json["access_token"]))).status).toBe(200);
    const next = await refresh(String(a.json["refresh_token"]));
    expect(next.status).toBe(200);
  });

  it("reuse detection: a stale token used after the grace window ends the family and the current access token is refused", async () => {
    const first = await signIn();
    const second = await refresh(first.refreshToken);
    const current = { access: String(second.json["access_token"]), refresh: String(second.json["refresh_token"]) };
    expect((await validate(current.access)).status).toBe(200);
    await ageUse(first.refreshToken, 11);
    const stale = await refresh(first.refreshToken);
    expect([stale.status, stale.json["error"]]).toEqual([400, "invalid_grant"]);
    expect(stale.json["error_description"]).toMatch(/already used/);
    const afterwards = await validate(current.access);
    expect(afterwards.status).toBe(401);
    expect(afterwards.json["error"]).toBe("invalid_token");
    expect((await validate(first.accessToken)).status, "the first access token of the family too").toBe(401);
    const successor = await refresh(current.refresh);
    expect([successor.status, successor.json["error"]]).toEqual([400, "invalid_grant"]);
    const [family] = await server.sql<{ ended_reason: string }>("SELECT ended_reason FROM refresh_families WHERE family_id = $1", [
      decodeJwt(current.access)["sid"],
    ]);
    expect(family?.ended_reason).toBe("refresh_token_reused");
  });

  it("reuse within the window after the successor was itself used is reuse, not a concurrent refresh", async () => {
    const first = await signIn();
    const second = await refresh(first.refreshToken);
    expect((await refresh(String(second.json["refresh_token"]))).status).toBe(200);
    const replay = await refresh(first.refreshToken);
    expect(replay.json["error"]).toBe("invalid_grant");
  });

  it("logout ends the family: the refresh token is refused, the access token in hand still checks status", async () => {
    const first = await signIn();
    const out = await call(server.url, "POST", "/v1/oauth/status/logout", {
      token: first.accessToken,
      body: { user_id: first.userId, client_id: game.client_id },
    });
    expect(out.status).toBe(200);
    const res = await refresh(first.refreshToken);
    expect([res.status, res.json["error"]]).toEqual([400, "invalid_grant"]);
    const check = await call(server.url, "GET", `/v1/oauth/status/check?user_id=${first.userId}&client_id=${game.client_id}`, { token: first.accessToken });
    expect(check.json).toMatchObject({ status: "logged_out", transfer_enabled: true });
  });

  it("revocation ends the family and every access token of it", async () => {
    const first = await signIn();
    const second = await refresh(first.refreshToken);
    const revoked = await call(server.url, "POST", "/v1/oauth/revoke", { token: String(second.json["access_token"]) });
    expect(revoked.status).toBe(200);
    expect((await refresh(String(second.json["refresh_token"]))).json["error"]).toBe("invalid_grant");
    expect((await validate(first.accessToken)).status).toBe(401);
  });

  it("a replayed authorization code ends the family started by it", async () => {
    const { code } = await authorizeCode(server.url, game);
    const first = await exchange(server.url, game, code);
    expect((await exchange(server.url, game, code)).json["error"]).toBe("invalid_grant");
    expect((await refresh(String(first.json["refresh_token"]))).json["error"]).toBe("invalid_grant");
  });

  it("a refresh token works only for its client and only while unexpired", async () => {
    const first = await signIn();
    const other = await registerClient(server.url, { grant_types: ["refresh_token"] });
    expect((await refresh(first.refreshToken, other)).json["error"]).toBe("invalid_grant");
    expect((await refresh(first.refreshToken, { ...game, client_secret: "wrong" })).status).toBe(401);
    await server.sql("UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [hash(first.refreshToken)]);
    expect((await refresh(first.refreshToken)).json["error"]).toBe("invalid_grant");
    expect((await refresh("sgr_never-issued")).json["error"]).toBe("invalid_grant");
  });

  it("openid-client's refreshTokenGrant rotates against the server (client_secret_basic)", async () => {
    const first = await signIn();
    const config = await client.discovery(new URL(server.url), game.client_id, undefined, client.ClientSecretBasic(game.client_secret), {
      algorithm: "oauth2",
      execute: [client.allowInsecureRequests],
    });
    expect(config.serverMetadata().grant_types_supported).toContain("refresh_token");
    const tokens = await client.refreshTokenGrant(config, first.refreshToken);
    expect(tokens.refresh_token).toMatch(/^sgr_/);
    expect(tokens.refresh_token).not.toBe(first.refreshToken);
    expect((await validate(tokens.access_token)).status).toBe(200);
  });
});
