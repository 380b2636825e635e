import { LIMITS, PATHS } from "@slotgate/protocol";
import { tokenResponseSchema, validateResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectOk } from "../assertions.js";
import type { ConformanceContext } from "../context.js";
import { type CheckGroup, pkceChallenge, pkceVerifier } from "./check.js";

/** JSON body with client_secret_post: 200 TokenResponse, no-store, no content_address for a non-blockchain client; the token validates. */
export async function tokenExchangeJsonPost(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { alice } = ctx.users;
  const { code } = await ctx.authorizeCode(web, alice);
  const res = await ctx.exchange(web, code, { auth: "post", format: "json" });
  expect(res.headers.get("cache-control") ?? "").toMatch(/no-store/);
  const token = await expectOk(res, tokenResponseSchema);
  expect(token).toMatchObject({ token_type: "Bearer", expires_in: LIMITS.accessTokenLifetimeSeconds, user_id: alice.user_id });
  expect(token, "content_address only for blockchain clients").not.toHaveProperty("content_address");
  const validated = await expectOk(await ctx.validate(token.access_token), validateResponseSchema);
  expect(validated).toMatchObject({ user_id: alice.user_id, client_id: web.client_id, token_use: "access_token" });
}

/** Form body with client_secret_basic: 200. */
export async function tokenExchangeFormBasic(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { code } = await ctx.authorizeCode(web, ctx.users.bob);
  const token = await expectOk(await ctx.exchange(web, code, { auth: "basic", format: "form" }), tokenResponseSchema);
  expect(token.user_id).toBe(ctx.users.bob.user_id);
}

