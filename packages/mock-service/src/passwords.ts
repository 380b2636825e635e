import { base64url, randomBase64url } from "./random.js";

/** A salted PBKDF2-SHA-256 password hash (the simulated service never keeps a plaintext password). */
export interface PasswordHash {
  salt: string;
  hash: string;
}

const ITERATIONS = 10_000;

async function derive(password: string, salt: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await globalThis.crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: new TextEncoder().encode(salt), iterations: ITERATIONS },
    key,
    256,
  );
  return base64url(new Uint8Array(bits));
}

/** Hashes a password with a fresh salt. */
export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBase64url(16);
  return { salt, hash: await derive(password, salt) };
}

/** Checks a password against a stored hash. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  return (await derive(password, stored.salt)) === stored.hash;
}
