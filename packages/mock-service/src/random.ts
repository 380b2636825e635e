/** Random identifiers from the platform's Web Crypto (Node 20+ and browsers). */

function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

/** `n` random bytes as lowercase hex. */
export function randomHex(n: number): string {
  return Array.from(randomBytes(n), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Base64url (no padding) of raw bytes. */
export function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `n` random bytes as base64url (no padding). */
export function randomBase64url(n: number): string {
  return base64url(randomBytes(n));
}

/** A random 0x-prefixed 20-byte address. */
export function randomAddress(): string {
  return `0x${randomHex(20)}`;
}

/** A random 0x-prefixed 32-byte transaction hash. */
export function randomTxHash(): string {
  return `0x${randomHex(32)}`;
}

/** SHA-256 of a UTF-8 string, as base64url (used for PKCE S256). */
export async function sha256Base64url(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return base64url(new Uint8Array(digest));
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