/** A blockchain client gets the user's content_address, the same on every exchange and different per user. */
export async function tokenContentAddressForBlockchainClient(ctx: ConformanceContext): Promise<void> {
  const { chain } = ctx.clients;
  const first = await ctx.accessToken(chain, ctx.users.alice);
  const second = await ctx.accessToken(chain, ctx.users.alice);
  const bob = await ctx.accessToken(chain, ctx.users.bob);
  expect(first.content_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(second.content_address?.toLowerCase()).toBe(first.content_address?.toLowerCase());
  expect(bob.content_address?.toLowerCase()).not.toBe(first.content_address?.toLowerCase());
}

/** Credentials in both Basic and body: 400 invalid_request with error_description. */
export async function tokenRejectsBothAuthMethods(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { code } = await ctx.authorizeCode(web, ctx.users.alice);
  const res = await ctx.postJson(
    "/oauth/token",
    { grant_type: "authorization_code", code, redirect_uri: web.redirect_uri, client_id: web.client_id, client_secret: web.client_secret },
    ctx.basic(web),
  );
  const body = await expectError(res, "invalid_request");
  expect(body.error_description).toBe(body.message);
}

/** Wrong secret (post or Basic) or unknown client: 401 invalid_client with error_description. */
export async function tokenRejectsBadClientAuth(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { code } = await ctx.authorizeCode(web, ctx.users.alice);
  for (const auth of ["post", "basic"] as const) {
    const body = await expectError(await ctx.exchange(web, code, { auth, secret: `${web.client_secret}x` }), "invalid_client", `wrong secret (${auth})`);
    expect(body.error_description).toBe(body.message);
  }
  await expectError(await ctx.exchange({ ...web, client_id: "sg_unknown_client_000000000" }, code), "invalid_client", "unknown client");
  const noAuth = await ctx.postJson("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: web.redirect_uri, client_id: web.client_id });
  await expectError(noAuth, "invalid_client", "no client authentication at all");
  const ok = await ctx.exchange(web, code);
  expect(ok.status, "failed client authentication did not consume the code").toBe(200);
}

/** A grant_type the service does not know: 400 unsupported_grant_type. */
export async function tokenRejectsUnsupportedGrantType(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  for (const grant of ["password", "client_credentials", "implicit"]) {
    const res = await ctx.postJson("/oauth/token", {
      grant_type: grant,
      code: "x",
      redirect_uri: web.redirect_uri,
      client_id: web.client_id,
      client_secret: web.client_secret,
    });
    await expectError(res, "unsupported_grant_type", grant);
  }
}

/** A redirect_uri not registered for the client: 401 redirect_uri_mismatch. */
export async function tokenRejectsUnregisteredRedirectUri(ctx: ConformanceContext): Promise<void> {
  const { chain } = ctx.clients;
  const { code } = await ctx.authorizeCode(chain, ctx.users.alice);
  await expectError(await ctx.exchange(chain, code, { redirect_uri: chain.redirect_uri.replace(/\/$/, "") }), "redirect_uri_mismatch");
}

/** A code works once: the replay gets 400 invalid_grant AND revokes the access token issued from it. */
export async function codeIsSingleUse(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { code } = await ctx.authorizeCode(web, ctx.users.alice);
  const first = await expectOk(await ctx.exchange(web, code), tokenResponseSchema, 200, "first exchange");
  expect((await ctx.validate(first.access_token)).status, "first token valid before the replay").toBe(200);
  const replay = await expectError(await ctx.exchange(web, code), "invalid_grant", "replayed code");
  expect(replay.error_description).toBe(replay.message);
  const after = await ctx.validate(first.access_token);
  expect(after.status, "the replay revokes the token issued from the code").toBe(401);
  expect(after.headers.get("www-authenticate") ?? "").toMatch(/invalid_token/);
}

/** A code issued to one client cannot be exchanged by another. */
export async function codeIsBoundToClient(ctx: ConformanceContext): Promise<void> {
  const { web, chain } = ctx.clients;
  const { code } = await ctx.authorizeCode(web, ctx.users.alice);
  await expectError(await ctx.exchange(chain, code), "invalid_grant");
}

/** A code issued for one registered redirect_uri cannot be exchanged with another registered one. */
export async function codeIsBoundToRedirectUri(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const [first, second] = web.redirect_uris as [string, string];
  const { code } = await ctx.authorizeCode(web, ctx.users.alice, { redirect_uri: first });
  await expectError(await ctx.exchange(web, code, { redirect_uri: second }), "invalid_grant");
}

/** An unknown code: 400 invalid_grant. */
export async function unknownCodeIsRejected(ctx: ConformanceContext): Promise<void> {
  await expectError(await ctx.exchange(ctx.clients.web, "this-code-was-never-issued-0000000000"), "invalid_grant");
}

/** PKCE S256: a missing or wrong code_verifier gets invalid_grant; the right one 200. */
export async function pkceIsEnforced(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const verifier = pkceVerifier();
  const challenge = await pkceChallenge(verifier);
  const missing = await ctx.authorizeCode(web, ctx.users.alice, { code_challenge: challenge });
  await expectError(await ctx.exchange(web, missing.code), "invalid_grant", "missing verifier");
  const wrong = await ctx.authorizeCode(web, ctx.users.alice, { code_challenge: challenge });
  await expectError(await ctx.exchange(web, wrong.code, { code_verifier: pkceVerifier() }), "invalid_grant", "wrong verifier");
  const right = await ctx.authorizeCode(web, ctx.users.alice, { code_challenge: challenge });
  await expectOk(await ctx.exchange(web, right.code, { code_verifier: verifier }), tokenResponseSchema, 200, "right verifier");
}

/** Token endpoint checks. */
/**
 * The client SDK's redirect login (issue 32): a web client's code made with a PKCE challenge is redeemed with the
 * verifier alone, no secret: the answer is the player's 7-day user JWT (what the popup hands over), never a refresh
 * token; the same code again is a replay. A code made without a challenge is refused without the secret, and that
 * attempt uses it up.
 */
export async function tokenBrowserLoginWithVerifierAlone(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const verifier = pkceVerifier();
  const { code, redirect_uri } = await ctx.authorizeCode(web, ctx.users.alice, { code_challenge: await pkceChallenge(verifier) });
  const redeem = (value: string, extra: Record<string, string> = {}) =>
    ctx.postForm(PATHS.token, { grant_type: "authorization_code", code: value, redirect_uri, client_id: web.client_id, ...extra });
  const body = await expectOk(await redeem(code, { code_verifier: verifier }), tokenResponseSchema, 200, "browser login");
  expect(body.refresh_token, "no refresh token in a browser").toBeUndefined();
  const validated = await expectOk(await ctx.validate(body.access_token), validateResponseSchema);
  expect(validated).toMatchObject({ user_id: ctx.users.alice.user_id, client_id: web.client_id, token_use: "user_jwt" });
  expect(body.expires_in).toBe(LIMITS.userJwtLifetimeSeconds);
  await expectError(await redeem(code, { code_verifier: verifier }), "invalid_grant", "the same code again");

  const plain = await ctx.authorizeCode(web, ctx.users.alice);
  await expectError(await redeem(plain.code, { code_verifier: verifier }), "invalid_grant", "a code made without a challenge, no secret");
  await expectError(await ctx.exchange(web, plain.code), "invalid_grant", "that code afterwards, with the secret");
}

export const tokenChecks: CheckGroup = {
  "JSON body + client_secret_post -> 200 TokenResponse, no-store, token validates": tokenExchangeJsonPost,
  "form body + client_secret_basic -> 200": tokenExchangeFormBasic,
  "content_address present for blockchain clients, stable per user": tokenContentAddressForBlockchainClient,
  "Basic and body credentials together -> 400 invalid_request": tokenRejectsBothAuthMethods,
  "wrong secret / unknown client -> 401 invalid_client": tokenRejectsBadClientAuth,
  "browser login: a PKCE code redeemed with the verifier alone -> user JWT, no refresh token; a code without a challenge refused":
    tokenBrowserLoginWithVerifierAlone,
  "unknown grant_type -> 400 unsupported_grant_type": tokenRejectsUnsupportedGrantType,
  "unregistered redirect_uri -> 401 redirect_uri_mismatch": tokenRejectsUnregisteredRedirectUri,
  "replayed code -> 400 invalid_grant and its first token is revoked": codeIsSingleUse,
  "code bound to its client -> invalid_grant": codeIsBoundToClient,
  "code bound to its redirect_uri -> invalid_grant": codeIsBoundToRedirectUri,
  "unknown code -> invalid_grant": unknownCodeIsRejected,
  "PKCE S256 enforced": pkceIsEnforced,
};
