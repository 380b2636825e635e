import { LIMITS } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { HttpError } from "./http/http-error.js";
import { randomBase64url } from "./random.js";

function newRefreshToken(ctx: MockContext, familyId: string): string {
  const token = `sgr_${randomBase64url(32)}`;
  ctx.state.refreshTokens.set(token, { family_id: familyId, expires_at: ctx.now() + LIMITS.refreshTokenLifetimeSeconds * 1000 });
  return token;
}

/** Starts a refresh-token family for a code exchange whose access token has `jti`; returns the first refresh token. */
export function startFamily(ctx: MockContext, args: { client_id: string; user_id: string; jti: string }): string {
  const familyId = globalThis.crypto.randomUUID();
  ctx.state.refreshFamilies.set(familyId, { family_id: familyId, client_id: args.client_id, user_id: args.user_id, ended: false, access_jtis: [args.jti] });
  ctx.state.familyOfJti.set(args.jti, familyId);
  return newRefreshToken(ctx, familyId);
}

/** Records an access token issued by a refresh as part of its family. */
export function addAccessToken(ctx: MockContext, familyId: string, jti: string): void {
  ctx.state.refreshFamilies.get(familyId)?.access_jtis.push(jti);
  ctx.state.familyOfJti.set(jti, familyId);
}

/** Ends the family of an access token (if it has one); with `revokeAccess`, its access tokens too. */
export function endFamilyOf(ctx: MockContext, jti: string, revokeAccess: boolean): void {
  const familyId = ctx.state.familyOfJti.get(jti);
  const family = familyId ? ctx.state.refreshFamilies.get(familyId) : undefined;
  if (!family) return;
  family.ended = true;
  if (revokeAccess) for (const id of family.access_jtis) ctx.state.revokedJtis.add(id);
}

/**
 * Redeems a refresh token with rotation: an unused one yields its successor; one used again within
 * the grace window, while its successor is unused, yields the same successor; any other reuse ends the
 * family and revokes its access tokens. Everything else is 400 invalid_grant.
 */
export function redeemRefreshToken(ctx: MockContext, token: string, clientId: string): { user_id: string; family_id: string; successor: string } {
  const record = ctx.state.refreshTokens.get(token);
  const family = record ? ctx.state.refreshFamilies.get(record.family_id) : undefined;
  if (!record || !family || family.client_id !== clientId || family.ended || ctx.now() > record.expires_at) {
    throw new HttpError("invalid_grant", { message: "The refresh token is unknown, expired, revoked, or was issued to another client." });
  }
  if (record.used_at === undefined || record.successor === undefined) {
    record.used_at = ctx.now();
    record.successor = newRefreshToken(ctx, family.family_id);
    return { user_id: family.user_id, family_id: family.family_id, successor: record.successor };
  }
  const inGrace = ctx.now() - record.used_at <= LIMITS.refreshReuseGraceSeconds * 1000;
  if (inGrace && ctx.state.refreshTokens.get(record.successor)?.used_at === undefined) {
    return { user_id: family.user_id, family_id: family.family_id, successor: record.successor };
  }
  family.ended = true;
  for (const id of family.access_jtis) ctx.state.revokedJtis.add(id);
  throw new HttpError("invalid_grant", { message: "The refresh token was already used; the session was ended. Sign the user in again." });
}
