import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import type { JWK } from "jose";

/** Signs compact JWS (ES256) synchronously. */
export type JwtSigner = (header: Record<string, unknown>, payload: Record<string, unknown>) => string;

/** Bytes of each of r and s in a P-256 signature. */
const P256_FIELD_BYTES = 32;

function notDer(): Error {
  return new Error("not a DER ECDSA P-256 signature");
}

/**
 * Turns a DER ECDSA signature (`SEQUENCE { r INTEGER, s INTEGER }`, what OpenSSL produces) into the
 * JWS form of RFC 7518 section 3.4: r then s, each left-padded to 32 bytes. Node's own
 * `dsaEncoding: "ieee-p1363"` does the same, but on Node 24 (OpenSSL 3.5) it doubles the cost of a
 * signature (33.7 against 16.8 µs on this machine; docs/benchmarks.md), so the signer asks for DER.
 *
 * @example
 * ```ts
 * const jws = derToP1363(sign("sha256", data, key)); // 64 bytes
 * ```
 */
export function derToP1363(der: Uint8Array): Buffer {
  // A P-256 signature is at most 72 bytes, so every DER length here is one byte (short form).
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) throw notDer();
  const out = Buffer.alloc(2 * P256_FIELD_BYTES);
  let offset = 2;
  for (let i = 0; i < 2; i++) {
    const length = der[offset + 1]!;
    if (der[offset] !== 0x02 || length === 0 || offset + 2 + length > der.length) throw notDer();
    let start = offset + 2;
    let bytes = length;
    while (bytes > P256_FIELD_BYTES && der[start] === 0) {
      start++;
      bytes--;
    }
    if (bytes > P256_FIELD_BYTES) throw notDer();
    out.set(der.subarray(start, start + bytes), (i + 1) * P256_FIELD_BYTES - bytes);
    offset = start + bytes;
  }
  if (offset !== der.length) throw notDer();
  return out;
}

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
    const signature = derToP1363(sign("sha256", Buffer.from(input), key));
    return `${input}.${signature.toString("base64url")}`;
  };
}
