import { PATHS } from "@slotgate/protocol";
import { tokenResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectOk } from "../assertions.js";
import type { ConformanceContext, RegisteredClient } from "../context.js";
import { inputValue, scriptById, tags } from "../html.js";
import { type CheckGroup, locationParams, pkceChallenge, pkceVerifier } from "./check.js";

function baseQuery(client: RegisteredClient, state: string, redirect_uri = client.redirect_uri): Record<string, string> {
  return { client_id: client.client_id, redirect_uri, response_type: "code", state };
}

function getJson(ctx: ConformanceContext, query: Record<string, string>): Promise<Response> {
  return ctx.request(`${PATHS.authorize}?${new URLSearchParams(query)}`, { headers: { Accept: "application/json" }, redirect: "manual" });
}

/** Absent or empty client_id, redirect_uri, response_type or state: 400 ERR_MISSING_PARAMS, checked before anything else. */
export async function authorizeRejectsMissingParams(ctx: ConformanceContext): Promise<void> {
  const full = baseQuery(ctx.clients.web, ctx.unique("state"));
  for (const name of ["client_id", "redirect_uri", "response_type", "state"]) {
    const absent = { ...full };
    delete absent[name];
    await expectError(await getJson(ctx, absent), "ERR_MISSING_PARAMS", `${name} absent`);
    await expectError(await getJson(ctx, { ...full, [name]: "" }), "ERR_MISSING_PARAMS", `${name} empty`);
  }
  const unknownClientNoState = { client_id: "sg_does_not_exist", redirect_uri: "https://x.test/cb", response_type: "code" };
  await expectError(await getJson(ctx, unknownClientNoState), "ERR_MISSING_PARAMS", "missing state with an unknown client");
}

/**
 * Without `state`, only PKCE S256 on a code redirect is accepted (OAuth 2.1, RFC 9700 section 2.1.1):
 * no PKCE, `plain`, a challenge without its method, and the popup and loopback modes (which hand over
 * a JWT that no verifier guards) are refused with 400 ERR_MISSING_PARAMS.
 */
export async function authorizeRequiresStateWithoutPkceS256(ctx: ConformanceContext): Promise<void> {
  const { web, loopback } = ctx.clients;
  const challenge = await pkceChallenge(pkceVerifier());
  const noState = (client: RegisteredClient): Record<string, string> => {
    const query = baseQuery(client, "");
    delete query["state"];
    return query;
  };
  const refused: Array<[string, Record<string, string>]> = [
    ["no PKCE", noState(web)],
    ["code_challenge_method=plain", { ...noState(web), code_challenge: challenge, code_challenge_method: "plain" }],
    ["code_challenge without its method", { ...noState(web), code_challenge: challenge }],
    ["popup with PKCE S256", { ...noState(web), code_challenge: challenge, code_challenge_method: "S256", display: "popup" }],
    ["loopback with PKCE S256", { ...noState(loopback), code_challenge: challenge, code_challenge_method: "S256" }],
  ];
  for (const [what, query] of refused) await expectError(await getJson(ctx, query), "ERR_MISSING_PARAMS", what);
}

/**
 * Alice approves `client` with PKCE S256 and no `state`: checks the sign-in form, the 302 and that the redirect
 * carries no `state` parameter at all; answers the query sent, the redirect's parameters and the verifier.
 */
async function approveWithPkceWithoutState(
  ctx: ConformanceContext,
  client: RegisteredClient,
): Promise<{ query: Record<string, string>; params: URLSearchParams; verifier: string }> {
  const { alice } = ctx.users;
  const verifier = pkceVerifier();
  const query: Record<string, string> = {
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    response_type: "code",
    code_challenge: await pkceChallenge(verifier),
    code_challenge_method: "S256",
  };
  const page = await ctx.openAuthorize(query);
  expect(page.response.status, "PKCE S256 without state: the sign-in form").toBe(200);
  const res = await ctx.submitAuthorize(
    { ...query, csrf_token: page.csrfToken ?? "", email: alice.email, password: alice.password, decision: "approve" },
    page.csrfCookie ?? "",
  );
  expect(res.status).toBe(302);
  const params = locationParams(res);
  expect(params.has("state"), "no state parameter in the redirect").toBe(false);
  return { query, params, verifier };
}

/**
 * PKCE S256 without `state`: the form is shown, approve redirects with a code and no `state`
 * parameter at all (not an empty one), the code exchanges with its verifier, and deny redirects
 * with access_denied and no `state`.
 */
