import { GRANT_TYPES, LIMITS, PATHS } from "@slotgate/protocol";
import { deviceAuthorizationResponseSchema, tokenResponseSchema, validateResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectOk } from "../assertions.js";
import { type ConformanceContext, type RegisteredClient, setCookieValue, type TestUser } from "../context.js";
import { inputValue } from "../html.js";
import type { CheckGroup } from "./check.js";

/** `POST /oauth/device_authorization` as a public client (client_id only, form body). */
async function startDevice(ctx: ConformanceContext, client: RegisteredClient = ctx.clients.device) {
  return expectOk(
    await ctx.postForm(PATHS.deviceAuthorization, { client_id: client.client_id }),
    deviceAuthorizationResponseSchema,
    200,
    "device authorization",
  );
}

/** One poll of the token endpoint by the device. */
function poll(ctx: ConformanceContext, deviceCode: string, client: RegisteredClient = ctx.clients.device): Promise<Response> {
  return ctx.postForm(PATHS.token, { grant_type: GRANT_TYPES.deviceCode, device_code: deviceCode, client_id: client.client_id });
}

/** The verification page for a user code, then its form posted with the decision. */
async function decide(ctx: ConformanceContext, userCode: string, decision: "approve" | "deny", user?: TestUser): Promise<Response> {
  const page = await ctx.request(`${PATHS.deviceVerification}?${new URLSearchParams({ user_code: userCode })}`, { headers: { Accept: "text/html" } });
  const html = await page.text();
  expect(page.status, "verification page with a pending user code").toBe(200);
  const csrf = inputValue(html, "csrf_token");
  const cookie = setCookieValue(page, "slotgate_csrf");
  expect(csrf && cookie, "verification page sets the CSRF cookie and field").toBeTruthy();
  expect(inputValue(html, "email"), "the sign-in form has the email field").toBeDefined();
  const fields: Record<string, string> = { user_code: userCode, csrf_token: csrf!, decision };
  if (user) Object.assign(fields, { email: user.email, password: user.password });
  return ctx.postForm(PATHS.deviceVerification, fields, { Accept: "text/html", Cookie: `slotgate_csrf=${cookie}` });
}

/** The device authorization answer (RFC 8628 3.2) and its advertisement in the RFC 8414 metadata. */
export async function deviceAuthorizationAnswers(ctx: ConformanceContext): Promise<void> {
  const res = await ctx.postForm(PATHS.deviceAuthorization, { client_id: ctx.clients.device.client_id });
  expect(res.headers.get("cache-control") ?? "").toMatch(/no-store/);
  const started = await expectOk(res, deviceAuthorizationResponseSchema);
  expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  expect(started.verification_uri).toBe(ctx.url(PATHS.deviceVerification));
  expect(started.verification_uri_complete).toBe(`${ctx.url(PATHS.deviceVerification)}?user_code=${started.user_code}`);
  expect(started.expires_in).toBe(LIMITS.deviceCodeLifetimeSeconds);
  expect(started.interval).toBeGreaterThanOrEqual(1);
  const metadata = (await (await ctx.request(PATHS.metadata)).json()) as Record<string, unknown>;
  expect(metadata["device_authorization_endpoint"]).toBe(ctx.url(PATHS.deviceAuthorization));
  expect(metadata["grant_types_supported"]).toEqual(expect.arrayContaining([GRANT_TYPES.deviceCode, GRANT_TYPES.refreshToken]));
}

/** Before the user decides: authorization_pending; a poll sooner than the interval: slow_down. */
export async function devicePendingThenSlowDown(ctx: ConformanceContext): Promise<void> {
  const started = await startDevice(ctx);
  const first = await expectError(await poll(ctx, started.device_code), "authorization_pending");
  expect(first.error_description).toBe(first.message);
  await expectError(await poll(ctx, started.device_code), "slow_down", "second poll at once");
}

