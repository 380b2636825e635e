import { randomUUID } from "node:crypto";
import { type ClientApplication, PATHS } from "@slotgate/protocol";
import { clientBrandResponseSchema, devUserLoginResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectDetailPath, expectError, expectJson, expectOk } from "../assertions.js";
import type { ConformanceContext } from "../context.js";
import type { CheckGroup } from "./check.js";

const registration = {
  name: "Registered In Check",
  redirect_uris: ["https://dev.conformance.test/callback"],
  download_url: "https://dev.conformance.test/download",
  web_url: "https://dev.conformance.test/",
  platform: "web",
  blockchain: true,
};

/** signup -> 201 { token, uuid }; login -> 200 with the same uuid; `GET /v1/dev-user/me` names that account; the token opens the developer center. */
export async function devSignupAndLogin(ctx: ConformanceContext): Promise<void> {
  const credentials = { email: `${ctx.unique("dev")}@conformance.test`, password: `pw-${randomUUID()}` };
  const signup = await expectOk(await ctx.postJson(PATHS.devUserSignup, credentials), devUserLoginResponseSchema, 201, "signup");
  const login = await expectOk(await ctx.postJson(PATHS.devUserLogin, credentials), devUserLoginResponseSchema, 200, "login");
  expect(login.uuid).toBe(signup.uuid);
  const me = await expectJson(await ctx.request("/v1/dev-user/me", { headers: ctx.bearer(login.token) }), 200, "me");
  expect(me, "GET /v1/dev-user/me names the token's own account").toEqual({ success: true, uuid: signup.uuid, email: credentials.email });
  await expectError(await ctx.request("/v1/dev-user/me"), "invalid_token");
  const list = await expectJson(await ctx.request(PATHS.clients, { headers: ctx.bearer(login.token) }), 200, "list clients");
  expect(list).toEqual({ success: true, clients: [] });
  const mixedCase = await ctx.postJson(PATHS.devUserLogin, { ...credentials, email: credentials.email.toUpperCase() });
  expect([200, 401], "email case: either matches or not, never an error").toContain(mixedCase.status);
}

/** A second signup with the same email: 409 email_taken. */
export async function devSignupRejectsTakenEmail(ctx: ConformanceContext): Promise<void> {
  await expectError(await ctx.postJson(PATHS.devUserSignup, { email: ctx.developer.email, password: "another-password" }), "email_taken");
}

/** Wrong password and unknown email get the same 401 invalid_credentials answer. */
export async function devLoginRejectsWrongCredentials(ctx: ConformanceContext): Promise<void> {
  const wrong = await expectError(
    await ctx.postJson(PATHS.devUserLogin, { email: ctx.developer.email, password: `${ctx.developer.password}x` }),
    "invalid_credentials",
  );
  const unknown = await expectError(
    await ctx.postJson(PATHS.devUserLogin, { email: `${ctx.unique("nobody")}@conformance.test`, password: ctx.developer.password }),
    "invalid_credentials",
  );
  expect(unknown.message, "no account enumeration").toBe(wrong.message);
}

/** Registration -> 201 with a 43+ char base64url secret shown once; the list never carries secrets. */
export async function clientRegistrationShowsSecretOnce(ctx: ConformanceContext): Promise<void> {
  const res = await ctx.postJson(PATHS.clients, registration, ctx.bearer(ctx.developer.token));
  const created = await expectJson(res, 201, "register client");
  expect(created).toMatchObject({ success: true, ...registration });
  expect(created["client_id"]).toEqual(expect.any(String));
  expect(created["client_secret"]).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  expect(Number.isNaN(Date.parse(String(created["created_at"])))).toBe(false);
  const list = await expectJson(await ctx.request(PATHS.clients, { headers: ctx.bearer(ctx.developer.token) }), 200, "list clients");
  const clients = list["clients"] as ClientApplication[];
  const listed = clients.find((c) => c.client_id === created["client_id"]);
  expect(listed).toMatchObject(registration);
  for (const client of clients) expect(client, "the list never shows a secret").not.toHaveProperty("client_secret");
  expect(clients.map((c) => c.client_id)).toEqual(expect.arrayContaining(Object.values(ctx.clients).map((c) => c.client_id)));
}

