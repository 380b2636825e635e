import { LIMITS } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { bearerToken } from "./http/auth.js";
import { invalidToken } from "./http/http-error.js";
import { type VerifiedToken, signToken, verifyToken } from "./jwt.js";

const DEV_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** Signs a user JWT (popup / loopback login, 7 days). */
export async function issueUserJwt(ctx: MockContext, userId: string, clientId: string): Promise<string> {
  return (await issueUserJwtWithId(ctx, userId, clientId)).token;
}

/** Signs a user JWT and answers its jti too (a code redeemed for one revokes it when the code is replayed). */
export async function issueUserJwtWithId(ctx: MockContext, userId: string, clientId: string): Promise<{ token: string; jti: string }> {
  return signUserToken(ctx, "user_jwt", userId, clientId, LIMITS.userJwtLifetimeSeconds, ctx.now());
}

/** Signs an access token (code exchange, get_token; 3600 s), returning its jti for revocation. */
export async function issueAccessToken(
  ctx: MockContext,
  userId: string,
  clientId: string,
  lifetimeSeconds: number = LIMITS.accessTokenLifetimeSeconds,
  issuedAtMs: number = ctx.now(),
): Promise<{ token: string; jti: string }> {
  return signUserToken(ctx, "access_token", userId, clientId, lifetimeSeconds, issuedAtMs);
}

/** Signs a token a user holds for a client: a user JWT or an access token. */
async function signUserToken(
  ctx: MockContext,
  tokenUse: "user_jwt" | "access_token",
  userId: string,
  clientId: string,
  lifetimeSeconds: number,
  now: number,
): Promise<{ token: string; jti: string }> {
  return signToken(await ctx.ready(), { issuer: ctx.baseUrl, sub: userId, client_id: clientId, token_use: tokenUse, now, lifetimeSeconds });
}

/** Signs a developer-center token. */
export async function issueDevToken(ctx: MockContext, devUuid: string): Promise<string> {
  const keys = await ctx.ready();
  const { token } = await signToken(keys, {
    issuer: ctx.baseUrl,
    sub: devUuid,
    token_use: "dev_user",
    now: ctx.now(),
    lifetimeSeconds: DEV_TOKEN_LIFETIME_SECONDS,
  });
  return token;
}

/** Verifies a token string: signature, issuer, expiry, not revoked, subject still exists. */
export async function verifyUserToken(ctx: MockContext, token: string): Promise<VerifiedToken | null> {
  const keys = await ctx.ready();
  const claims = await verifyToken(keys, token, ctx.baseUrl, ctx.now());
  if (!claims || claims.token_use === "dev_user") return null;
  if (ctx.state.revokedJtis.has(claims.jti) && !ctx.faults.ignoreRevocation) return null;
  const cutoff = claims.client_id === undefined ? undefined : ctx.state.clients.get(claims.client_id)?.revoked_before;
  if (cutoff !== undefined && claims.iat <= cutoff) return null;
  if (!ctx.state.endUsers.has(claims.sub)) return null;
  return claims;
}

/** The verified user token (user JWT or access token) of a request, or throws 401 invalid_token. */
export async function authenticateUser(ctx: MockContext, request: Request): Promise<VerifiedToken> {
  const claims = await verifyUserToken(ctx, bearerToken(request));
  if (!claims) throw invalidToken();
  return claims;
}

/** The verified developer token of a request, or throws 401 invalid_token. */
export async function authenticateDev(ctx: MockContext, request: Request): Promise<VerifiedToken> {
  const keys = await ctx.ready();
  const claims = await verifyToken(keys, bearerToken(request), ctx.baseUrl, ctx.now());
  if (claims?.token_use !== "dev_user" || !ctx.state.devUsers.has(claims.sub)) throw invalidToken();
  return claims;
}
