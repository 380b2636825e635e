import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { newJti } from "../keys/tokens.js";
import { familyOfFirstJti } from "./refresh-tokens-store.js";
import { TurnBatcher } from "../../platform/turn-batcher.js";
import { endRefreshFamily, startRefreshFamily } from "./refresh-tokens.js";

/**
 * The authorization code, one artifact in one module: issue, single-use consumption, replay and purge.
 * Only a code's SHA-256 is stored. Every code presented during one event-loop turn is consumed by ONE
 * statement, which in the same statement revokes the token issued from any code of the batch that was
 * already used (a replay): a replayed code goes through the batcher like any other, never around it.
 */

/** Which flow issued an authorization code; a code is only redeemable at its own endpoint. */
export type CodeKind = "oauth" | "meta";

/** A code row as the exchange needs it. */
export interface CodeRow {
  kind: CodeKind;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: Date;
}

/** What a successful exchange yields. */
export interface ExchangeResult {
  userId: string;
  accessToken: string;
  expiresIn: number;
  /** Present when the exchange was asked to start a refresh-token family. */
  refreshToken?: string;
}

/** SHA-256 (base64url) of a single-use bearer secret (authorization, device or refresh code); only this is stored. */
export function hashCode(code: string): string {
  return createHash("sha256").update(code).digest("base64url");
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)) === challenge, in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Creates and stores a new single-use authorization code; returns the code. */
export async function issueCode(
  services: Services,
  kind: CodeKind,
  args: { clientId: string; userId: string; redirectUri: string; codeChallenge: string | null },
): Promise<string> {
  const code = randomBytes(32).toString("base64url");
  await services.db.query(
    `INSERT INTO authorization_codes (code_hash, kind, client_id, user_id, redirect_uri, code_challenge, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
    [hashCode(code), kind, args.clientId, args.userId, args.redirectUri, args.codeChallenge, LIMITS.authorizationCodeLifetimeSeconds],
  );
  return code;
}

interface Redemption {
  codeHash: string;
  jti: string;
  expiresAt: Date;
}

/** One presented code's fate: consumed now (its row), replayed (the jti of the token issued from it, now revoked), or unknown. */
type Redeemed = { consumed: CodeRow & { token_jti: string } } | { replayedJti: string | null };

/**
 * Consumes authorization codes in batches. Each code's consumption and the record of the token issued
 * from it are one row update (atomic per code); codes already used have their token revoked in the same
 * statement (the CTE reads the rows as they were before this statement's update, so a code consumed now is
 * not also taken for a replay). A code presented twice in one batch waits for the next batch, where it is
 * a replay. Under load this turns N round trips and N commits into one.
 *
 * @example
 * ```ts
 * const codes = new AuthorizationCodes(db);
 * const redeemed = await codes.redeem(hashCode(code), { jti, expiresAt });
 * ```
 */
export class AuthorizationCodes {
  readonly #batcher: TurnBatcher<Redemption, Redeemed>;

  constructor(db: Queryable, maxBatch = 256) {
    this.#batcher = new TurnBatcher({ key: (r) => r.codeHash, write: (batch) => redeemBatch(db, batch), maxBatch });
  }

  /** Redeems one code for the token `token`: its row when consumed now, `{ replayedJti }` when it was used before, null when unknown. */
  async redeem(codeHash: string, token: { jti: string; expiresAt: Date }): Promise<Redeemed | null> {
    const redeemed = await this.#batcher.submit({ codeHash, jti: token.jti, expiresAt: token.expiresAt });
    if (!redeemed) return null;
    if ("consumed" in redeemed && redeemed.consumed.token_jti !== token.jti) return { replayedJti: null };
    return redeemed;
  }
}

async function redeemBatch(db: Queryable, items: ReadonlyArray<Redemption>): Promise<Map<string, Redeemed>> {
  const rows = await db.query<CodeRow & { code_hash: string; token_jti: string | null; replayed: boolean }>(
    `WITH v AS (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS v(h, jti, exp)),
     consumed AS (
       UPDATE authorization_codes AS c SET used_at = now(), token_jti = v.jti, token_expires_at = v.exp
       FROM v WHERE c.code_hash = v.h AND c.used_at IS NULL
       RETURNING c.code_hash, c.kind, c.client_id, c.user_id::text, c.redirect_uri, c.code_challenge, c.expires_at, c.token_jti
     ),
     used AS (
       SELECT c.code_hash, c.token_jti, c.token_expires_at FROM authorization_codes AS c JOIN v ON c.code_hash = v.h
       WHERE c.used_at IS NOT NULL
     ),
     revoked AS (
       INSERT INTO revoked_tokens (jti, expires_at, reason)
       SELECT token_jti, token_expires_at, 'code_replayed' FROM used WHERE token_jti IS NOT NULL
       ON CONFLICT (jti) DO NOTHING RETURNING jti
     )
     SELECT code_hash, kind, client_id, user_id, redirect_uri, code_challenge, expires_at, token_jti, false AS replayed FROM consumed
     UNION ALL
     SELECT code_hash, NULL, NULL, NULL, NULL, NULL, NULL, token_jti, true FROM used`,
    [items.map((i) => i.codeHash), items.map((i) => i.jti), items.map((i) => i.expiresAt.toISOString())],
  );
  return new Map(
    rows.map((r): [string, Redeemed] => {
      if (r.replayed) return [r.code_hash, { replayedJti: r.token_jti }];
      const { code_hash: _hash, replayed: _replayed, ...row } = r;
      return [r.code_hash, { consumed: row as CodeRow & { token_jti: string } }];
    }),
  );
}

function invalidGrant(): SlotgateServerError {
  return new SlotgateServerError("invalid_grant");
}

/**
 * Redeems an authorization code: single use (batched with concurrent redemptions by {@link AuthorizationCodes}),
 * 60 s lifetime (+30 s skew), bound to client, redirect_uri, kind and PKCE. A replayed code revokes the token
 * issued from it (and ends its refresh-token family) and fails with invalid_grant. With `refresh`, the exchange
 * also starts a refresh-token family. With `publicClient` (a client without a secret) the code must carry a PKCE
 * challenge, and the exchange yields the player's 7-day user JWT (what the loopback and device logins hand a
 * game), not an access token.
 *
 * @example
 * ```ts
 * const { accessToken } = await exchangeCode(services, { kind: "oauth", code, clientId, redirectUri, codeVerifier });
 * ```
 */
export async function exchangeCode(
  services: Services,
  args: { kind: CodeKind; code: string; clientId: string; redirectUri: string; codeVerifier?: string | undefined; refresh?: boolean; publicClient?: boolean },
): Promise<ExchangeResult> {
  const jti = newJti();
  const lifetime = args.publicClient ? LIMITS.userJwtLifetimeSeconds : LIMITS.accessTokenLifetimeSeconds;
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + lifetime) * 1000);
  const redeemed = await services.codes.redeem(hashCode(args.code), { jti, expiresAt });
  if (!redeemed || !("consumed" in redeemed)) {
    if (redeemed?.replayedJti) await endTokensOfReplayedCode(services, redeemed.replayedJti, args.clientId);
    throw invalidGrant();
  }
  const row = redeemed.consumed;
  const lateBy = (Date.now() - new Date(row.expires_at).getTime()) / 1000;
  if (lateBy > LIMITS.clockSkewSeconds) throw invalidGrant();
  if (row.kind !== args.kind || row.client_id !== args.clientId || row.redirect_uri !== args.redirectUri) throw invalidGrant();
  if (row.code_challenge !== null) {
    if (!args.codeVerifier || !pkceMatches(args.codeVerifier, row.code_challenge)) throw invalidGrant();
  } else if (args.codeVerifier !== undefined || args.publicClient) {
    throw invalidGrant();
  }
  if (args.publicClient) {
    const jwt = await services.tokens.signUserJwt(row.user_id, row.client_id, { jti, expiresAt });
    return { userId: row.user_id, accessToken: jwt.token, expiresIn: lifetime };
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

/** After a replay (the token issued from the code is already revoked by the batch): ends its refresh family and syncs the revocation list. */
async function endTokensOfReplayedCode(services: Services, jti: string, clientId: string): Promise<void> {
  const family = await familyOfFirstJti(services.db, jti);
  if (family) await endRefreshFamily(services, family, "code_replayed", true);
  await services.revocations.sync();
  services.log.warn("authorization code replayed; tokens issued from it revoked", { client_id: clientId });
}

/** Deletes codes that expired more than a day ago. */
export async function purgeExpiredCodes(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM authorization_codes WHERE expires_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