/** The developer center needs a developer token: none, garbage or an end user's access token -> 401 invalid_token. */
export async function clientRegistrationRequiresDeveloperToken(ctx: ConformanceContext): Promise<void> {
  await expectError(await ctx.postJson(PATHS.clients, registration), "invalid_token", "no token");
  await expectError(await ctx.request(PATHS.clients), "invalid_token", "list without token");
  const userToken = (await ctx.accessToken(ctx.clients.web, ctx.users.alice)).access_token;
  await expectError(await ctx.postJson(PATHS.clients, registration, ctx.bearer(userToken)), "invalid_token", "end-user access token");
}

/** Registration input is validated: missing download_url, bad URL, bad platform, unknown field -> 400 with details. */
export async function clientRegistrationValidates(ctx: ConformanceContext): Promise<void> {
  const { download_url: _omit, ...withoutDownload } = registration;
  const cases: [unknown, string][] = [
    [withoutDownload, "download_url"],
    [{ ...registration, web_url: "not a url" }, "web_url"],
    [{ ...registration, redirect_uris: [] }, "redirect_uris"],
    [{ ...registration, redirect_uris: ["javascript:alert(1)"] }, "redirect_uris.0"],
    [{ ...registration, platform: "ios" }, "platform"],
    [{ ...registration, is_admin: true }, "(body)"],
  ];
  for (const [body, path] of cases) {
    const error = await expectError(await ctx.postJson(PATHS.clients, body, ctx.bearer(ctx.developer.token)), "invalid_request", path);
    expectDetailPath(error, path, path);
  }
}

/** A developer sees only their own clients. */
export async function clientsListedOnlyForOwner(ctx: ConformanceContext): Promise<void> {
  const other = await expectOk(
    await ctx.postJson(PATHS.devUserSignup, { email: `${ctx.unique("dev")}@conformance.test`, password: `pw-${randomUUID()}` }),
    devUserLoginResponseSchema,
    201,
  );
  const list = await expectJson(await ctx.request(PATHS.clients, { headers: ctx.bearer(other.token) }), 200);
  expect(list["clients"]).toEqual([]);
}

/** Registers a fresh client for the calling developer (the management checks change it). */
async function freshClient(ctx: ConformanceContext, redirect = `https://manage.conformance.test/${ctx.unique("cb")}`) {
  const res = await ctx.postJson(PATHS.clients, { ...registration, blockchain: false, redirect_uris: [redirect] }, ctx.bearer(ctx.developer.token));
  const created = await expectJson(res, 201, "register client");
  return { client_id: String(created["client_id"]), client_secret: String(created["client_secret"]), redirect };
}

const clientPath = (clientId: string, suffix = "") => `${PATHS.clients}/${encodeURIComponent(clientId)}${suffix}`;

/** Whether the token endpoint takes `secret` as the client's (a bogus code: invalid_grant when it does, invalid_client when not). */
async function secretAccepted(ctx: ConformanceContext, clientId: string, redirect: string, secret: string): Promise<boolean> {
  const res = await ctx.postForm(PATHS.token, {
    grant_type: "authorization_code",
    code: "never-issued-code",
    redirect_uri: redirect,
    client_id: clientId,
    client_secret: secret,
  });
  const body = (await res.json()) as { error?: string };
  expect(["invalid_grant", "invalid_client"], `token endpoint answer ${res.status}`).toContain(body.error);
  return body.error === "invalid_grant";
}

function authorizeStatus(ctx: ConformanceContext, clientId: string, redirect: string): Promise<Response> {
  const query = { client_id: clientId, redirect_uri: redirect, response_type: "code", state: ctx.unique("state") };
  return ctx.request(`${PATHS.authorize}?${new URLSearchParams(query)}`, { headers: { Accept: "application/json" }, redirect: "manual" });
}

