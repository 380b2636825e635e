import { LIMITS, PATHS } from "@slotgate/protocol";
import { browserLogoutResponseSchema, publicClientResponseSchema, tokenResponseSchema, validateResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectOk } from "../assertions.js";
import type { ConformanceContext, TestUser } from "../context.js";
import { ConformanceError } from "../errors.js";
import { scriptById } from "../html.js";
import { type CheckGroup, pkceChallenge, pkceVerifier } from "./check.js";

/** The browser-session cookies (`slotgate_session_…`) a response sets, by name, with their attributes. */
function sessionCookies(response: Response): Map<string, { value: string; attributes: string }> {
  const out = new Map<string, { value: string; attributes: string }>();
  for (const header of response.headers.getSetCookie()) {
    const match = /^(slotgate_session_[^=]*)=([^;]*)(.*)$/.exec(header);
    if (match) out.set(match[1]!, { value: match[2]!, attributes: match[3]!.toLowerCase() });
  }
  return out;
}

/** `GET /oauth/authorize` as an API client (`Accept: application/json`): the error answers are JSON. */
function authorizeJson(ctx: ConformanceContext, query: Record<string, string>): Promise<Response> {
  return ctx.request(`${PATHS.authorize}?${new URLSearchParams(query)}`, { headers: { Accept: "application/json" }, redirect: "manual" });
}

/** Opens the sign-in page and approves it as `user`; returns the POST's answer (redirects not followed). */
async function approve(ctx: ConformanceContext, query: Record<string, string>, user: TestUser): Promise<Response> {
  const page = await ctx.openAuthorize(query);
  if (page.response.status !== 200 || !page.csrfToken || !page.csrfCookie) {
    throw new ConformanceError("setup_failed", `authorize page answered ${page.response.status}`);
  }
  return ctx.submitAuthorize({ ...query, csrf_token: page.csrfToken, email: user.email, password: user.password, decision: "approve" }, page.csrfCookie);
}

/**
 * A public native client (`token_endpoint_auth_method: "none"`, RFC 8252): registered without a secret, it must
 * send PKCE S256, may name any port on its loopback IP redirect URI, always gets a code redirect (even asking
 * `display=popup`), and redeems the code with the verifier alone for the 7-day user JWT; a secret, a missing
 * verifier or another path is refused.
 */
export async function publicClientLoopbackPkce(ctx: ConformanceContext): Promise<void> {
  const registered = await ctx.postJson(
    PATHS.clients,
    {
      name: "Conformance Public Game",
      redirect_uris: ["http://127.0.0.1/callback"],
      download_url: "https://conformance.test/download",
      web_url: "https://conformance.test/",
      platform: "game",
      blockchain: false,
      token_endpoint_auth_method: "none",
    },
    ctx.bearer(ctx.developer.token),
  );
  const client = await expectOk(registered, publicClientResponseSchema, 201, "public client registration");
  expect(client, "a public client has no secret").not.toHaveProperty("client_secret");
  const redirect_uri = `http://127.0.0.1:${20000 + Math.floor(Math.random() * 40000)}/callback`;
  const base = { client_id: client.client_id, redirect_uri, response_type: "code", state: ctx.unique("state") };

  await expectError(await authorizeJson(ctx, base), "invalid_request", "a public client without PKCE");
  const elsewhere = { ...base, redirect_uri: "http://127.0.0.1:4000/other", code_challenge: "x".repeat(43), code_challenge_method: "S256" };
  await expectError(await authorizeJson(ctx, elsewhere), "redirect_uri_mismatch", "another path on the loopback IP");

  const verifier = pkceVerifier();
  const withPkce = { ...base, code_challenge: await pkceChallenge(verifier), code_challenge_method: "S256" };
  const approved = await approve(ctx, { ...withPkce, display: "popup" }, ctx.users.alice);
  expect(approved.status, "a public client always gets a code redirect, even with display=popup").toBe(302);
  const location = new URL(approved.headers.get("location") ?? "http://invalid/");
  expect(`${location.origin}${location.pathname}`).toBe(redirect_uri);
  expect(location.searchParams.get("jwt"), "never a JWT in a public client's redirect").toBeNull();
  const code = location.searchParams.get("code") ?? "";
  expect(location.searchParams.get("state")).toBe(base.state);

  const redeem = (extra: Record<string, string>) =>
    ctx.postForm(PATHS.token, { grant_type: "authorization_code", code, redirect_uri, client_id: client.client_id, ...extra });
  await expectError(await redeem({}), "invalid_request", "no verifier");
  await expectError(await redeem({ code_verifier: verifier, client_secret: "a-secret-it-never-had" }), "invalid_client", "a public client with a secret");
  const body = await expectOk(await redeem({ code_verifier: verifier }), tokenResponseSchema, 200, "verifier alone");
  expect(body.expires_in, "the user JWT's lifetime").toBe(LIMITS.userJwtLifetimeSeconds);
  expect(body.refresh_token, "no refresh token for a public client").toBeUndefined();
  const validated = await expectOk(await ctx.validate(body.access_token), validateResponseSchema);
  expect(validated).toMatchObject({ user_id: ctx.users.alice.user_id, client_id: client.client_id, token_use: "user_jwt" });
  await expectError(await redeem({ code_verifier: verifier }), "invalid_grant", "the same code again");
}

