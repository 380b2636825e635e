import { createHash, timingSafeEqual } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import type { Services } from "../app/services.js";
import type { CodeBatcher } from "./code-batcher.js";
import { hashCode } from "./codes.js";
import { SlotgateServerError } from "../http/errors.js";
import { newJti } from "../keys/tokens.js";
import { type CodeKind, revokeTokensOfUsedCode } from "../storage/codes.js";
import { familyOfFirstJti } from "../storage/refresh-tokens.js";
import { endRefreshFamily, startRefreshFamily } from "./refresh-tokens.js";

/** What a successful exchange yields. */
export interface ExchangeResult {
  userId: string;
  accessToken: string;
  expiresIn: number;
  /** Present when the exchange was asked to start a refresh-token family. */
  refreshToken?: string;
}

function invalidGrant(): SlotgateServerError {
  return new SlotgateServerError("invalid_grant");
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)) === challenge, in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * Redeems an authorization code: single use (the consumption and the record of the issued token
 * are one row update, batched with concurrent redemptions by {@link CodeBatcher}), 60 s lifetime (+30 s skew), bound to client, redirect_uri, kind and PKCE.
 * A replayed code revokes the token issued from it (and ends its refresh-token family) and fails
 * with invalid_grant. With `refresh`, the exchange also starts a refresh-token family.
 */
export async function exchangeCode(
  services: Services,
  args: { kind: CodeKind; code: string; clientId: string; redirectUri: string; codeVerifier?: string | undefined; refresh?: boolean },
): Promise<ExchangeResult> {
  const codeHash = hashCode(args.code);
  const jti = newJti();
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + LIMITS.accessTokenLifetimeSeconds) * 1000);
  const row = await services.codes.consume(codeHash, { jti, expiresAt });
  if (!row) {
    const replayed = await revokeTokensOfUsedCode(services.db, codeHash);
    if (replayed) {
      const family = await familyOfFirstJti(services.db, replayed);
      if (family) await endRefreshFamily(services, family, "code_replayed", true);
      await services.revocations.sync();
      services.log.warn("authorization code replayed; tokens issued from it revoked", { client_id: args.clientId });
    }
    throw invalidGrant();
  }
  const lateBy = (Date.now() - new Date(row.expires_at).getTime()) / 1000;
  if (lateBy > LIMITS.clockSkewSeconds) throw invalidGrant();
  if (row.kind !== args.kind || row.client_id !== args.clientId || row.redirect_uri !== args.redirectUri) throw invalidGrant();
  if (row.code_challenge !== null) {
    if (!args.codeVerifier || !pkceMatches(args.codeVerifier, row.code_challenge)) throw invalidGrant();
  } else if (args.codeVerifier !== undefined) {
    throw invalidGrant();
  }
  if (!args.refresh) {
    const accessToken = await services.tokens.signAccessToken(row.user_id, row.client_id, jti, expiresAt);
    return { userId: row.user_id, accessToken, expiresIn: LIMITS.accessTokenLifetimeSeconds };
  }
  const familyId = newJti();
  const accessToken = await services.tokens.signAccessToken(row.user_id, row.client_id, jti, expiresAt, familyId);
  const refreshToken = await startRefreshFamily(services, { familyId, clientId: row.client_id, userId: row.user_id, firstJti: jti });
  return { userId: row.user_id, accessToken, expiresIn: LIMITS.accessTokenLifetimeSeconds, refreshToken };
}
