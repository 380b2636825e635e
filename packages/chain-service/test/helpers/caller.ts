import { type CryptoKey, SignJWT, exportJWK, generateKeyPair } from "jose";
import { CALLER_ASSERTION_TYPE, type CallerKeys, callerAssertionPayload } from "../../src/index.js";

/** The front service's signing key as the tests hold it: the private key signs, `keys` is what the chain service trusts. */
export interface TestCaller {
  keys: CallerKeys;
  /** A caller assertion for `purpose` on behalf of `userUuid`; `claims` overrides or adds claims (expired, other audience, …). */
  assert(userUuid: number, purpose: string, claims?: Record<string, unknown>, type?: string): Promise<string>;
}

/** A fresh ES256 caller key. */
export async function testCaller(): Promise<TestCaller> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = "test-caller";
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return {
    keys: { keys: [jwk] },
    assert: (userUuid, purpose, claims = {}, type = CALLER_ASSERTION_TYPE) =>
      sign(privateKey, kid, { ...callerAssertionPayload(userUuid, purpose), ...claims }, type),
  };
}

function sign(key: CryptoKey, kid: string, payload: Record<string, unknown>, typ: string): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid, typ }).sign(key);
}

let shared: Promise<TestCaller> | undefined;

/** The suite's caller key: {@link startService} trusts it unless a test passes `callerKeys`. */
export function sharedCaller(): Promise<TestCaller> {
  shared ??= testCaller();
  return shared;
}