export async function authorizePkceWithoutStateRedirectsWithCode(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { query, params, verifier } = await approveWithPkceWithoutState(ctx, web);
  const code = params.get("code") ?? "";
  expect(code).toMatch(/^.{16,}$/);
  await expectOk(await ctx.exchange(web, code, { code_verifier: verifier }), tokenResponseSchema, 200, "exchange with the verifier");

  const denyPage = await ctx.openAuthorize(query);
  const denied = await ctx.submitAuthorize({ ...query, csrf_token: denyPage.csrfToken ?? "", decision: "deny" }, denyPage.csrfCookie ?? "");
  expect(denied.status).toBe(302);
  const deniedParams = locationParams(denied);
  expect(deniedParams.get("error")).toBe("access_denied");
  expect(deniedParams.has("state"), "no state parameter in the denial").toBe(false);
}

/** An unregistered client_id: 401 invalid_client, never a redirect. */
export async function authorizeRejectsUnknownClient(ctx: ConformanceContext): Promise<void> {
  const res = await getJson(ctx, { ...baseQuery(ctx.clients.web, ctx.unique("state")), client_id: "sg_unknown_client_000000000" });
  expect(res.headers.get("location")).toBeNull();
  await expectError(res, "invalid_client");
}

/** redirect_uri must equal a registered URI character for character (trailing slash included): else 401, never a redirect. */
export async function authorizeRequiresExactRedirectUri(ctx: ConformanceContext): Promise<void> {
  const { chain, web } = ctx.clients;
  const variants: [RegisteredClient, string, string][] = [
    [chain, chain.redirect_uri.replace(/\/$/, ""), "trailing slash removed"],
    [web, `${web.redirect_uri}/`, "trailing slash added"],
    [web, web.redirect_uri.replace("https://", "http://"), "scheme changed"],
    [web, web.redirect_uri.replace("web.conformance.test", "WEB.conformance.test"), "host case changed"],
    [web, `${web.redirect_uri}?x=1`, "query added"],
    [web, `${web.redirect_uri}x`, "suffix added"],
  ];
  for (const [client, uri, what] of variants) {
    const res = await getJson(ctx, baseQuery(client, ctx.unique("state"), uri));
    expect(res.headers.get("location"), what).toBeNull();
    const body = await expectError(res, "redirect_uri_mismatch", what);
    expect(body.message.toLowerCase()).toContain("redirect_uri mismatch");
  }
  const ok = await getJson(ctx, baseQuery(chain, ctx.unique("state")));
  expect(ok.status, "the exact registered URI (with its trailing slash) is accepted").toBe(200);
}

/** response_type other than code: 400 unsupported_response_type. */
export async function authorizeRejectsUnsupportedResponseType(ctx: ConformanceContext): Promise<void> {
  for (const responseType of ["token", "id_token", "CODE"]) {
    const res = await getJson(ctx, { ...baseQuery(ctx.clients.web, ctx.unique("state")), response_type: responseType });
    await expectError(res, "unsupported_response_type", `response_type=${responseType}`);
  }
}

/** A browser (Accept: text/html) gets the same status as an HTML page naming the error code. */
export async function authorizeErrorsAreHtmlForBrowsers(ctx: ConformanceContext): Promise<void> {
  const cases: [Record<string, string>, number, string][] = [
    [{ ...baseQuery(ctx.clients.web, ctx.unique("state")), client_id: "sg_unknown_client_000000000" }, 401, "invalid_client"],
    [{ ...baseQuery(ctx.clients.web, ctx.unique("state")), state: "" }, 400, "ERR_MISSING_PARAMS"],
    [baseQuery(ctx.clients.web, ctx.unique("state"), `${ctx.clients.web.redirect_uri}/`), 401, "redirect_uri_mismatch"],
  ];
  for (const [query, status, code] of cases) {
    const page = await ctx.openAuthorize(query, "text/html,application/xhtml+xml");
    expect(page.response.status, code).toBe(status);
    expect(page.response.headers.get("content-type") ?? "", code).toMatch(/text\/html/);
    expect(page.response.headers.get("location"), code).toBeNull();
    expect(page.html, code).toContain(code);
  }
}

