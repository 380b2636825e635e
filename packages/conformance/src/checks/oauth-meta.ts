import { PATHS } from "@slotgate/protocol";
import { metaGetTokenResponseSchema, tokenResponseSchema, validateResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectJson, expectOk } from "../assertions.js";
import type { ConformanceContext } from "../context.js";
import { type CheckGroup, settle } from "./check.js";

function metaAuthorize(ctx: ConformanceContext, token: string | null, query: Record<string, string>): Promise<Response> {
  return ctx.request(`${PATHS.metaAuthorize}?${new URLSearchParams(query)}`, { headers: token ? ctx.bearer(token) : {} });
}

function getToken(ctx: ConformanceContext, body: Record<string, string>): Promise<Response> {
  return ctx.postJson(PATHS.metaGetToken, body);
}

/** Runs authorize until the callback arrived; returns its code. */
async function authorizeAndReceive(ctx: ConformanceContext, jwt: string): Promise<{ code: string; state: string }> {
  const { backend } = ctx.clients;
  const state = ctx.unique("meta");
  const res = await metaAuthorize(ctx, jwt, { client_id: backend.client_id, redirect_uri: backend.redirect_uri, state });
  const body = await expectJson(res, 200, "oauth-meta authorize");
  expect(body["success"]).toBe(true);
  const callback = await ctx.receiver.waitFor(state);
  return { code: callback.query["code"] ?? "", state };
}

/** authorize -> 200, then a server-to-server POST {redirect_uri}?code&state&success=1 -> get_token -> slot info. */
export async function metaFlowDeliversCallbackAndSlotInfo(ctx: ConformanceContext): Promise<void> {
  const { backend } = ctx.clients;
  const user = await ctx.signupUser();
  const jwt = await ctx.userJwt(backend, user);
  const state = ctx.unique("meta");
  const res = await metaAuthorize(ctx, jwt, { client_id: backend.client_id, redirect_uri: backend.redirect_uri, state });
  const accepted = await expectJson(res, 200, "oauth-meta authorize");
  expect(accepted).toMatchObject({ success: true });
  expect(typeof accepted["message"]).toBe("string");
  const callback = await ctx.receiver.waitFor(state);
  expect(callback.method, "the callback is a POST, not a browser redirect").toBe("POST");
  expect(callback.path).toBe(new URL(backend.redirect_uri).pathname);
  expect(callback.query).toMatchObject({ state, success: "1" });
  expect(callback.query["code"]).toMatch(/^.{16,}$/);
  const code = callback.query["code"] ?? "";

  const res2 = await getToken(ctx, { client_id: backend.client_id, client_secret: backend.client_secret, code, redirect_uri: backend.redirect_uri });
  expect(res2.headers.get("cache-control") ?? "").toMatch(/no-store/);
  const slot = await expectOk(res2, metaGetTokenResponseSchema, 200, "get_token");
  expect(slot).toMatchObject({ id: user.user_id, code, tr_cnt: 0, token_type: "Bearer", token_nickname: user.email.split("@")[0] });
  expect(slot.content_address, "blockchain client: the slot wallet").toMatch(/^0x[0-9a-fA-F]{40}$/);
  const validated = await expectOk(await ctx.validate(slot.access_token), validateResponseSchema);
  expect(validated).toMatchObject({ user_id: user.user_id, client_id: backend.client_id, token_use: "access_token" });

  const viaCodeFlow = await ctx.accessToken(backend, user);
  expect(tokenResponseSchema.parse(viaCodeFlow).content_address?.toLowerCase(), "same slot wallet as the code flow").toBe(slot.content_address.toLowerCase());
}

/** get_token codes are single use: the replay gets 400 invalid_grant and revokes the first access token. */
export async function metaCodeIsSingleUse(ctx: ConformanceContext): Promise<void> {
  const { backend } = ctx.clients;
  const jwt = await ctx.userJwt(backend, ctx.users.alice);
  const { code } = await authorizeAndReceive(ctx, jwt);
  const body = { client_id: backend.client_id, client_secret: backend.client_secret, code, redirect_uri: backend.redirect_uri };
  const first = await expectOk(await getToken(ctx, body), metaGetTokenResponseSchema, 200, "first get_token");
  await expectError(await getToken(ctx, body), "invalid_grant", "replayed get_token");
  expect((await ctx.validate(first.access_token)).status, "replay revokes the first token").toBe(401);
}

