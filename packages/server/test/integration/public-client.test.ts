import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserSession, call, pkce, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Public native clients (RFC 8252 with PKCE, docs/decisions/game-clients.md): registered without a secret
 * (`token_endpoint_auth_method: "none"`), loopback IP redirect URIs with any port at authorization time, a
 * code on the loopback redirect, redeemed with the PKCE S256 verifier alone. Confidential clients unchanged.
 */
let server: TestServer;
let game: Awaited<ReturnType<typeof registerClient>>;
let confidential: Awaited<ReturnType<typeof registerClient>>;
const player = { email: randomEmail("player"), password: "player-password-1" };
const CONFIDENTIAL_LOOPBACK = "http://127.0.0.1:7777/callback";

beforeAll(async () => {
  server = await startTestServer();
  game = await registerClient(server.url, {
    redirect_uris: ["http://127.0.0.1/callback", "http://[::1]/callback"],
    platform: "game",
    token_endpoint_auth_method: "none",
  });
  confidential = await registerClient(server.url, { redirect_uris: [CONFIDENTIAL_LOOPBACK, "https://app.example:8443/cb"], platform: "desktop" });
  // The player signs up once (mailbox step); later flows sign in.
  const params = { client_id: confidential.client_id, redirect_uri: CONFIDENTIAL_LOOPBACK, response_type: "code", state: "sign-up" };
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
  const res = await browser.submitWithMailbox({ ...params, csrf_token: page.csrf, ...player, decision: "approve", intent: "signup" });
  expect(res.status).toBe(302);
});
afterAll(async () => server?.close());

type Params = Record<string, string>;
const authorizeParams = (redirectUri: string, extra: Params = {}): Params => ({
  client_id: game.client_id,
  redirect_uri: redirectUri,
  response_type: "code",
  ...extra,
});
const get = (params: Params) =>
  fetch(`${server.url}/oauth/authorize?${new URLSearchParams(params)}`, { headers: { accept: "application/json" }, redirect: "manual" });
const codeCount = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM authorization_codes"))[0]!.n);

/** The player signs in on the page `params` opens and approves; the Location the browser is sent to. */
async function approve(params: Params): Promise<URL> {
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
  expect(page.status, page.html).toBe(200);
  const res = await browser.submit({ ...params, csrf_token: page.csrf, ...player, decision: "approve" });
  expect(res.status, res.html).toBe(302);
  return new URL(res.location!);
}

/** A code for the game on `redirectUri`, PKCE S256 and a state. */
async function gameCode(redirectUri: string): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const location = await approve(authorizeParams(redirectUri, { state: "st", code_challenge: challenge, code_challenge_method: "S256" }));
  return { code: location.searchParams.get("code")!, verifier };
}

