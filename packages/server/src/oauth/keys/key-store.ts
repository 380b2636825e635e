import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEs256Signer, type JwtSigner } from "./tokens.js";
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";

/** Signing keys: the active one signs, all of them verify and are published in the JWKS. */
export interface KeyStore {
  /** `kid` of the key new tokens are signed with (the newest). */
  readonly activeKid: string;
  /** Synchronous ES256 signer with the active key. */
  readonly sign: JwtSigner;
  /** Public key for a `kid`, or undefined when unknown. */
  publicKey(kid: string): CryptoKey | undefined;
  /** The JWKS document (public parts only, oldest first). */
  jwks(): { keys: JWK[] };
}

/** A stored private JWK. */
export type PrivateJwk = JWK & { kid: string };

/**
 * Generates a new ES256 (P-256) private JWK whose `kid` is its RFC 7638 thumbprint.
 *
 * @example
 * ```ts
 * const jwk = await generateSigningKey();
 * console.log(jwk.kid);
 * ```
 */
export async function generateSigningKey(): Promise<PrivateJwk> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! });
  return { ...jwk, kid, alg: "ES256", use: "sig" };
}

/**
 * Builds a key store from private JWKs; the last one is active. Tokens signed by earlier keys
 * keep verifying for as long as those keys stay in the list (rotation).
 *
 * @example
 * ```ts
 * const keys = await createKeyStore([await generateSigningKey()]);
 * keys.jwks(); // { keys: [{ kty: "EC", kid: "…", … }] }
 * ```
 */
export async function createKeyStore(privateJwks: readonly PrivateJwk[]): Promise<KeyStore> {
  if (privateJwks.length === 0) throw new Error("at least one signing key is needed");
  const publicKeys = new Map<string, CryptoKey>();
  const published: JWK[] = [];
  for (const jwk of privateJwks) {
    const pub: JWK = { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y!, kid: jwk.kid, alg: "ES256", use: "sig" };
    publicKeys.set(jwk.kid, (await importJWK(pub, "ES256")) as CryptoKey);
    published.push(pub);
  }
  const active = privateJwks[privateJwks.length - 1]!;
  return {
    activeKid: active.kid,
    sign: createEs256Signer(active),
    publicKey: (kid) => publicKeys.get(kid),
    jwks: () => ({ keys: published.map((k) => ({ ...k })) }),
  };
}

/** Path of the generated development keys inside the data directory. */
function keyFilePath(dataDir: string): string {
  return join(dataDir, "signing-keys.json");
}

/**
 * Reads the development keys from the data directory, generating a first key when none exist.
 * Returns the keys and whether one was generated now.
 */
export async function loadOrCreateKeyFile(dataDir: string): Promise<{ keys: PrivateJwk[]; generated: boolean }> {
  const file = keyFilePath(dataDir);
  if (existsSync(file)) {
    const keys = JSON.parse(readFileSync(file, "utf8")) as PrivateJwk[];
    return { keys, generated: false };
  }
  const keys = [await generateSigningKey()];
  writeKeyFile(dataDir, keys);
  return { keys, generated: true };
}

/**
 * Adds a new active key to the data directory's key file, keeping the `keep - 1` previous keys
 * published so tokens they signed keep verifying. Returns the new kid.
 */
export async function rotateKeyFile(dataDir: string, keep = 3): Promise<string> {
  const { keys } = await loadOrCreateKeyFile(dataDir);
  const next = await generateSigningKey();
  writeKeyFile(dataDir, [...keys, next].slice(-Math.max(2, keep)));
  return next.kid;
}

function writeKeyFile(dataDir: string, keys: PrivateJwk[]): void {
  mkdirSync(dataDir, { recursive: true });
  const file = keyFilePath(dataDir);
  writeFileSync(`${file}.tmp`, JSON.stringify(keys, null, 2), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
