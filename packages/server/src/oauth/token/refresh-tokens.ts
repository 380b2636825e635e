import { createHmac, randomBytes } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { newJti } from "../keys/tokens.js";
import { endFamily, insertFamily, isUnusedRefreshToken, lockRefreshToken, rotateRefreshToken } from "./refresh-tokens-store.js";
import { hashCode } from "./authorization-code.js";

const PREFIX = "sgr_";

/** What a refresh yields. */
export interface RefreshResult {
  userId: string;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
}

/** Why a family ends; stored with it. */
export type FamilyEndReason = "logout" | "revoked_by_holder" | "refresh_token_reused" | "code_replayed";

/**
 * The successor of a refresh token: HMAC-SHA256 of the presented token under a key derived from
 * `CLIENT_SECRET_PEPPER`. Deterministic, so a concurrent refresh within the grace window is answered
 * with the same successor (the family stays one chain) without storing any token in clear.
 */
function successorOf(services: Services, token: string): string {
  const key = createHmac("sha256", services.config.clientSecretPepper ?? "")
    .update("slotgate.refresh-token-successor")
    .digest();
  return PREFIX + createHmac("sha256", key).update(token).digest("base64url");
}

/**
 * Starts a refresh-token family for a code exchange. The family id is the `sid` of every access
 * token of this sign-in; `firstJti` is the access token the exchange issued (a replayed code ends the family).
 */
export async function startRefreshFamily(services: Services, args: { familyId: string; clientId: string; userId: string; firstJti: string }): Promise<string> {
  const token = PREFIX + randomBytes(32).toString("base64url");
  await insertFamily(services.db, {
    ...args,
    tokenHash: hashCode(token),
    tokenLifetimeSeconds: LIMITS.refreshTokenLifetimeSeconds,
    familyLifetimeSeconds: LIMITS.refreshFamilyLifetimeSeconds,
  });
  return token;
}

/**
 * Ends a family: its refresh tokens stop working. With `revokeAccessTokens`, every access token of
 * the family (`sid`) is refused from now on, on every instance (the revocation list).
 */
export async function endRefreshFamily(services: Services, familyId: string, reason: FamilyEndReason, revokeAccessTokens: boolean): Promise<void> {
  await endFamily(services.db, familyId, reason);
  if (revokeAccessTokens) {
    const lastAccessTokenExpiry = new Date(Date.now() + (LIMITS.accessTokenLifetimeSeconds + LIMITS.clockSkewSeconds) * 1000);
    await services.revocations.revoke(familyId, lastAccessTokenExpiry, reason);
  }
}

/**
 * `grant_type=refresh_token` (RFC 6749 section 6) with rotation (RFC 9700 section 4.14.2): an unused
 * token is exchanged for a new access token and its successor; a token used again within
 * {@link LIMITS.refreshReuseGraceSeconds} (a concurrent refresh) gets the same successor while that is
 * unused; any other reuse ends the family and revokes its access tokens. Every failure is invalid_grant.
 */
export async function redeemRefreshToken(services: Services, args: { refreshToken: string; clientId: string }): Promise<RefreshResult> {
  const tokenHash = hashCode(args.refreshToken);
  const successor = successorOf(services, args.refreshToken);
  const successorHash = hashCode(successor);
  const outcome = await services.db.transaction(async (tx) => {
    const row = await lockRefreshToken(tx, tokenHash);
    if (!row || row.client_id !== args.clientId || row.ended || row.expired) return { kind: "invalid" as const };
    if (row.used_at === null) {
      await rotateRefreshToken(tx, { tokenHash, successorHash, familyId: row.family_id, lifetimeSeconds: LIMITS.refreshTokenLifetimeSeconds });
      return { kind: "ok" as const, row };
    }
    const inGrace = (row.used_seconds_ago ?? Number.POSITIVE_INFINITY) <= LIMITS.refreshReuseGraceSeconds;
    if (inGrace && (await isUnusedRefreshToken(tx, successorHash))) return { kind: "ok" as const, row };
    return { kind: "reused" as const, row };
  });
  if (outcome.kind === "invalid")
    throw new SlotgateServerError("invalid_grant", { message: "The refresh token is unknown, expired, revoked, or was issued to another client." });
  if (outcome.kind === "reused") {
    await endRefreshFamily(services, outcome.row.family_id, "refresh_token_reused", true);
    services.log.warn("refresh token reused; its family was ended and its access tokens revoked", { client_id: args.clientId });
    throw new SlotgateServerError("invalid_grant", { message: "The refresh token was already used; the session was ended. Sign the user in again." });
  }
  const jti = newJti();
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + LIMITS.accessTokenLifetimeSeconds) * 1000);
  const accessToken = await services.tokens.signAccessToken(outcome.row.user_id, args.clientId, jti, expiresAt, outcome.row.family_id);
  return { userId: outcome.row.user_id, accessToken, expiresIn: LIMITS.accessTokenLifetimeSeconds, refreshToken: successor };
}