/** PATCH replaces the redirect URIs: the old one is then redirect_uri_mismatch, the new one accepted; the audit list records old and new. */
export async function clientEditReplacesRedirectUris(ctx: ConformanceContext): Promise<void> {
  const client = await freshClient(ctx);
  const next = `https://manage.conformance.test/${ctx.unique("new")}`;
  const res = await ctx.request(clientPath(client.client_id), {
    method: "PATCH",
    headers: { ...ctx.bearer(ctx.developer.token), "Content-Type": "application/json" },
    body: JSON.stringify({ redirect_uris: [next], name: "Renamed In Check" }),
  });
  expect(await expectJson(res, 200, "edit")).toMatchObject({ success: true, client_id: client.client_id, name: "Renamed In Check", redirect_uris: [next] });
  await expectError(await authorizeStatus(ctx, client.client_id, client.redirect), "redirect_uri_mismatch", "the old redirect URI");
  expect((await authorizeStatus(ctx, client.client_id, next)).status, "the new redirect URI").toBe(200);
  const audit = await expectJson(await ctx.request(clientPath(client.client_id, "/audit"), { headers: ctx.bearer(ctx.developer.token) }), 200, "audit");
  const entries = audit["entries"] as Array<{ action: string; detail: Record<string, unknown>; at: string; actor: string }>;
  expect(entries[0], "newest first").toMatchObject({
    action: "client.updated",
    actor: ctx.developer.email,
    detail: { changes: { redirect_uris: { from: [client.redirect], to: [next] } } },
  });
  expect(Number.isNaN(Date.parse(entries[0]!.at))).toBe(false);
  const bad = await ctx.request(clientPath(client.client_id), {
    method: "PATCH",
    headers: { ...ctx.bearer(ctx.developer.token), "Content-Type": "application/json" },
    body: JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }),
  });
  expectDetailPath(await expectError(bad, "invalid_request", "bad redirect URI"), "redirect_uris.0", "bad redirect URI");
  expect((await authorizeStatus(ctx, client.client_id, next)).status, "a refused edit changes nothing").toBe(200);
}

/** Secret rotation: the new secret is answered once; right after it both secrets authenticate (the overlap window). */
export async function clientSecretRotationOverlaps(ctx: ConformanceContext): Promise<void> {
  const client = await freshClient(ctx);
  const res = await ctx.request(clientPath(client.client_id, "/secret"), { method: "POST", headers: ctx.bearer(ctx.developer.token) });
  const rotated = await expectJson(res, 200, "rotate");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const secret = String(rotated["client_secret"]);
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  expect(secret).not.toBe(client.client_secret);
  expect(Date.parse(String(rotated["previous_secret_valid_until"])), "previous_secret_valid_until in the future").toBeGreaterThan(Date.now());
  expect(await secretAccepted(ctx, client.client_id, client.redirect, secret), "new secret").toBe(true);
  expect(await secretAccepted(ctx, client.client_id, client.redirect, client.client_secret), "previous secret inside the window").toBe(true);
  expect(await secretAccepted(ctx, client.client_id, client.redirect, `${secret}x`), "any other secret").toBe(false);
}

/** Disable: sign-in and client authentication refused and tokens revoked; enable: authentication again; delete: gone, 404 client_not_found after. */
export async function clientDisableEnableDelete(ctx: ConformanceContext): Promise<void> {
  const client = await freshClient(ctx);
  const dev = ctx.bearer(ctx.developer.token);
  const off = await expectJson(await ctx.request(clientPath(client.client_id, "/disable"), { method: "POST", headers: dev }), 200, "disable");
  expect(off["disabled"]).toBe(true);
  expect(await secretAccepted(ctx, client.client_id, client.redirect, client.client_secret), "disabled client").toBe(false);
  await expectError(await authorizeStatus(ctx, client.client_id, client.redirect), "invalid_client", "authorize with a disabled client");
  const on = await expectJson(await ctx.request(clientPath(client.client_id, "/enable"), { method: "POST", headers: dev }), 200, "enable");
  expect(on["disabled"]).toBe(false);
  expect(await secretAccepted(ctx, client.client_id, client.redirect, client.client_secret), "enabled again").toBe(true);
  expect(await expectJson(await ctx.request(clientPath(client.client_id), { method: "DELETE", headers: dev }), 200, "delete")).toEqual({
    success: true,
    client_id: client.client_id,
    deleted: true,
  });
  expect(await secretAccepted(ctx, client.client_id, client.redirect, client.client_secret), "deleted client").toBe(false);
  const list = await expectJson(await ctx.request(PATHS.clients, { headers: dev }), 200, "list");
  expect((list["clients"] as ClientApplication[]).map((c) => c.client_id)).not.toContain(client.client_id);
  await expectError(await ctx.request(clientPath(client.client_id, "/audit"), { headers: dev }), "client_not_found", "audit of a deleted client");
}

