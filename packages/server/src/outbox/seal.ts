import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Sealed outbox parameters could not be opened: another key, or a value that was altered. */
export class SealOpenError extends Error {
  constructor() {
    super("sealed outbox parameters cannot be opened (another server key, or altered)");
    this.name = "SealOpenError";
  }
}

/**
 * Seals the secret query parameters of an outbox message (the one-time code of a backend callback)
 * for storage: AES-256-GCM under a key derived with HKDF-SHA256 from the server's
 * `CLIENT_SECRET_PEPPER`, bound (as additional data) to the message's stored target URL so a
 * sealed value cannot be moved to another row. The database then holds `v1.<base64url(iv | ciphertext | tag)>`,
 * never the code (docs/decisions/oauth-trust-boundaries.md).
 *
 * @example
 * ```ts
 * const seal = new OutboxSeal(config.clientSecretPepper);
 * const sealed = seal.seal({ code }, targetUrl);
 * seal.open(sealed, targetUrl); // { code }
 * ```
 */
export class OutboxSeal {
  readonly #key: Buffer;

  /** @param secret - the server secret the key is derived from (`CLIENT_SECRET_PEPPER`) */
  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "slotgate.outbox-seal.v1", 32));
  }

  /**
   * Encrypts `params` for the row whose target URL is `targetUrl`.
   *
   * @example
   * ```ts
   * const sealed = seal.seal({ code: "c0de" }, "https://backend.example/cb?state=s&success=1");
   * ```
   */
  seal(params: Record<string, string>, targetUrl: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(targetUrl, "utf8"));
    const body = Buffer.concat([cipher.update(JSON.stringify(params), "utf8"), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")}`;
  }

  /**
   * Decrypts what {@link OutboxSeal.seal} made for the same target URL; throws {@link SealOpenError}
   * when the key, the URL or the value differ.
   *
   * @example
   * ```ts
   * const { code } = seal.open(row.sealed_query, row.target_url);
   * ```
   */
  open(sealed: string, targetUrl: string): Record<string, string> {
    const [version, data] = sealed.split(".", 2);
    const raw = version === VERSION && data ? Buffer.from(data, "base64url") : Buffer.alloc(0);
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SealOpenError();
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(targetUrl, "utf8"));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      const parsed = JSON.parse(text) as unknown;
      if (!parsed || typeof parsed !== "object" || Object.values(parsed).some((v) => typeof v !== "string")) throw new SealOpenError();
      return parsed as Record<string, string>;
    } catch {
      throw new SealOpenError();
    }
  }
}