/** get_token: wrong secret -> 401 invalid_client; unregistered redirect_uri -> 401; another client's code -> invalid_grant. */
export async function metaGetTokenChecksClientAndBinding(ctx: ConformanceContext): Promise<void> {
  const { backend, web } = ctx.clients;
  const jwt = await ctx.userJwt(backend, ctx.users.alice);
  const { code } = await authorizeAndReceive(ctx, jwt);
  const body = { client_id: backend.client_id, client_secret: backend.client_secret, code, redirect_uri: backend.redirect_uri };
  await expectError(await getToken(ctx, { ...body, client_secret: `${backend.client_secret}x` }), "invalid_client", "wrong secret");
  await expectError(await getToken(ctx, { ...body, redirect_uri: `${backend.redirect_uri}/` }), "redirect_uri_mismatch", "redirect_uri with slash");
  await expectError(
    await getToken(ctx, { client_id: web.client_id, client_secret: web.client_secret, code, redirect_uri: web.redirect_uri }),
    "invalid_grant",
    "another client redeeming the code",
  );
  await expectError(await getToken(ctx, { ...body, code: "never-issued-code-000000000000" }), "invalid_grant", "unknown code");
}

/** authorize with a user JWT issued for another client: 403 token_user_mismatch, and no callback. */
export async function metaAuthorizeRejectsOtherClientsToken(ctx: ConformanceContext): Promise<void> {
  const { backend, web } = ctx.clients;
  const jwt = await ctx.userJwt(web, ctx.users.alice);
  const state = ctx.unique("meta");
  await expectError(await metaAuthorize(ctx, jwt, { client_id: backend.client_id, redirect_uri: backend.redirect_uri, state }), "token_user_mismatch");
  await settle();
  expect(ctx.receiver.has(state), "no callback after a refusal").toBe(false);
}

/** authorize: no / forged bearer -> 401 invalid_token; unknown client -> 401 invalid_client; unregistered redirect -> 401, no callback. */
export async function metaAuthorizeRejectsBadRequests(ctx: ConformanceContext): Promise<void> {
  const { backend } = ctx.clients;
  const jwt = await ctx.userJwt(backend, ctx.users.alice);
  const query = (state: string) => ({ client_id: backend.client_id, redirect_uri: backend.redirect_uri, state });
  const s1 = ctx.unique("meta");
  await expectError(await metaAuthorize(ctx, null, query(s1)), "invalid_token", "no bearer");
  const s2 = ctx.unique("meta");
  await expectError(await metaAuthorize(ctx, `${jwt.slice(0, -4)}AAAA`, query(s2)), "invalid_token", "bad signature");
  const s3 = ctx.unique("meta");
  await expectError(await metaAuthorize(ctx, jwt, { ...query(s3), client_id: "sg_unknown_client_000000000" }), "invalid_client", "unknown client");
  const s4 = ctx.unique("meta");
  await expectError(
    await metaAuthorize(ctx, jwt, { ...query(s4), redirect_uri: `${backend.redirect_uri}/` }),
    "redirect_uri_mismatch",
    "redirect_uri with slash",
  );
  const s5 = ctx.unique("meta");
  await expectError(await metaAuthorize(ctx, jwt, { client_id: backend.client_id, state: s5 } as Record<string, string>), "invalid_request", "no redirect_uri");
  await settle();
  for (const state of [s1, s2, s3, s4, s5]) expect(ctx.receiver.has(state), `no callback for refused ${state}`).toBe(false);
}

/** oauth-meta checks. */
export const oauthMetaChecks: CheckGroup = {
  "authorize -> 200, POST callback with code/state/success=1, get_token -> slot info": metaFlowDeliversCallbackAndSlotInfo,
  "get_token code is single use and its replay revokes the token": metaCodeIsSingleUse,
  "get_token checks client secret, redirect_uri and code binding": metaGetTokenChecksClientAndBinding,
  "authorize with another client's user JWT -> 403, no callback": metaAuthorizeRejectsOtherClientsToken,
  "authorize rejects missing/forged tokens, unknown clients and unregistered redirect URIs, no callback": metaAuthorizeRejectsBadRequests,
};