/** Another developer's token, or none: every per-client endpoint refuses (404 client_not_found, 401 invalid_token) and nothing changes. */
export async function clientManagementOnlyForOwner(ctx: ConformanceContext): Promise<void> {
  const client = await freshClient(ctx);
  const other = await expectOk(
    await ctx.postJson(PATHS.devUserSignup, { email: `${ctx.unique("dev")}@conformance.test`, password: `pw-${randomUUID()}` }),
    devUserLoginResponseSchema,
    201,
  );
  const calls: Array<[string, string, string | undefined]> = [
    ["PATCH", "", JSON.stringify({ name: "Hijacked" })],
    ["DELETE", "", undefined],
    ["POST", "/secret", undefined],
    ["POST", "/disable", undefined],
    ["GET", "/audit", undefined],
    ["GET", "/deliveries", undefined],
  ];
  for (const [method, suffix, body] of calls) {
    const init = (headers: Record<string, string>): RequestInit => ({
      method,
      headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
      ...(body ? { body } : {}),
    });
    await expectError(
      await ctx.request(clientPath(client.client_id, suffix), init(ctx.bearer(other.token))),
      "client_not_found",
      `${method} ${suffix} by another developer`,
    );
    await expectError(await ctx.request(clientPath(client.client_id, suffix), init({})), "invalid_token", `${method} ${suffix} without a token`);
  }
  expect(await secretAccepted(ctx, client.client_id, client.redirect, client.client_secret), "nothing changed").toBe(true);
  const list = await expectJson(await ctx.request(PATHS.clients, { headers: ctx.bearer(ctx.developer.token) }), 200, "list");
  expect((list["clients"] as ClientApplication[]).find((c) => c.client_id === client.client_id)).toMatchObject({ name: registration.name, disabled: false });
  await expectError(
    await ctx.request(clientPath(client.client_id, "/deliveries/1/retry"), { method: "POST", headers: ctx.bearer(other.token) }),
    "client_not_found",
    "retry by another developer",
  );
}

// A 32×32 PNG of one colour (99 bytes).
const LOGO_PNG = "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKklEQVR42mPQyr9NU8QwasGoBaMWjFowasGoBaMWjFowasGoBaMWDBULAFik0ExkPGvBAAAAAElFTkSuQmCC";

/**
 * A client's brand: its developer sets a display name, an accent and a PNG logo; the logo is served from the
 * service's origin as that image (nosniff, versioned URL cached for good, ETag); an SVG, a mislabelled file
 * and an unreadable accent are refused 400 with nothing changed; another developer's client is 404; null clears.
 */
