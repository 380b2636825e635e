import { SealedValueError, deriveSealingKey, openSealed, sealValue } from "@slotgate/storage";

/** Sealed outbox parameters could not be opened: another key, or a value that was altered. */
export class SealOpenError extends SealedValueError {
  constructor() {
    super("sealed outbox parameters cannot be opened (another server key, or altered)");
    this.name = "SealOpenError";
  }
}

/**
 * Seals the secret query parameters of an outbox message (the one-time code of a backend callback)
 * for storage with `@slotgate/storage`'s `sealValue` (AES-256-GCM) under a key derived with HKDF-SHA256
 * from the server's `CLIENT_SECRET_PEPPER`, bound (as additional data) to the message's stored target
 * URL so a sealed value cannot be moved to another row. The database then holds
 * `v1.<base64url(iv | ciphertext | tag)>`, never the code (docs/decisions/oauth-trust-boundaries.md).
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
    this.#key = deriveSealingKey(secret, "slotgate.outbox-seal.v1");
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
    return sealValue(this.#key, JSON.stringify(params), targetUrl);
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
    try {
      const parsed = JSON.parse(openSealed(this.#key, sealed, targetUrl).toString("utf8")) as unknown;
      if (!parsed || typeof parsed !== "object" || Object.values(parsed).some((v) => typeof v !== "string")) throw new SealOpenError();
      return parsed as Record<string, string>;
    } catch {
      throw new SealOpenError();
    }
  }
}
