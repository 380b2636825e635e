import { readFileSync } from "node:fs";

/** Environment variables as given to the process. */
export type Env = Record<string, string | undefined>;

/**
 * A configuration value was invalid; the message names the variable and never echoes its value (it
 * may be a key, a secret or a URL with credentials).
 *
 * @example
 * ```ts
 * try { loadConfig({ PORT: "x" }); } catch (e) { if (e instanceof ConfigError) console.error(e.variable); } // "PORT"
 * ```
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
  }
}

/** The trimmed value of `name`, or undefined when unset or empty. */
export function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** An integer in [min, max]; `fallback` when unset. */
export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(name, `must be an integer between ${min} and ${max}, got a non-integer value`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A non-negative integer of any size in decimal (wei amounts), or undefined when unset. */
export function bigUint(env: Env, name: string): bigint | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  if (!/^(0|[1-9][0-9]{0,77})$/.test(raw)) throw new ConfigError(name, "must be a non-negative integer in decimal (wei)");
  return BigInt(raw);
}

/** on/off, true/false, yes/no or 1/0; `fallback` when unset. */
export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (["1", "true", "on", "yes"].includes(raw)) return true;
  if (["0", "false", "off", "no"].includes(raw)) return false;
  throw new ConfigError(name, "must be on/off, true/false or 1/0");
}

/** An absolute URL with one of `protocols` (e.g. `["https:"]`), or null when unset. */
export function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = optional(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, "must be an absolute URL");
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(" or ")}`);
  return raw;
}

/** A secret of at least 32 characters, or null when unset. */
export function secret(env: Env, name: string): string | null {
  const raw = optional(env, name);
  if (raw === undefined) return null;
  if (raw.length < 32) throw new ConfigError(name, "must be at least 32 characters");
  return raw;
}

/** A host name or IP address; `fallback` when unset. */
export function host(env: Env, name: string, fallback: string): string {
  const value = optional(env, name) ?? fallback;
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(value)) throw new ConfigError(name, "must be a host name or IP address");
  return value;
}

/**
 * The contents of a PEM file whose path is in `name` (certificates, keys), or null when unset. A path that
 * cannot be read, or a file without a PEM block, throws {@link ConfigError} naming the variable.
 */
export function pemFile(env: Env, name: string): Buffer | null {
  const path = optional(env, name);
  if (path === undefined) return null;
  let contents: Buffer;
  try {
    contents = readFileSync(path);
  } catch {
    throw new ConfigError(name, "must be the path of a readable PEM file");
  }
  if (!contents.includes("-----BEGIN ")) throw new ConfigError(name, "must be the path of a PEM file (no -----BEGIN block found)");
  return contents;
}

/** True for a loopback host: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(value: string): boolean {
  const bare = value.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.[0-9]{1,3}){3}$/.test(bare);
}
