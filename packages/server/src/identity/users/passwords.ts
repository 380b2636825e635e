import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";

/** scrypt cost parameters; stored inside each hash so they can be raised later. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** Default cost: N=2^15, r=8, p=1 (OWASP's scrypt recommendation; ~32 MiB, tens of ms). */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize("NFC"), salt, 32, { ...params, maxmem: 256 * params.N * params.r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * Hashes a password with scrypt (node:crypto) into `scrypt$N$r$p$salt$hash`.
 *
 * @example
 * ```ts
 * const stored = await hashPassword("correct horse battery");
 * await verifyPassword("correct horse battery", stored); // true
 * ```
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const dummies = new Map<string, Promise<string>>();

/** A hash of a random password with the given cost, to spend the same time when an account does not exist. */
export function dummyPasswordHash(params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const key = `${params.N}/${params.r}/${params.p}`;
  let hash = dummies.get(key);
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString("hex"), params);
    dummies.set(key, hash);
  }
  return hash;
}