/**
 * Silent renewal (`prompt=none`, `display=popup`) and `POST /oauth/logout`: an approval sets the client's
 * browser-session cookie; with it a silent request answers a page posting a fresh user JWT to the parent (framable
 * by the redirect origin only), without it `login_required`; the cookie is per client; logout clears it (the
 * browser then sends none); `prompt=none` without `display=popup` or for a public client is 400 invalid_request.
 */
export async function silentRenewalAndBrowserLogout(ctx: ConformanceContext): Promise<void> {
  const { web, refresh } = ctx.clients;
  const silent = async (client: typeof web, cookie: string | null) => {
    const state = ctx.unique("state");
    const query = { client_id: client.client_id, redirect_uri: client.redirect_uri, response_type: "code", state, display: "popup", prompt: "none" };
    const response = await ctx.request(PATHS.authorize + `?${new URLSearchParams(query)}`, {
      headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) },
      redirect: "manual",
    });
    expect(response.status, "a silent answer is a page").toBe(200);
    const origin = new URL(client.redirect_uri).origin;
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(/frame-ancestors ([^;]*)/.exec(csp)?.[1]?.trim(), `framable by the redirect origin only (${csp})`).toBe(origin);
    const json = scriptById(await response.text(), "slotgate-result");
    if (!json) throw new ConformanceError("unexpected_response", "the silent answer has no slotgate-result script");
    const result = JSON.parse(json) as { targetOrigin: string; message: { from: string; type: string; data: string; state: string } };
    expect(result.targetOrigin).toBe(origin);
    expect(result.message).toMatchObject({ from: "slotgate", state });
    return { response, message: result.message };
  };

  const before = await silent(web, null);
  expect(before.message, "no session yet").toMatchObject({ type: "fail", data: "login_required" });

  const approved = await approve(
    ctx,
    { client_id: web.client_id, redirect_uri: web.redirect_uri, response_type: "code", state: ctx.unique("state"), display: "popup" },
    ctx.users.alice,
  );
  expect(approved.status).toBe(200);
  const set = [...sessionCookies(approved)];
  expect(set.length, "an approval sets one browser-session cookie").toBe(1);
  const [name, session] = set[0]!;
  expect(session.value.length).toBeGreaterThan(0);
  expect(session.attributes, "the session cookie is HttpOnly").toContain("httponly");
  const cookie = `${name}=${session.value}`;

  const renewed = await silent(web, cookie);
  expect(renewed.message.type, "a live session renews silently").toBe("success");
  const validated = await expectOk(await ctx.validate(renewed.message.data), validateResponseSchema, 200, "the renewed JWT");
  expect(validated).toMatchObject({ user_id: ctx.users.alice.user_id, client_id: web.client_id, token_use: "user_jwt" });
  expect((await silent(refresh, cookie)).message, "the cookie is per client").toMatchObject({ type: "fail", data: "login_required" });

  const logout = await ctx.postForm(PATHS.browserLogout, { client_id: web.client_id }, { Cookie: cookie });
  await expectOk(logout, browserLogoutResponseSchema, 200, "logout");
  const cleared = sessionCookies(logout).get(name);
  expect(cleared?.value, "logout clears the session cookie").toBe("");
  expect(cleared?.attributes ?? "").toContain("max-age=0");
  expect((await silent(web, `${name}=`)).message, "after logout").toMatchObject({ type: "fail", data: "login_required" });
  await expectError(await ctx.postForm(PATHS.browserLogout, {}), "invalid_request", "logout without client_id");

  const notPopup = { client_id: web.client_id, redirect_uri: web.redirect_uri, response_type: "code", state: ctx.unique("state"), prompt: "none" };
  await expectError(await authorizeJson(ctx, notPopup), "invalid_request", "prompt=none without display=popup");
}

/** Public native clients, silent renewal and the browser session's logout. */
export const publicClientChecks: CheckGroup = {
  "public client (none): no secret, PKCE S256 required, any loopback port, code redirect, verifier alone -> user JWT": publicClientLoopbackPkce,
  "silent renewal: prompt=none answers the session's JWT or login_required, per client; POST /oauth/logout ends it": silentRenewalAndBrowserLogout,
};