/** A valid GET shows the login form with every authorize param as a hidden input, a CSRF token and the cookie. */
export async function authorizeShowsLoginForm(ctx: ConformanceContext): Promise<void> {
  const query = {
    ...baseQuery(ctx.clients.web, ctx.unique("state")),
    display: "page",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    unknown_param: "ignored",
  };
  const page = await ctx.openAuthorize(query);
  expect(page.response.status).toBe(200);
  expect(page.response.headers.get("content-type") ?? "").toMatch(/text\/html/);
  const form = tags(page.html, "form").find((f) => (f["action"] ?? "").endsWith(PATHS.authorize));
  expect(form, "a form posting to /oauth/authorize").toBeDefined();
  expect(form?.["method"]?.toLowerCase()).toBe("post");
  for (const name of ["client_id", "redirect_uri", "response_type", "state", "display", "code_challenge", "code_challenge_method"]) {
    expect(inputValue(page.html, name), `hidden input ${name}`).toBe(query[name as keyof typeof query]);
  }
  const inputs = tags(page.html, "input");
  expect(inputs.some((i) => i["name"] === "email")).toBe(true);
  expect(inputs.some((i) => i["name"] === "password" && i["type"] === "password")).toBe(true);
  const buttons = tags(page.html, "button").filter((b) => b["name"] === "decision");
  expect(buttons.map((b) => b["value"]).sort()).toEqual(["approve", "deny"]);
  expect(page.csrfToken, "csrf_token hidden input").toMatch(/^.{16,}$/);
  expect(page.csrfCookie, "slotgate_csrf cookie").toBe(page.csrfToken);
  const cookie = (page.response.headers.getSetCookie?.() ?? []).find((c) => c.startsWith("slotgate_csrf=")) ?? "";
  expect(cookie).toMatch(/;\s*HttpOnly/i);
  expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  expect(cookie).toMatch(/;\s*Path=\/oauth/i);
}

/** POST without the CSRF cookie, with a different one, or without csrf_token: 403 csrf_failed and no code. */
export async function authorizeEnforcesCsrf(ctx: ConformanceContext): Promise<void> {
  const { alice } = ctx.users;
  const query = baseQuery(ctx.clients.web, ctx.unique("state"));
  const page = await ctx.openAuthorize(query);
  const fields = { ...query, csrf_token: page.csrfToken ?? "", email: alice.email, password: alice.password, decision: "approve" };
  const attempts: [Record<string, string>, string | null, string][] = [
    [fields, null, "no cookie"],
    [fields, "forged-csrf-cookie-value-000000", "cookie differs"],
    [{ ...fields, csrf_token: "" }, page.csrfCookie ?? "", "empty csrf_token"],
  ];
  for (const [form, cookie, what] of attempts) {
    const res = await ctx.submitAuthorize(form, cookie);
    expect(res.status, what).toBe(403);
    expect(res.headers.get("location"), what).toBeNull();
    expect(await res.text(), what).toContain("csrf_failed");
  }
}

/** Wrong password or unknown email: 401 with the form again, no redirect. */
export async function authorizeRejectsWrongCredentials(ctx: ConformanceContext): Promise<void> {
  const { alice } = ctx.users;
  for (const [email, password, what] of [
    [alice.email, `${alice.password}x`, "wrong password"],
    [`nobody-${ctx.unique("x")}@conformance.test`, alice.password, "unknown email"],
  ] as const) {
    const query = baseQuery(ctx.clients.web, ctx.unique("state"));
    const page = await ctx.openAuthorize(query);
    const res = await ctx.submitAuthorize({ ...query, csrf_token: page.csrfToken ?? "", email, password, decision: "approve" }, page.csrfCookie ?? "");
    expect(res.status, what).toBe(401);
    expect(res.headers.get("location"), what).toBeNull();
    const html = await res.text();
    expect(
      tags(html, "input").some((i) => i["name"] === "password"),
      `${what}: the form again`,
    ).toBe(true);
  }
}

/** Page mode, approve: 302 to redirect_uri with code and state (appended with & when the URI has a query). */
export async function authorizePageApproveRedirectsWithCode(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  for (const redirectUri of web.redirect_uris) {
    const query = baseQuery(web, ctx.unique("state"), redirectUri);
    const page = await ctx.openAuthorize(query);
    const res = await ctx.submitAuthorize(
      { ...query, csrf_token: page.csrfToken ?? "", email: ctx.users.alice.email, password: ctx.users.alice.password, decision: "approve" },
      page.csrfCookie ?? "",
    );
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    const separator = redirectUri.includes("?") ? "&" : "?";
    expect(location.startsWith(`${redirectUri}${separator}`), `Location ${location.split("?")[0]} extends ${redirectUri}`).toBe(true);
    const params = new URL(location).searchParams;
    expect(params.get("code")).toMatch(/^.{16,}$/);
    expect(params.get("state")).toBe(query.state);
    if (redirectUri.includes("tenant=7")) expect(params.get("tenant")).toBe("7");
  }
}