export async function clientBrandSetServedAndChecked(ctx: ConformanceContext): Promise<void> {
  const client = await freshClient(ctx);
  const path = clientPath(client.client_id, "/brand");
  const auth = ctx.bearer(ctx.developer.token);
  const patch = (body: unknown, headers = auth) =>
    ctx.request(path, { method: "PATCH", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const empty = await expectOk(await ctx.request(path, { headers: auth }), clientBrandResponseSchema, 200, "brand before");
  expect(empty.brand).toEqual({ display_name: null, accent_color: null, logo_url: null });

  const set = await expectOk(
    await patch({ display_name: "Conformance Quest", accent_color: "#1A56DB", logo: { content_type: "image/png", data_base64: LOGO_PNG } }),
    clientBrandResponseSchema,
    200,
    "set brand",
  );
  expect(set.brand).toMatchObject({ display_name: "Conformance Quest", accent_color: "#1a56db" });
  const logoUrl = new URL(set.brand.logo_url ?? "");
  expect(`${logoUrl.origin}${logoUrl.pathname}`, "the logo is on the service's origin").toBe(ctx.url(`/v1/brand/${client.client_id}/logo`));
  const logo = await ctx.request(`${logoUrl.pathname}${logoUrl.search}`);
  expect(logo.status).toBe(200);
  expect(logo.headers.get("content-type")).toMatch(/^image\/png/);
  expect(logo.headers.get("x-content-type-options")).toBe("nosniff");
  expect(logo.headers.get("cache-control")).toMatch(/immutable/);
  expect(Buffer.from(await logo.arrayBuffer()).toString("base64")).toBe(LOGO_PNG);
  const again = await ctx.request(logoUrl.pathname, { headers: { "If-None-Match": logo.headers.get("etag") ?? "" } });
  expect(again.status, "same ETag: 304").toBe(304);

  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script></svg>').toString("base64");
  await expectError(await patch({ logo: { content_type: "image/svg+xml", data_base64: svg } }), "invalid_request", "an SVG logo");
  await expectError(await patch({ logo: { content_type: "image/png", data_base64: svg } }), "invalid_request", "an SVG labelled PNG");
  await expectError(await patch({ logo: { content_type: "image/jpeg", data_base64: LOGO_PNG } }), "invalid_request", "a PNG labelled JPEG");
  await expectError(await patch({ accent_color: "#ffd966" }), "invalid_request", "an accent white text cannot be read on");
  const other = await expectOk(
    await ctx.postJson(PATHS.devUserSignup, { email: `${ctx.unique("dev")}@conformance.test`, password: `pw-${randomUUID()}` }),
    devUserLoginResponseSchema,
    201,
  );
  await expectError(await patch({ display_name: "Hijacked" }, ctx.bearer(other.token)), "client_not_found", "another developer's client");
  const kept = await expectOk(await ctx.request(path, { headers: auth }), clientBrandResponseSchema, 200, "brand after refusals");
  expect(kept.brand, "the refusals changed nothing").toEqual(set.brand);

  const cleared = await expectOk(await patch({ logo: null, display_name: null }), clientBrandResponseSchema, 200, "clear");
  expect(cleared.brand).toEqual({ display_name: null, accent_color: "#1a56db", logo_url: null });
  await expectError(await ctx.request(logoUrl.pathname), "not_found", "a cleared logo");
}

/** Developer-center checks. */
export const devCenterChecks: CheckGroup = {
  "signup -> 201, login -> 200 with the same uuid, GET /v1/dev-user/me names that account": devSignupAndLogin,
  "duplicate signup -> 409 email_taken": devSignupRejectsTakenEmail,
  "a client's brand: set, logo served from the service's origin, SVG / mislabelled / unreadable accent refused, null clears": clientBrandSetServedAndChecked,
  "wrong password and unknown email -> same 401 invalid_credentials": devLoginRejectsWrongCredentials,
  "client registration -> 201 with secret once; list has no secrets": clientRegistrationShowsSecretOnce,
  "developer center needs a developer token": clientRegistrationRequiresDeveloperToken,
  "client registration validates its input": clientRegistrationValidates,
  "a developer lists only their own clients": clientsListedOnlyForOwner,
  "editing redirect URIs: the old one is redirect_uri_mismatch, the new one works": clientEditReplacesRedirectUris,
  "secret rotation: the new secret once, both work inside the overlap window": clientSecretRotationOverlaps,
  "disable, enable, delete: client authentication follows": clientDisableEnableDelete,
  "client management only for the owner; 401 without a token": clientManagementOnlyForOwner,
};
