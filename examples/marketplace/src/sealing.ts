import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Seals and opens small secrets at rest (AES-256-GCM, 12-byte random IV, the context bound as associated data). */
export interface Sealer {
  /** `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
  seal(plaintext: string, context: string): string;
  /** The plaintext; throws when the box was changed, sealed under another key or for another context. */
  open(sealed: string, context: string): string;
}

/** Where the seal key came from: the environment, or a key file in the data dir (generated at first start). */
export type SealKeySource = { kind: "env" } | { kind: "file"; path: string; generated: boolean };

/**
 * An AES-256-GCM sealer under a 32-byte key. The context (e.g. the seller's user id) is authenticated,
 * so a sealed value copied onto another row does not open.
 *
 * @example
 * ```ts
 * const sealer = createSealer(randomBytes(32));
 * const box = sealer.seal(keyShareUser, userId);
 * sealer.open(box, userId) === keyShareUser; // true
 * ```
 */
export function createSealer(key: Uint8Array): Sealer {
  if (key.length !== 32) throw new Error("the seal key must be 32 bytes");
  const k = Buffer.from(key);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", k, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
    },
    open(sealed, context) {
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("not a sealed value (v1.iv.tag.ciphertext)");
      const decipher = createDecipheriv("aes-256-gcm", k, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/**
 * The seal key: `MARKETPLACE_SEAL_KEY` (64 hex) when set, else `seal.key` in the data dir (32 random bytes,
 * hex, created with mode 0600 at first start; a file readable by others is tightened to 0600).
 *
 * @example
 * ```ts
 * const { key, source } = loadSealKey(config.sealKey, config.dataDir);
 * if (source.kind === "file" && source.generated) console.warn(`generated a seal key in ${source.path}`);
 * ```
 */
export function loadSealKey(fromEnv: string | null, dataDir: string): { key: Buffer; source: SealKeySource } {
  if (fromEnv !== null) return { key: Buffer.from(fromEnv, "hex"), source: { kind: "env" } };
  const path = join(dataDir, "seal.key");
  if (existsSync(path)) {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    const hex = readFileSync(path, "utf8").trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${path} is not 64 hex characters; restore it, or remove it together with the sealed credentials`);
    return { key: Buffer.from(hex, "hex"), source: { kind: "file", path, generated: false } };
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  return { key, source: { kind: "file", path, generated: true } };
}