/** Page mode, deny (no credentials needed): 302 with error=access_denied and state, no code. */
export async function authorizePageDenyRedirectsAccessDenied(ctx: ConformanceContext): Promise<void> {
  const query = baseQuery(ctx.clients.web, ctx.unique("state"));
  const page = await ctx.openAuthorize(query);
  const res = await ctx.submitAuthorize({ ...query, csrf_token: page.csrfToken ?? "", decision: "deny" }, page.csrfCookie ?? "");
  expect(res.status).toBe(302);
  const params = locationParams(res);
  expect(params.get("error")).toBe("access_denied");
  expect(params.get("error_description")).toBeTruthy();
  expect(params.get("state")).toBe(query.state);
  expect(params.get("code")).toBeNull();
}

/** Loopback mode (a desktop or game client's `http://127.0.0.1:{port}/callback`): approve redirects with a user JWT and state; deny with access_denied. */
export async function authorizeLoopbackRedirectsWithJwt(ctx: ConformanceContext): Promise<void> {
  const { loopback } = ctx.clients;
  const { alice } = ctx.users;
  const query = baseQuery(loopback, ctx.unique("state"));
  const page = await ctx.openAuthorize(query);
  const res = await ctx.submitAuthorize(
    { ...query, csrf_token: page.csrfToken ?? "", email: alice.email, password: alice.password, decision: "approve" },
    page.csrfCookie ?? "",
  );
  expect(res.status).toBe(302);
  expect((res.headers.get("location") ?? "").startsWith(`${loopback.redirect_uri}?`)).toBe(true);
  const params = locationParams(res);
  expect(params.get("state")).toBe(query.state);
  expect(params.get("code")).toBeNull();
  const jwt = params.get("jwt") ?? "";
  const validated = await ctx.validate(jwt);
  expect(validated.status).toBe(200);
  const body = (await validated.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ valid: true, user_id: alice.user_id, client_id: loopback.client_id, token_use: "user_jwt" });

  const denyQuery = baseQuery(loopback, ctx.unique("state"));
  const denyPage = await ctx.openAuthorize(denyQuery);
  const denied = await ctx.submitAuthorize({ ...denyQuery, csrf_token: denyPage.csrfToken ?? "", decision: "deny" }, denyPage.csrfCookie ?? "");
  expect(denied.status).toBe(302);
  const deniedParams = locationParams(denied);
  expect(deniedParams.get("error")).toBe("access_denied");
  expect(deniedParams.get("state")).toBe(denyQuery.state);
  expect(deniedParams.get("jwt")).toBeNull();
}

interface PopupResult {
  targetOrigin: string;
  messages: { from: string; type: string; data: string; state: string }[];
}

/**
 * A web client's `http://127.0.0.1:{port}/callback` (a web app run locally) is an ordinary redirect URI, not the
 * loopback JWT redirect of a desktop or game client (spec 4.14): approve redirects with a code and state, never a
 * `jwt`, and the code exchanges with the client's secret; `display=popup` answers the popup result page posting to
 * that origin; and as on any code redirect, PKCE S256 stands in for `state`.
 */
