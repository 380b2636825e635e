import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserSession, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * An OAuth client library this project did not write (panva's oauth4webapi) drives the whole
 * authorization-code flow: discovery, PKCE, state validation, code exchange.
 */
let server: TestServer;
let registered: Awaited<ReturnType<typeof registerClient>>;
const REDIRECT = "https://rp.example/cb";

beforeAll(async () => {
  server = await startTestServer();
  registered = await registerClient(server.url, { redirect_uris: [REDIRECT] });
});
afterAll(async () => server?.close());

async function discover(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(server.url);
  const res = await oauth.discoveryRequest(issuer, { algorithm: "oauth2", [oauth.allowInsecureRequests]: true });
  return oauth.processDiscoveryResponse(issuer, res);
}

async function signIn(authorizationUrl: URL): Promise<URL> {
  const params = Object.fromEntries(authorizationUrl.searchParams);
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
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

describe("oauth4webapi against the reference server", () => {
  it("completes the authorization-code flow with PKCE and state validation (client_secret_basic)", async () => {
    const as = await discover();
    expect(as.issuer).toBe(server.url);
    const client: oauth.Client = { client_id: registered.client_id };
    const auth = oauth.ClientSecretBasic(registered.client_secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const callback = await signIn(url);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, { [oauth.allowInsecureRequests]: true });
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(result.token_type).toBe("bearer");
    expect(result.expires_in).toBe(3600);
    expect(result["user_id"]).toMatch(/^[1-9][0-9]*$/);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${result.access_token}` } });
    expect(validate.status).toBe(200);
  });

  it("oauth4webapi rejects a callback whose state does not match (CSRF), and the server rejects a wrong verifier", async () => {
    const as = await discover();
    const client: oauth.Client = { client_id: registered.client_id };
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      state: "expected-state",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const callback = await signIn(url);
    expect(() => oauth.validateAuthResponse(as, client, callback, "another-state")).toThrow(oauth.OperationProcessingError);
    const params = oauth.validateAuthResponse(as, client, callback, "expected-state");
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(registered.client_secret),
      params,
      REDIRECT,
      oauth.generateRandomCodeVerifier(),
      {
        [oauth.allowInsecureRequests]: true,
      },
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, response)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});
