// pin_hash as the service expects it (spec 4.10): SHA-256 of the PIN followed by the salt, lowercase hex. The PIN
// itself never leaves the page. Same rule as the server's and chain service's tests (`createHash("sha256").update(pin + salt)`).

const hex = (bytes: ArrayBuffer | Uint8Array): string => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * SHA-256 hex of `pin + salt` (UTF-8).
 *
 * @example
 * ```ts
 * const pin_hash = await pinHash("123456", pin_salt);
 * ```
 */
export async function pinHash(pin: string, salt: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(pin + salt)));
}

/**
 * A fresh pin_salt: 32 random bytes, 64 hex characters.
 *
 * @example
 * ```ts
 * const pin_salt = newPinSalt();
 * ```
 */
export function newPinSalt(): string {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}