const token = (fields: Params, headers: Record<string, string> = {}) =>
  call(server.url, "POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
const redeem = (code: string, redirectUri: string, extra: Params = {}) =>
  token({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: game.client_id, ...extra });
const validate = (jwt: string) => call(server.url, "GET", "/v1/oauth/validate", { token: jwt });

describe("registering a public client", () => {
  it("issues no secret, shows the method, and keeps the client secret-less and loopback-only afterwards", async () => {
    expect(game.token_endpoint_auth_method).toBe("none");
    expect(game).not.toHaveProperty("client_secret");
    expect(confidential.token_endpoint_auth_method).toBe("client_secret_basic");
    const one = `/v1/dev-user/clients/${game.client_id}`;

    const rotate = await call(server.url, "POST", `${one}/secret`, { token: game.devToken, body: {} });
    expect(rotate.status).toBe(400);
    expect(rotate.json).toMatchObject({ error: "invalid_request", message: expect.stringContaining("no secret to rotate") });
    expect(await server.sql("SELECT secret_hash FROM clients WHERE client_id = $1", [game.client_id])).toEqual([{ secret_hash: "" }]);

    const web = await call(server.url, "PATCH", one, {
      token: game.devToken,
      body: { redirect_uris: ["http://127.0.0.1/callback", "https://game.example/cb"] },
    });
    expect(web.status).toBe(400);
    expect(web.json["details"]).toEqual([{ path: "redirect_uris.1", message: expect.stringContaining("loopback IP redirect URIs") }]);
    const listed = await call(server.url, "GET", "/v1/dev-user/clients", { token: game.devToken });
    expect(listed.json["clients"]).toEqual([
      expect.objectContaining({ redirect_uris: ["http://127.0.0.1/callback", "http://[::1]/callback"], token_endpoint_auth_method: "none" }),
    ]);
  });

  it("refuses a public client with a web redirect URI or the refresh_token grant (400 invalid_request naming the field)", async () => {
    const dev = await call(server.url, "POST", "/v1/dev-user/signup", { body: { email: randomEmail("dev"), password: "dev-password-123" } });
    const body = { name: "g", download_url: "https://g.example/dl", web_url: "https://g.example/", platform: "game", token_endpoint_auth_method: "none" };
    const web = await call(server.url, "POST", "/v1/dev-user/clients", {
      token: String(dev.json["token"]),
      body: { ...body, redirect_uris: ["https://g.example/cb"] },
    });
    expect(web.status).toBe(400);
    expect(web.json["details"]).toEqual([{ path: "redirect_uris.0", message: expect.stringContaining("loopback IP redirect URIs") }]);
    const refresh = await call(server.url, "POST", "/v1/dev-user/clients", {
      token: String(dev.json["token"]),
      body: { ...body, redirect_uris: ["http://127.0.0.1/callback"], grant_types: ["refresh_token"] },
    });
    expect(refresh.status).toBe(400);
    expect(refresh.json["details"]).toEqual([{ path: "grant_types", message: expect.stringContaining("confidential client") }]);
  });

  it("discovery metadata lists PKCE S256 and the none method", async () => {
    const meta = await call(server.url, "GET", "/.well-known/oauth-authorization-server");
    expect(meta.json["code_challenge_methods_supported"]).toEqual(["S256"]);
    expect(meta.json["token_endpoint_auth_methods_supported"]).toContain("none");
  });
});

describe("authorizing a public client on its loopback redirect", () => {
  it("accepts any port of a registered loopback URI and redirects there with a code and the state, never a jwt", async () => {
    for (const uri of ["http://127.0.0.1:53123/callback", "http://127.0.0.1:61001/callback", "http://[::1]:40404/callback"]) {
      const { challenge } = pkce();
      const location = await approve(authorizeParams(uri, { state: "st-1", code_challenge: challenge, code_challenge_method: "S256" }));
      expect(`${location.origin}${location.pathname}`).toBe(uri);
      expect(location.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(location.searchParams.get("state")).toBe("st-1");
      expect(location.searchParams.has("jwt")).toBe(false);
    }
  });

  it.each([
    ["another path", "game", "http://127.0.0.1:5000/other"],
    ["a trailing slash", "game", "http://127.0.0.1:5000/callback/"],
    ["localhost", "game", "http://localhost:5000/callback"],
    ["https", "game", "https://127.0.0.1:5000/callback"],
    ["a confidential client's other loopback port", "confidential", "http://127.0.0.1:7778/callback"],
    ["a confidential client's loopback URI without its port", "confidential", "http://127.0.0.1/callback"],
    ["a non-loopback port mismatch", "confidential", "https://app.example:9443/cb"],
    ["a non-loopback URI without its port", "confidential", "https://app.example/cb"],
  ])("refuses %s with 401 redirect_uri_mismatch and no redirect", async (_name, who, uri) => {
    const { challenge } = pkce();
    const client = who === "game" ? game : confidential;
    const res = await get({
      client_id: client.client_id,
      redirect_uri: uri,
      response_type: "code",
      state: "s",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    expect(((await res.json()) as { error: string }).error).toBe("redirect_uri_mismatch");
  });

  it("requires PKCE S256 of a public client: none, or plain, is 400 invalid_request saying what to send, and no code is issued", async () => {
    const before = await codeCount();
    const missing = await get(authorizeParams("http://127.0.0.1:5000/callback", { state: "s" }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: "invalid_request",
      details: [{ path: "code_challenge", message: "is required for a public client (PKCE S256)" }],
    });
    const { verifier } = pkce();
    const plain = await get(authorizeParams("http://127.0.0.1:5000/callback", { state: "s", code_challenge: verifier, code_challenge_method: "plain" }));
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: "invalid_request", details: [{ path: "code_challenge_method" }] });
    expect(await codeCount()).toBe(before);
  });

  it("lets PKCE stand in for state on a public client's code redirect; a confidential client's loopback JWT redirect still needs state", async () => {
    const { challenge } = pkce();
    const location = await approve(authorizeParams("http://127.0.0.1:5001/callback", { code_challenge: challenge, code_challenge_method: "S256" }));
    expect(location.searchParams.has("code")).toBe(true);
    expect(location.searchParams.has("state")).toBe(false);
    const res = await get({
      client_id: confidential.client_id,
      redirect_uri: CONFIDENTIAL_LOOPBACK,
      response_type: "code",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("ERR_MISSING_PARAMS");
  });

  it("leaves a confidential client's loopback redirect as it was: the user JWT and the state", async () => {
    const location = await approve({ client_id: confidential.client_id, redirect_uri: CONFIDENTIAL_LOOPBACK, response_type: "code", state: "st-2" });
    expect(location.searchParams.get("state")).toBe("st-2");
    expect(location.searchParams.has("code")).toBe(false);
    expect((await validate(location.searchParams.get("jwt")!)).json).toMatchObject({ valid: true, token_use: "user_jwt" });
  });
});

describe("redeeming a public client's code at /oauth/token", () => {
  it("with the code_verifier and no secret: the player's 7-day user JWT", async () => {
    const uri = "http://127.0.0.1:52001/callback";
    const { code, verifier } = await gameCode(uri);
    const res = await redeem(code, uri, { code_verifier: verifier });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toMatchObject({ success: true, token_type: "Bearer", expires_in: 604_800, user_id: expect.any(String) });
    expect(res.json).not.toHaveProperty("refresh_token");
    expect((await validate(String(res.json["access_token"]))).json).toMatchObject({
      valid: true,
      client_id: game.client_id,
      token_use: "user_jwt",
      user_id: res.json["user_id"],
    });
  });

  it("refuses a missing verifier with 400 invalid_request and leaves the code redeemable", async () => {
    const uri = "http://127.0.0.1:52002/callback";
    const { code, verifier } = await gameCode(uri);
    const missing = await redeem(code, uri);
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: "invalid_request", details: [{ path: "code_verifier", message: "is required for a public client" }] });
    expect((await redeem(code, uri, { code_verifier: verifier })).status).toBe(200);
  });

  it("refuses a wrong verifier with 400 invalid_grant, and the code is spent", async () => {
    const uri = "http://127.0.0.1:52006/callback";
    const { code, verifier } = await gameCode(uri);
    const wrong = await redeem(code, uri, { code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.json["error"]).toBe("invalid_grant");
    const late = await redeem(code, uri, { code_verifier: verifier });
    expect(late.status).toBe(400);
    expect(late.json["error"]).toBe("invalid_grant");
  });

  it("refuses a secret (401 invalid_client), another port than the authorize request's (400 invalid_grant), and a replay, which revokes the JWT", async () => {
    const uri = "http://127.0.0.1:52003/callback";
    const { code, verifier } = await gameCode(uri);
    const withSecret = await redeem(code, uri, { code_verifier: verifier, client_secret: "a-secret-the-client-does-not-have" });
    expect(withSecret.status).toBe(401);
    expect(withSecret.json["error"]).toBe("invalid_client");
    const basic = await token(
      { grant_type: "authorization_code", code, redirect_uri: uri, code_verifier: verifier },
      { authorization: `Basic ${Buffer.from(`${game.client_id}:`).toString("base64")}` },
    );
    expect(basic.status).toBe(401);
    const first = await redeem(code, uri, { code_verifier: verifier });
    expect(first.status).toBe(200);
    const jwt = String(first.json["access_token"]);
    expect((await validate(jwt)).status).toBe(200);
    const replay = await redeem(code, uri, { code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect(replay.json["error"]).toBe("invalid_grant");
    expect((await validate(jwt)).status).toBe(401);

    const other = await gameCode("http://127.0.0.1:52004/callback");
    const moved = await redeem(other.code, "http://127.0.0.1:52005/callback", { code_verifier: other.verifier });
    expect(moved.status).toBe(400);
    expect(moved.json["error"]).toBe("invalid_grant");
  });

  it("a confidential client still needs its secret: client_id alone, without a PKCE verifier, is 401 invalid_client", async () => {
    const res = await token({ grant_type: "authorization_code", code: "bogus", redirect_uri: CONFIDENTIAL_LOOPBACK, client_id: confidential.client_id });
    expect(res.status).toBe(401);
    expect(res.json["error"]).toBe("invalid_client");
  });
});

describe("the browser SDK's redirect mode: a confidential client's PKCE code redeemed with the verifier alone", () => {
  const WEB = "https://app.example:8443/cb";
  async function webCode(challenge?: string): Promise<string> {
    const pkceParams: Params = challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {};
    const location = await approve({ client_id: confidential.client_id, redirect_uri: WEB, response_type: "code", state: "st-web", ...pkceParams });
    expect(location.searchParams.get("state")).toBe("st-web");
    return location.searchParams.get("code")!;
  }
  const browserRedeem = (code: string, verifier?: string) =>
    token({ grant_type: "authorization_code", code, redirect_uri: WEB, client_id: confidential.client_id, ...(verifier ? { code_verifier: verifier } : {}) });

  it("yields the player's 7-day user JWT (what the popup hands the page), no refresh token, readable cross-origin", async () => {
    const { verifier, challenge } = pkce();
    const res = await browserRedeem(await webCode(challenge), verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.json).toMatchObject({ success: true, token_type: "Bearer", expires_in: 604_800 });
    expect(res.json).not.toHaveProperty("refresh_token");
    expect((await validate(String(res.json["access_token"]))).json).toMatchObject({ valid: true, client_id: confidential.client_id, token_use: "user_jwt" });
  });

  it("refuses a code issued without a challenge, and a wrong verifier, with 400 invalid_grant (the error readable cross-origin)", async () => {
    const plain = await browserRedeem(await webCode(), pkce().verifier);
    expect([plain.status, plain.json["error"]]).toEqual([400, "invalid_grant"]);
    expect(plain.headers.get("access-control-allow-origin")).toBe("*");
    const wrong = await browserRedeem(await webCode(pkce().challenge), pkce().verifier);
    expect([wrong.status, wrong.json["error"]]).toEqual([400, "invalid_grant"]);
  });
});

describe("openid-client as a third-party public client (token_endpoint_auth_method none)", () => {
  let listener: Server;
  let callbacks: URL[];

  beforeAll(async () => {
    callbacks = [];
    listener = createServer((req, res) => {
      callbacks.push(new URL(req.url ?? "/", `http://${req.headers.host}`));
      res.writeHead(200, { "content-type": "text/plain" }).end("signed in");
    });
    // Port 0: the operating system picks the ephemeral port, as a native app does (RFC 8252 section 7.3).
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it("does PKCE S256 against an ephemeral loopback port and gets a token that validates; a second redemption is refused", async () => {
    const config = await oidc.discovery(new URL(server.url), game.client_id, undefined, oidc.None(), {
      algorithm: "oauth2",
      execute: [oidc.allowInsecureRequests],
    });
    const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const location = await approve(Object.fromEntries(url.searchParams));
    // The browser follows the redirect to the app's listener.
    expect((await fetch(location)).status).toBe(200);
    const callback = callbacks.at(-1)!;
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(604_800);
    expect((await validate(tokens.access_token)).json).toMatchObject({ valid: true, client_id: game.client_id, token_use: "user_jwt" });
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });
});
