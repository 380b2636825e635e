import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserSession, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * A standard client that relies on PKCE instead of `state` (OAuth 2.1, RFC 9700 section 2.1.1):
 * panva's openid-client builds the authorization URL without `state`, and its code grant checks
 * that the callback carries none (docs/decisions/oauth-trust-boundaries.md).
 */
let server: TestServer;
let registered: Awaited<ReturnType<typeof registerClient>>;
let config: client.Configuration;
const REDIRECT = "https://rp.example/cb";

beforeAll(async () => {
  server = await startTestServer();
  registered = await registerClient(server.url, { redirect_uris: [REDIRECT] });
  config = await client.discovery(new URL(server.url), registered.client_id, undefined, client.ClientSecretBasic(registered.client_secret), {
    algorithm: "oauth2",
    execute: [client.allowInsecureRequests],
  });
});
afterAll(async () => server?.close());

/** A person signs up on the page the URL opens and approves; the callback URL the browser is sent to. */
async function signIn(authorizationUrl: URL): Promise<URL> {
  const params = Object.fromEntries(authorizationUrl.searchParams);
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
  expect(page.status).toBe(200);
  const res = await browser.submitWithMailbox({
    ...params,
    csrf_token: page.csrf,
    email: randomEmail(),
    password: "user-password-1",
    decision: "approve",
    intent: "signup",
  });
  expect(res.status).toBe(302);
  return new URL(res.location!);
}

async function authorizeJson(url: URL): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers: { accept: "application/json" }, redirect: "manual" });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("openid-client without state, with PKCE S256", () => {
  it("completes the authorization-code flow: the callback carries the code and no state, the code exchanges with the verifier", async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    expect(url.searchParams.has("state")).toBe(false);
    const callback = await signIn(url);
    expect(callback.searchParams.has("state")).toBe(false);
    // No expectedState: openid-client refuses a callback that carries a state it did not send.
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect(tokens.token_type).toBe("bearer");
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(validate.status).toBe(200);
  });

  it("refuses the request without state and without PKCE with 400 ERR_MISSING_PARAMS naming state", async () => {
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT });
    const { status, body } = await authorizeJson(url);
    expect(status).toBe(400);
    expect(body["error"]).toBe("ERR_MISSING_PARAMS");
    expect(body["details"]).toEqual([{ path: "state", message: expect.stringContaining("PKCE") }]);
  });

  it("refuses the request without state with code_challenge_method=plain (400 ERR_MISSING_PARAMS)", async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, code_challenge: verifier, code_challenge_method: "plain" });
    const { status, body } = await authorizeJson(url);
    expect(status).toBe(400);
    expect(body["error"]).toBe("ERR_MISSING_PARAMS");
  });

  it("refuses the popup mode without state even with PKCE S256: the popup hands over a JWT that no verifier guards", async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      display: "popup",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const { status, body } = await authorizeJson(url);
    expect(status).toBe(400);
    expect(body["error"]).toBe("ERR_MISSING_PARAMS");
  });

  it("a POST of the form without state and without PKCE is refused too, with no redirect", async () => {
    const browser = new BrowserSession(server.url);
    const verifier = client.randomPKCECodeVerifier();
    const params = {
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    };
    const page = await browser.open(params);
    expect(page.status).toBe(200);
    const { code_challenge: _c, code_challenge_method: _m, ...withoutPkce } = params;
    const res = await browser.submit({ ...withoutPkce, csrf_token: page.csrf, email: randomEmail(), password: "user-password-1", decision: "approve" });
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.html).toContain("ERR_MISSING_PARAMS");
  });
});
