import { AsyncLocalStorage } from "node:async_hooks";
import { CALLER_ASSERTION_TYPE, callerAssertionPayload } from "@slotgate/chain-service";
import type { KeyStore } from "../../oauth/keys/key-store.js";

/**
 * Signs a caller assertion (docs/decisions/chain-link.md): the front service's word, for one chain-service
 * call (`purpose`, a method name), that it verified `userUuid`. Short-lived (60 s) and single-use.
 */
export type CallerAssertions = (userUuid: number, purpose: string) => string;

/**
 * The caller assertions of this front service, signed with its active ES256 key: the chain service
 * verifies them with the published JWKS (in process: the key store's; a separate chain-service process:
 * `CHAIN_CALLER_JWKS_URL`).
 *
 * @example
 * ```ts
 * const assert = callerAssertions(keys);
 * await chain.recover({ user_uuid: 7, pin_hash, pin_salt, assertion: assert(7, "recover") });
 * ```
 */
export function callerAssertions(keys: KeyStore): CallerAssertions {
  return (userUuid, purpose) => keys.sign({ alg: "ES256", kid: keys.activeKid, typ: CALLER_ASSERTION_TYPE }, callerAssertionPayload(userUuid, purpose));
}

const verified = new AsyncLocalStorage<number>();

/**
 * Runs `fn` (a chain route's work) on behalf of the user whose bearer token the route verified: calls
 * made for that user to a chain service in another process carry a caller assertion naming them, and
 * no other user.
 *
 * @example
 * ```ts
 * await runAsVerifiedUser(Number(claims.sub), () => chain.verifyPin(body));
 * ```
 */
export function runAsVerifiedUser<T>(userUuid: number, fn: () => T): T {
  return verified.run(userUuid, fn);
}

/** The user the current chain route verified, or undefined (a client's or the platform's call). */
export function verifiedUser(): number | undefined {
  return verified.getStore();
}
