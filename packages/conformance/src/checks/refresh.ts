import { GRANT_TYPES, PATHS, type TokenResponse } from "@slotgate/protocol";
import { tokenResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectOk } from "../assertions.js";
import type { ConformanceContext, RegisteredClient } from "../context.js";
import type { CheckGroup } from "./check.js";

function refresh(ctx: ConformanceContext, refreshToken: string, client: RegisteredClient = ctx.clients.refresh): Promise<Response> {
  return ctx.postForm(PATHS.token, {
    grant_type: GRANT_TYPES.refreshToken,
    refresh_token: refreshToken,
    client_id: client.client_id,
    client_secret: client.client_secret,
  });
}

/** A sign-in of alice at the refresh client: the code exchange's answer, with its refresh token. */
async function signIn(ctx: ConformanceContext): Promise<TokenResponse & { refresh_token: string }> {
  const token = await ctx.accessToken(ctx.clients.refresh, ctx.users.alice);
  expect(typeof token.refresh_token, "the code exchange returns a refresh token to a client registered for it").toBe("string");
  return token as TokenResponse & { refresh_token: string };
}

/** Only a client registered with the grant gets refresh tokens; others get unauthorized_client. */
export async function refreshIsOptIn(ctx: ConformanceContext): Promise<void> {
  const plain = await ctx.accessToken(ctx.clients.web, ctx.users.alice);
  expect(plain, "no refresh token for a client without the grant").not.toHaveProperty("refresh_token");
  const first = await signIn(ctx);
  await expectError(await refresh(ctx, first.refresh_token, ctx.clients.web), "unauthorized_client", "web client refreshing");
}

/** Every use rotates: a new refresh token and a new access token that validates; the chain goes on. */
export async function refreshRotates(ctx: ConformanceContext): Promise<void> {
  const first = await signIn(ctx);
  const res = await refresh(ctx, first.refresh_token);
  expect(res.headers.get("cache-control") ?? "").toMatch(/no-store/);
  const second = await expectOk(res, tokenResponseSchema, 200, "refresh");
  expect(second).toMatchObject({ token_type: "Bearer", user_id: ctx.users.alice.user_id });
  expect(second.refresh_token).toEqual(expect.any(String));
  expect(second.refresh_token).not.toBe(first.refresh_token);
  expect((await ctx.validate(second.access_token)).status).toBe(200);
  await expectOk(await refresh(ctx, second.refresh_token!), tokenResponseSchema, 200, "refresh with the rotated token");
}

/** Two refreshes with the same token at once (within the grace window) both succeed, with the same successor. */
export async function refreshGraceForConcurrentUse(ctx: ConformanceContext): Promise<void> {
  const first = await signIn(ctx);
  const [a, b] = await Promise.all([refresh(ctx, first.refresh_token), refresh(ctx, first.refresh_token)]);
  const one = await expectOk(a, tokenResponseSchema, 200, "first concurrent refresh");
  const two = await expectOk(b, tokenResponseSchema, 200, "second concurrent refresh");
  expect(one.refresh_token).toBe(two.refresh_token);
}

/** Reuse of a token whose successor was already used ends the family: every token of it is refused. */
export async function refreshReuseEndsFamily(ctx: ConformanceContext): Promise<void> {
  const first = await signIn(ctx);
  const second = await expectOk(await refresh(ctx, first.refresh_token), tokenResponseSchema);
  const third = await expectOk(await refresh(ctx, second.refresh_token!), tokenResponseSchema);
  await expectError(await refresh(ctx, first.refresh_token), "invalid_grant", "stale refresh token");
  expect((await ctx.validate(third.access_token)).status, "the current access token is refused").toBe(401);
  await expectError(await refresh(ctx, third.refresh_token!), "invalid_grant", "the current refresh token is refused");
}

/** Logout ends the family (refresh refused); revocation of an access token ends its family and its access tokens. */
export async function refreshEndsOnLogoutAndRevocation(ctx: ConformanceContext): Promise<void> {
  const { refresh: client } = ctx.clients;
  const a = await signIn(ctx);
  const out = await ctx.postJson(PATHS.statusLogout, { user_id: a.user_id, client_id: client.client_id }, ctx.bearer(a.access_token));
  expect(out.status, "logout").toBe(200);
  await expectError(await refresh(ctx, a.refresh_token), "invalid_grant", "refresh after logout");
  const b = await signIn(ctx);
  const rotated = await expectOk(await refresh(ctx, b.refresh_token), tokenResponseSchema);
  expect((await ctx.request(PATHS.revoke, { method: "POST", headers: ctx.bearer(rotated.access_token) })).status).toBe(200);
  await expectError(await refresh(ctx, rotated.refresh_token!), "invalid_grant", "refresh after revocation");
  expect((await ctx.validate(b.access_token)).status, "the family's first access token is revoked too").toBe(401);
}

/** Unknown tokens, another client's tokens and a missing refresh_token are refused. */
export async function refreshTokenIsChecked(ctx: ConformanceContext): Promise<void> {
  const first = await signIn(ctx);
  await expectError(await refresh(ctx, "sgr_never-issued-000000000000000000000000000"), "invalid_grant", "unknown token");
  await expectError(
    await refresh(ctx, first.refresh_token, { ...ctx.clients.refresh, client_secret: `${ctx.clients.refresh.client_secret}x` }),
    "invalid_client",
    "wrong secret",
  );
  const missing = await ctx.postForm(PATHS.token, {
    grant_type: GRANT_TYPES.refreshToken,
    client_id: ctx.clients.refresh.client_id,
    client_secret: ctx.clients.refresh.client_secret,
  });
  await expectError(missing, "invalid_request", "no refresh_token");
  await expectOk(await refresh(ctx, first.refresh_token), tokenResponseSchema, 200, "the token still works after refused attempts");
}

/** Refresh-grant checks (spec 9 v4, RFC 6749 section 6, RFC 9700 4.14.2). */
export const refreshChecks: CheckGroup = {
  "refresh tokens only for clients registered with the grant": refreshIsOptIn,
  "refresh rotates the refresh token and issues a valid access token": refreshRotates,
  "concurrent refreshes within the grace window share one successor": refreshGraceForConcurrentUse,
  "reuse after the successor was used ends the family": refreshReuseEndsFamily,
  "logout and revocation end the family": refreshEndsOnLogoutAndRevocation,
  "unknown token, wrong secret, missing field": refreshTokenIsChecked,
};