export async function authorizeWebClientLoopbackUriIsOrdinary(ctx: ConformanceContext): Promise<void> {
  const { localWeb } = ctx.clients;
  const { alice } = ctx.users;
  const query = baseQuery(localWeb, ctx.unique("state"));
  const page = await ctx.openAuthorize(query);
  const res = await ctx.submitAuthorize(
    { ...query, csrf_token: page.csrfToken ?? "", email: alice.email, password: alice.password, decision: "approve" },
    page.csrfCookie ?? "",
  );
  expect(res.status).toBe(302);
  expect((res.headers.get("location") ?? "").startsWith(`${localWeb.redirect_uri}?`)).toBe(true);
  const params = locationParams(res);
  expect(params.get("jwt"), "no user JWT in a web client's redirect").toBeNull();
  expect(params.get("state")).toBe(query.state);
  const code = params.get("code") ?? "";
  expect(code).toMatch(/^.{16,}$/);
  await expectOk(await ctx.exchange(localWeb, code), tokenResponseSchema, 200, "the code exchanges with the secret");

  const popupQuery: Record<string, string> = { ...baseQuery(localWeb, ctx.unique("state")), display: "popup" };
  const popupPage = await ctx.openAuthorize(popupQuery);
  const popup = await ctx.submitAuthorize(
    { ...popupQuery, csrf_token: popupPage.csrfToken ?? "", email: alice.email, password: alice.password, decision: "approve" },
    popupPage.csrfCookie ?? "",
  );
  expect(popup.status, "display=popup: the result page, not a redirect").toBe(200);
  expect(popup.headers.get("location")).toBeNull();
  const result = JSON.parse(scriptById(await popup.text(), "slotgate-result") ?? "{}") as PopupResult;
  expect(result.targetOrigin).toBe(new URL(localWeb.redirect_uri).origin);
  expect(result.messages[0]).toMatchObject({ type: "success", state: popupQuery["state"] });
  expect(await (await ctx.validate(result.messages[0]?.data ?? "")).json()).toMatchObject({ client_id: localWeb.client_id, token_use: "user_jwt" });

  const pkce = await approveWithPkceWithoutState(ctx, localWeb);
  expect(pkce.params.get("jwt")).toBeNull();
  await expectOk(
    await ctx.exchange(localWeb, pkce.params.get("code") ?? "", { code_verifier: pkce.verifier }),
    tokenResponseSchema,
    200,
    "exchange with the verifier",
  );
}

