import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import type { JWK } from "jose";

/** Signs compact JWS (ES256) synchronously. */
export type JwtSigner = (header: Record<string, unknown>, payload: Record<string, unknown>) => string;

/**
 * An ES256 compact-JWS signer over node:crypto (OpenSSL, synchronous). The token endpoint signs
 * one JWT per request; node:crypto's P-256 signing is several times cheaper than a WebCrypto
 * round trip through the thread pool. Tokens are ordinary JWS: jose verifies them (tests do).
 *
 * @example
 * ```ts
 * const signJwt = createEs256Signer(privateJwk);
 * const token = signJwt({ alg: "ES256", kid }, { sub: "1" });
 * ```
 */
export function createEs256Signer(privateJwk: JWK): JwtSigner {
  const key: KeyObject = createPrivateKey({ key: privateJwk as never, format: "jwk" });
  return (header, payload) => {
    const input = `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
    const signature = sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" });
    return `${input}.${signature.toString("base64url")}`;
  };
}
