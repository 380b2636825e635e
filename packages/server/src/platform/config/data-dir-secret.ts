import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A development-default secret kept in the data directory (mode 0600): read when the file exists,
 * else made with `create` and written once. Production sets the secret in the environment instead.
 *
 * @param dataDir - the data directory
 * @param file - the file's name in it
 * @param create - makes a new secret
 * @returns the secret and whether it was made now
 *
 * @example
 * ```ts
 * const { value } = loadOrCreateSecret(".slotgate-data", "chain-kek", () => randomBytes(32).toString("hex"));
 * ```
 */
export function loadOrCreateSecret(dataDir: string, file: string, create: () => string): { value: string; generated: boolean } {
  const path = join(dataDir, file);
  if (existsSync(path)) return { value: readFileSync(path, "utf8").trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const value = create();
  writeFileSync(path, value, { mode: 0o600 });
  return { value, generated: true };
}