/** Popup mode: a result page that posts both brands' messages to the opener with the exact target origin. */
export async function authorizePopupPostsResult(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { alice } = ctx.users;
  for (const decision of ["approve", "deny"] as const) {
    const query: Record<string, string> = { ...baseQuery(web, ctx.unique("state")), display: "popup" };
    const page = await ctx.openAuthorize(query);
    const credentials: Record<string, string> = decision === "approve" ? { email: alice.email, password: alice.password } : {};
    const res = await ctx.submitAuthorize({ ...query, csrf_token: page.csrfToken ?? "", ...credentials, decision }, page.csrfCookie ?? "");
    expect(res.status, decision).toBe(200);
    expect(res.headers.get("content-type") ?? "").toMatch(/text\/html/);
    const html = await res.text();
    const json = scriptById(html, "slotgate-result");
    expect(json, "script#slotgate-result").toBeDefined();
    const result = JSON.parse(json ?? "{}") as PopupResult;
    expect(result.targetOrigin).toBe(new URL(web.redirect_uri).origin);
    expect(result.messages.map((m) => m.from)).toEqual(["slotgate", "gameauth"]);
    for (const message of result.messages) {
      expect(message.state).toBe(query["state"]);
      expect(message.type).toBe(decision === "approve" ? "success" : "fail");
    }
    expect(result.messages[0]?.data).toBe(result.messages[1]?.data);
    if (decision === "approve") {
      const validated = await ctx.validate(result.messages[0]?.data ?? "");
      expect(validated.status, "the popup's JWT validates").toBe(200);
      expect(await validated.json()).toMatchObject({ user_id: alice.user_id, client_id: web.client_id, token_use: "user_jwt" });
    } else {
      expect(result.messages[0]?.data).toBe("access_denied");
    }
    expect(html).toContain("postMessage");
    expect(html).toContain("BroadcastChannel");
    expect(html).toContain("slotgate_login");
    expect(html, "never posts to any origin").not.toMatch(/postMessage\([^)]*["']\*["']/);
  }
}

/** The POST re-validates the authorize params: a changed redirect_uri or a missing state is refused, with no code. */
export async function authorizePostRevalidatesParams(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { alice } = ctx.users;
  const query = baseQuery(web, ctx.unique("state"));
  const page = await ctx.openAuthorize(query);
  const fields = { ...query, csrf_token: page.csrfToken ?? "", email: alice.email, password: alice.password, decision: "approve" };
  const tampered = await ctx.submitAuthorize({ ...fields, redirect_uri: "https://evil.conformance.test/callback" }, page.csrfCookie ?? "");
  expect(tampered.status).toBe(401);
  expect(tampered.headers.get("location")).toBeNull();
  expect(await tampered.text()).toContain("redirect_uri_mismatch");
  const noState = await ctx.submitAuthorize({ ...fields, state: "" }, page.csrfCookie ?? "");
  expect(noState.status).toBe(400);
  expect(noState.headers.get("location")).toBeNull();
  expect(await noState.text()).toContain("ERR_MISSING_PARAMS");
}

/** Signing up with an email that already has an account does not log in or redirect. */
export async function authorizeSignupRejectsTakenEmail(ctx: ConformanceContext): Promise<void> {
  const { alice } = ctx.users;
  const query = baseQuery(ctx.clients.web, ctx.unique("state"));
  const page = await ctx.openAuthorize(query);
  const res = await ctx.submitAuthorize(
    { ...query, csrf_token: page.csrfToken ?? "", email: alice.email, password: "another-password-1", decision: "approve", intent: "signup" },
    page.csrfCookie ?? "",
  );
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get("location")).toBeNull();
}

/**
 * Sign-up proves the mailbox: the form answers the code page (200, a `challenge` input, no redirect),
 * a wrong code shows it again (401), the right code approves (302 with a code), and the same code
 * cannot be used twice.
 */
export async function authorizeSignupProvesMailbox(ctx: ConformanceContext): Promise<void> {
  const query = baseQuery(ctx.clients.web, ctx.unique("state"));
  const email = `${ctx.unique("mailbox")}@conformance.test`;
  const page = await ctx.openAuthorize(query);
  const cookie = page.csrfCookie ?? "";
  const step = await ctx.submitAuthorize(
    { ...query, csrf_token: page.csrfToken ?? "", email, password: "mailbox-password-1", decision: "approve", intent: "signup" },
    cookie,
  );
  expect(step.status, "sign-up answers the mailbox step").toBe(200);
  expect(step.headers.get("location")).toBeNull();
  const challenge = inputValue(await step.text(), "challenge");
  expect(challenge, "the code page carries a challenge input").toBeTruthy();
  const code = await ctx.target.readMailedCode(email);
  expect(code).toMatch(/^[0-9]{6}$/);
  const fields = { ...query, csrf_token: page.csrfToken ?? "", challenge: challenge ?? "", decision: "approve" };
  const wrong = await ctx.submitAuthorize({ ...fields, otp: code === "000000" ? "000001" : "000000" }, cookie);
  expect(wrong.status, "a wrong code shows the code page again").toBe(401);
  expect(wrong.headers.get("location")).toBeNull();
  const ok = await ctx.submitAuthorize({ ...fields, otp: code }, cookie);
  expect(ok.status).toBe(302);
  expect(new URL(ok.headers.get("location") ?? "http://x/").searchParams.get("code")).toBeTruthy();
  const again = await ctx.submitAuthorize({ ...fields, otp: code }, cookie);
  expect(again.status, "a used code is refused").toBe(400);
  expect(again.headers.get("location")).toBeNull();
}

/** Authorize checks. */
export const authorizeChecks: CheckGroup = {
  "missing or empty client_id / redirect_uri / response_type / state -> 400 ERR_MISSING_PARAMS": authorizeRejectsMissingParams,
  "no state without PKCE S256 on a code redirect (plain, popup, loopback included) -> 400 ERR_MISSING_PARAMS": authorizeRequiresStateWithoutPkceS256,
  "PKCE S256 without state -> 302 with a code and no state; deny without state": authorizePkceWithoutStateRedirectsWithCode,
  "unknown client -> 401 invalid_client, no redirect": authorizeRejectsUnknownClient,
  "redirect_uri must match exactly, trailing slash included -> 401 redirect_uri_mismatch": authorizeRequiresExactRedirectUri,
  "response_type other than code -> 400 unsupported_response_type": authorizeRejectsUnsupportedResponseType,
  "errors answer an HTML page with the same status for browsers": authorizeErrorsAreHtmlForBrowsers,
  "valid GET shows the login form with hidden params, csrf_token and the slotgate_csrf cookie": authorizeShowsLoginForm,
  "POST without matching CSRF cookie -> 403 csrf_failed": authorizeEnforcesCsrf,
  "wrong credentials -> 401 and the form again": authorizeRejectsWrongCredentials,
  "page approve -> 302 redirect_uri?code&state": authorizePageApproveRedirectsWithCode,
  "page deny -> 302 error=access_denied with state": authorizePageDenyRedirectsAccessDenied,
  "loopback approve -> 302 with jwt and state; deny -> access_denied": authorizeLoopbackRedirectsWithJwt,
  "a web client's http://127.0.0.1:{port}/callback -> code (popup: result page), never jwt": authorizeWebClientLoopbackUriIsOrdinary,
  "popup -> result page posting both brands to the exact origin": authorizePopupPostsResult,
  "POST re-validates redirect_uri and state": authorizePostRevalidatesParams,
  "signup with a taken email does not log in": authorizeSignupRejectsTakenEmail,
  "signup mails a code: wrong -> 401 again, right -> 302, used -> refused": authorizeSignupProvesMailbox,
};
