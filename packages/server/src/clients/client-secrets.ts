import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Client secrets: 256 random bits (43 base64url characters) shown once; stored as
 * HMAC-SHA256 under a server-side pepper. A keyed fast hash (not a password KDF) is right here:
 * the secret already has full entropy, and a slow KDF would cap the token endpoint.
 */
export class ClientSecrets {
  constructor(private readonly pepper: string) {}

  /** A new client secret. */
  generate(): string {
    return randomBytes(32).toString("base64url");
  }

  /** The stored form of a secret. */
  hash(secret: string): string {
    return createHmac("sha256", this.pepper).update(secret).digest("base64url");
  }

  /** Constant-time comparison of a presented secret with a stored hash. */
  verify(secret: string, storedHash: string): boolean {
    const a = Buffer.from(this.hash(secret));
    const b = Buffer.from(storedHash);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/** A new client id: `sg_` + 24 hex characters. */
export function newClientId(): string {
  return `sg_${randomBytes(12).toString("hex")}`;
}