/** Approval on the verification page: the next poll gets a user JWT that validates, exactly once. */
export async function deviceApprovalIssuesToken(ctx: ConformanceContext): Promise<void> {
  const started = await startDevice(ctx);
  const page = await decide(ctx, started.user_code.toLowerCase().replace("-", ""), "approve", ctx.users.alice);
  expect(page.status, "approval page").toBe(200);
  const token = await expectOk(await poll(ctx, started.device_code), tokenResponseSchema, 200, "poll after approval");
  expect(token).toMatchObject({ token_type: "Bearer", user_id: ctx.users.alice.user_id, expires_in: LIMITS.userJwtLifetimeSeconds });
  expect(token, "a device gets no refresh token").not.toHaveProperty("refresh_token");
  const validated = await expectOk(await ctx.validate(token.access_token), validateResponseSchema);
  expect(validated).toMatchObject({ user_id: ctx.users.alice.user_id, client_id: ctx.clients.device.client_id, token_use: "user_jwt" });
  await expectError(await poll(ctx, started.device_code), "invalid_grant", "second poll after the token");
}

/** Denial on the verification page: the device gets access_denied (400, RFC 8628 3.5). */
export async function deviceDenialIsAccessDenied(ctx: ConformanceContext): Promise<void> {
  const started = await startDevice(ctx);
  expect((await decide(ctx, started.user_code, "deny")).status).toBe(200);
  await expectError(await poll(ctx, started.device_code), "access_denied");
}

/** An unknown user code is refused on the page; an unknown device code or one of another client is invalid_grant. */
export async function deviceCodesAreChecked(ctx: ConformanceContext): Promise<void> {
  const page = await ctx.request(`${PATHS.deviceVerification}?user_code=BBBB-BBBB`, { headers: { Accept: "text/html" } });
  expect(page.status, "unknown user code").toBe(400);
  expect(inputValue(await page.text(), "password"), "no sign-in form for an unknown code").toBeUndefined();
  await expectError(await poll(ctx, "never-issued-device-code-000000000000"), "invalid_grant", "unknown device code");
  const started = await startDevice(ctx);
  await expectError(await poll(ctx, started.device_code, ctx.clients.loopback), "unauthorized_client", "client without the grant");
  const other = ctx.clients.device;
  await expectError(
    await ctx.postForm(PATHS.deviceAuthorization, { client_id: ctx.clients.web.client_id }),
    "unauthorized_client",
    "web client at device_authorization",
  );
  await expectError(await ctx.postForm(PATHS.deviceAuthorization, { client_id: "sg_unknown_client_000000000" }), "invalid_client", "unknown client");
  await expectError(await ctx.postForm(PATHS.deviceAuthorization, { client_id: other.client_id, client_secret: "wrong" }), "invalid_client", "wrong secret");
}

/** A device code past its lifetime: expired_token (needs `operator.expireDeviceAuthorization`). */
export async function deviceCodeExpires(ctx: ConformanceContext): Promise<void> {
  const expire = ctx.target.operator.expireDeviceAuthorization;
  if (!expire) throw new Error("this check needs operator.expireDeviceAuthorization");
  const started = await startDevice(ctx);
  await expire(started.user_code);
  await expectError(await poll(ctx, started.device_code), "expired_token");
  const page = await ctx.request(started.verification_uri_complete, { headers: { Accept: "text/html" } });
  expect(page.status, "the page refuses an expired code").toBe(400);
}

/** Device grant checks (RFC 8628). */
export const deviceChecks: CheckGroup = {
  "device_authorization answers codes and URIs; metadata advertises it": deviceAuthorizationAnswers,
  "poll before approval -> authorization_pending; too fast -> slow_down": devicePendingThenSlowDown,
  "approval on the verification page -> user JWT once, validates": deviceApprovalIssuesToken,
  "denial -> access_denied": deviceDenialIsAccessDenied,
  "unknown user code / device code, client without the grant": deviceCodesAreChecked,
};

/** Checks that need `operator.expireDeviceAuthorization`. */
export const deviceExpiryChecks: CheckGroup = {
  "expired device code -> expired_token": deviceCodeExpires,
};
