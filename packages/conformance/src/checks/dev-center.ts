import { randomUUID } from "node:crypto";
import { type ClientApplication, PATHS } from "@slotgate/protocol";
import { devUserLoginResponseSchema } from "@slotgate/protocol/schemas";
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

/** signup -> 201 { token, uuid }; login -> 200 with the same uuid; the token opens the developer center. */
export async function devSignupAndLogin(ctx: ConformanceContext): Promise<void> {
  const credentials = { email: `${ctx.unique("dev")}@conformance.test`, password: `pw-${randomUUID()}` };
  const signup = await expectOk(await ctx.postJson(PATHS.devUserSignup, credentials), devUserLoginResponseSchema, 201, "signup");
  const login = await expectOk(await ctx.postJson(PATHS.devUserLogin, credentials), devUserLoginResponseSchema, 200, "login");
  expect(login.uuid).toBe(signup.uuid);
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
  const wrong = await expectError(await ctx.postJson(PATHS.devUserLogin, { email: ctx.developer.email, password: `${ctx.developer.password}x` }), "invalid_credentials");
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

/** Developer-center checks. */
export const devCenterChecks: CheckGroup = {
  "signup -> 201, login -> 200 with the same uuid": devSignupAndLogin,
  "duplicate signup -> 409 email_taken": devSignupRejectsTakenEmail,
  "wrong password and unknown email -> same 401 invalid_credentials": devLoginRejectsWrongCredentials,
  "client registration -> 201 with secret once; list has no secrets": clientRegistrationShowsSecretOnce,
  "developer center needs a developer token": clientRegistrationRequiresDeveloperToken,
  "client registration validates its input": clientRegistrationValidates,
  "a developer lists only their own clients": clientsListedOnlyForOwner,
};
