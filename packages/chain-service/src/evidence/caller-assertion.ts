import { randomBytes } from "node:crypto";
import { type JSONWebKeySet, type JWTVerifyGetKey, createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify } from "jose";
import type { Queryable } from "@slotgate/storage";
import { ChainServiceError } from "../errors.js";

/**
 * The JOSE `typ` of a caller assertion: a short-lived, single-use JWT the front service signs for one
 * chain-service call, naming the user it verified and the call (docs/decisions/chain-link.md). Access
 * tokens and user JWTs signed by the same keys carry other types and are refused as assertions.
 */
export const CALLER_ASSERTION_TYPE = "slotgate-chain-call+jwt";

/** The `aud` of every caller assertion. */
export const CALLER_ASSERTION_AUDIENCE = "urn:slotgate:chain-service";

/** Longest accepted lifetime of a caller assertion (`exp - iat`), seconds; also the clock tolerance's bound. */
export const CALLER_ASSERTION_MAX_SECONDS = 120;

/**
 * Where the chain service finds the public keys of caller assertions: the front service's JWKS document
 * (`{ keys: [...] }`, public keys only) or its URL (`/.well-known/jwks.json`, fetched and cached, so a
 * key rotation is picked up).
 */
export type CallerKeys = JSONWebKeySet | URL;

/** The claims of a caller assertion. */
export interface CallerAssertionClaims {
  /** The user the front service verified (a bearer token's `sub`, or the mailbox proof's user), in decimal. */
  sub: string;
  /** The chain-service method the assertion is for (`recover`, `verifyPin`, …). */
  purpose: string;
}

/** @internal The key lookup of configured {@link CallerKeys}, or null when none are configured. */
export function callerKeySet(keys: CallerKeys | undefined): JWTVerifyGetKey | null {
  if (keys === undefined) return null;
  return keys instanceof URL ? createRemoteJWKSet(keys, { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 }) : createLocalJWKSet(keys);
}

/**
 * The payload of a new caller assertion for `purpose` (a chain-service method) on behalf of `userUuid`,
 * valid for `seconds` (at most {@link CALLER_ASSERTION_MAX_SECONDS}) with a fresh `jti`. The front
 * service signs it with its ES256 key under the header `{ alg: "ES256", kid, typ: CALLER_ASSERTION_TYPE }`.
 *
 * @example
 * ```ts
 * const assertion = keys.sign({ alg: "ES256", kid: keys.activeKid, typ: CALLER_ASSERTION_TYPE }, callerAssertionPayload(7, "recover"));
 * await chain.recover({ user_uuid: 7, pin_hash, pin_salt, assertion });
 * ```
 */
export function callerAssertionPayload(userUuid: number, purpose: string, seconds = 60, now = Date.now()): Record<string, unknown> {
  const iat = Math.floor(now / 1000);
  return {
    aud: CALLER_ASSERTION_AUDIENCE,
    sub: String(userUuid),
    purpose,
    jti: randomBytes(16).toString("base64url"),
    iat,
    exp: iat + Math.min(seconds, CALLER_ASSERTION_MAX_SECONDS),
  };
}

const refused = (message: string) => new ChainServiceError("invalid_caller_assertion", message);

/**
 * @internal Checks the caller assertion of a call for `purpose` on behalf of `userUuid` and spends it:
 * signed by a configured key (ES256), of type {@link CALLER_ASSERTION_TYPE}, for this audience, not
 * expired, at most {@link CALLER_ASSERTION_MAX_SECONDS} long, naming this user and purpose; its `jti`
 * is recorded so that it is accepted once (`caller_assertion_replayed` after, on every instance sharing
 * the database). Anything else is `invalid_caller_assertion`.
 */
export async function spendCallerAssertion(
  ctx: { callerKeys: JWTVerifyGetKey | null; db: Queryable; now: () => Date },
  assertion: string | null | undefined,
  expected: { purpose: string; userUuid: number },
): Promise<void> {
  if (ctx.callerKeys === null)
    throw refused("This chain service has no caller keys configured (CHAIN_CALLER_JWKS_URL or CHAIN_CALLER_JWKS); it accepts no user call.");
  if (typeof assertion !== "string" || assertion === "") throw refused(`The call ${expected.purpose} needs the front service's caller assertion for the user.`);
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(assertion, ctx.callerKeys, {
      typ: CALLER_ASSERTION_TYPE,
      audience: CALLER_ASSERTION_AUDIENCE,
      algorithms: ["ES256"],
      requiredClaims: ["sub", "purpose", "jti", "iat", "exp"],
      currentDate: ctx.now(),
      clockTolerance: 5,
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw refused("The caller assertion has expired.");
    // The key set's URL did not answer (a fetch error, a timeout, a non-200): not the caller's fault.
    const fetching = !(error instanceof errors.JOSEError) || error.code === "ERR_JWKS_TIMEOUT" || error.code === "ERR_JOSE_GENERIC";
    if (fetching) throw new ChainServiceError("service_unavailable", "The chain service could not fetch the caller keys; retry later.", { cause: error });
    throw refused("The caller assertion is not signed by the front service's keys, or is not a caller assertion.");
  }
  const { sub, purpose, jti, iat, exp } = claims as { sub: unknown; purpose: unknown; jti: unknown; iat: number; exp: number };
  if (exp - iat > CALLER_ASSERTION_MAX_SECONDS) throw refused(`The caller assertion lives longer than ${CALLER_ASSERTION_MAX_SECONDS} seconds.`);
  if (purpose !== expected.purpose) throw refused(`The caller assertion is for ${String(purpose)}, not ${expected.purpose}.`);
  if (sub !== String(expected.userUuid)) throw refused("The caller assertion names another user than the call.");
  if (typeof jti !== "string" || jti.length < 16 || jti.length > 128) throw refused("The caller assertion's jti must be 16 to 128 characters.");
  // One statement: expired jtis are purged as this one is recorded.
  const spent = await ctx.db.query(
    `WITH purged AS (DELETE FROM cs_caller_assertions WHERE expires_at < $5)
     INSERT INTO cs_caller_assertions (jti, user_uuid, purpose, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (jti) DO NOTHING RETURNING jti`,
    [jti, expected.userUuid, expected.purpose, new Date((exp + 5) * 1000), ctx.now()],
  );
  if (spent.length === 0) throw new ChainServiceError("caller_assertion_replayed");
}
