import { LIMITS, PATHS } from "@slotgate/protocol";
import { type JWTPayload, createRemoteJWKSet, customFetch, errors, jwtVerify } from "jose";
import { SlotgateBackendError } from "../errors.js";
import type { FetchLike } from "../options.js";

/** Options of {@link SlotgateBackend.verifyAgentToken}. */
export interface VerifyAgentTokenOptions {
  /**
   * Audience the token must carry.
   * @default the backend's clientId
   */
  audience?: string;
  /**
   * Signature algorithms accepted (asymmetric only: the keys are published).
   * @default ["ES256", "EdDSA", "RS256", "PS256"]
   */
  algorithms?: string[];
  /** Claims that must be present, beyond `iss`, `aud`, `exp` and `sub`. */
  requiredClaims?: string[];
}

/** The verified claims of a delegation token. */
export interface AgentTokenClaims extends JWTPayload {
  iss: string;
  sub: string;
  exp: number;
}

/** What verification needs from the backend. */
export interface AgentKeysContext {
  authServerUrl: string;
  clientId: string;
  fetch: FetchLike;
}

const DEFAULT_ALGORITHMS = ["ES256", "EdDSA", "RS256", "PS256"];

/** Creates the delegation server's key set: `{authServerUrl}/.well-known/jwks.json`, cached and refreshed by jose. */
export function createAgentKeySet(ctx: AgentKeysContext): ReturnType<typeof createRemoteJWKSet> {
  return createRemoteJWKSet(new URL(`${ctx.authServerUrl}${PATHS.jwks}`), {
    [customFetch]: (url, init) => ctx.fetch(url, init as RequestInit),
  });
}

/** Verifies a delegation token against the published keys; see {@link SlotgateBackend.verifyAgentToken}. */
export async function verifyAgentToken(
  ctx: AgentKeysContext,
  keys: ReturnType<typeof createRemoteJWKSet>,
  token: unknown,
  options: VerifyAgentTokenOptions = {},
): Promise<AgentTokenClaims> {
  if (typeof token !== "string" || token.trim() === "") throw new SlotgateBackendError("missing_token");
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: ctx.authServerUrl,
      audience: options.audience ?? ctx.clientId,
      algorithms: options.algorithms ?? DEFAULT_ALGORITHMS,
      clockTolerance: LIMITS.clockSkewSeconds,
      requiredClaims: ["iss", "aud", "exp", "sub", ...(options.requiredClaims ?? [])],
    });
    return payload as AgentTokenClaims;
  } catch (cause) {
    if (cause instanceof errors.JWTExpired) throw new SlotgateBackendError("expired_token", { cause });
    if (cause instanceof errors.JWKSTimeout || cause instanceof errors.JWKSInvalid) {
      throw new SlotgateBackendError("keys_unavailable", { cause });
    }
    if (cause instanceof errors.JOSEError && !(cause instanceof errors.JWKSNoMatchingKey) && cause.code === "ERR_JOSE_GENERIC") {
      throw new SlotgateBackendError("keys_unavailable", { cause });
    }
    if (cause instanceof errors.JOSEError) {
      throw new SlotgateBackendError("invalid_agent_token", { detail: cause.code, cause });
    }
    // Not a JOSE error: the key set could not be fetched (network failure, non-200 answer).
    throw new SlotgateBackendError("keys_unavailable", { cause });
  }
}
