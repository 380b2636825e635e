import { resolve } from "node:path";
import { ChainConfigProblem, type ChainSettings, chainSettingsFromEnv } from "../chain/chain-config.js";

/** Validated server configuration. Every field comes from one environment variable (see the README). */
export interface ServerConfig {
  /** `PORT`. @default 8080 */
  port: number;
  /** `HOST`: interface to listen on; set `0.0.0.0` in a container. @default "127.0.0.1" */
  host: string;
  /** `PUBLIC_URL`: base URL clients use (the token issuer), no trailing slash. @default `http://{HOST}:{PORT}` */
  publicUrl: string | null;
  /** `DATABASE_URL`: PostgreSQL connection string. When unset the embedded database (PGlite) is used. @default null */
  databaseUrl: string | null;
  /** `DATABASE_POOL_SIZE`: PostgreSQL connections per instance. @default 20 */
  databasePoolSize: number;
  /** `SLOTGATE_DATA_DIR`: where the embedded database and generated keys live. @default ".slotgate-data" */
  dataDir: string;
  /** `SIGNING_KEYS`: JSON array of private EC P-256 JWKs with `kid`; the last is the active key. @default generated in the data dir */
  signingKeys: SigningKeyInput[] | null;
  /** `CLIENT_SECRET_PEPPER`: HMAC key for client-secret hashes (>= 32 chars). @default generated in the data dir */
  clientSecretPepper: string | null;
  /** `MARKETPLACE_URL`: where login-status webhooks are POSTed. @default null (messages wait in the outbox) */
  marketplaceUrl: string | null;
  /** `MARKETPLACE_SECRET`: HMAC key of the webhooks and bearer key of the listing check (>= 32 chars). @default null */
  marketplaceSecret: string | null;
  /** `RATE_LIMIT` (`on`/`off`) and `RATE_LIMIT_*_PER_MINUTE`. */
  rateLimit: RateLimitConfig;
  /** `TRUST_PROXY`: number of proxy hops to trust for the client IP. @default 0 */
  trustProxy: number;
  /** `SLOTGATE_SEED_DEMO`: seed a demo developer and client at start. @default true on the embedded database, else false */
  seedDemo: boolean;
  /** `LOG_LEVEL`: `debug`, `info`, `warn`, `error` or `silent`. @default "info" */
  logLevel: LogLevel;
  /** `OUTBOX_POLL_MS`: how often the outbox worker looks for due messages. @default 1000 */
  outboxPollMs: number;
  /** `MARKETPLACE_RETRY_BASE_MS`: first webhook retry delay; attempt n waits base × 2^(n-1), at most 1 h. @default 2000 */
  marketplaceRetryBaseMs: number;
  /** `REVOCATION_POLL_MS`: how often revocations by other instances are loaded. @default 1000 */
  revocationPollMs: number;
  /** `CHAIN`, `CHAIN_SERVICE_URL` and the chain service's variables (`RPC_URL`, `CHAIN_KEK`, …). @default in-process chain */
  chain: ChainSettings;
}

/** A signing key given in configuration. */
export interface SigningKeyInput {
  kid: string;
  kty: string;
  crv?: string;
  d?: string;
  x?: string;
  y?: string;
}

/** Per-IP request budgets. */
export interface RateLimitConfig {
  enabled: boolean;
  /** `RATE_LIMIT_SIGN_IN_PER_MINUTE` (developer login/sign-up and authorize form posts, per IP). @default 60 */
  signInPerMinute: number;
  /** `RATE_LIMIT_TOKEN_PER_MINUTE` (`/oauth/token`, `get_token`, per IP). @default 6000 */
  tokenPerMinute: number;
  /** `RATE_LIMIT_STATUS_PER_MINUTE` (status endpoints, per IP). @default 6000 */
  statusPerMinute: number;
}

/** Log levels, most verbose first. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/**
 * A configuration value was invalid; the message names the variable.
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

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(name, `must be an integer between ${min} and ${max}, got a non-integer value`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "on", "yes"].includes(raw)) return true;
  if (["0", "false", "off", "no"].includes(raw)) return false;
  throw new ConfigError(name, "must be on/off, true/false or 1/0");
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, "must be an absolute URL");
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(" or ")}`);
  return raw;
}

function secret(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  if (raw.length < 32) throw new ConfigError(name, "must be at least 32 characters");
  return raw;
}

function signingKeys(env: Env): SigningKeyInput[] | null {
  const raw = env["SIGNING_KEYS"];
  if (raw === undefined || raw === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("SIGNING_KEYS", "must be a JSON array of private JWKs");
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new ConfigError("SIGNING_KEYS", "must be a non-empty JSON array of private JWKs");
  for (const k of parsed) {
    if (!k || typeof k !== "object" || k.kty !== "EC" || k.crv !== "P-256" || typeof k.d !== "string" || typeof k.kid !== "string" || !k.kid) {
      throw new ConfigError("SIGNING_KEYS", "entries must be private EC P-256 JWKs (kty EC, crv P-256, d) with a kid");
    }
  }
  return parsed as SigningKeyInput[];
}

/**
 * Reads and validates the configuration once. Throws {@link ConfigError} naming the bad variable.
 *
 * @example
 * ```ts
 * const config = loadConfig(process.env);
 * console.log(config.port); // 8080 unless PORT is set
 * ```
 */
export function loadConfig(env: Env = process.env): ServerConfig {
  const host = env["HOST"] || "127.0.0.1";
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) throw new ConfigError("HOST", "must be a host name or IP address");
  const publicUrl = url(env, "PUBLIC_URL", ["http:", "https:"]);
  const databaseUrl = url(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const logLevel = (env["LOG_LEVEL"] || "info") as LogLevel;
  if (!["debug", "info", "warn", "error", "silent"].includes(logLevel)) throw new ConfigError("LOG_LEVEL", "must be debug, info, warn, error or silent");
  const marketplaceSecret = secret(env, "MARKETPLACE_SECRET");
  const marketplaceUrl = url(env, "MARKETPLACE_URL", ["http:", "https:"]);
  if (marketplaceUrl && !marketplaceSecret) throw new ConfigError("MARKETPLACE_SECRET", "is required when MARKETPLACE_URL is set (webhooks are signed)");
  let chain: ChainSettings;
  try {
    chain = chainSettingsFromEnv(env);
  } catch (error) {
    if (error instanceof ChainConfigProblem) throw new ConfigError(error.variable, error.problem);
    throw error;
  }
  return {
    port: int(env, "PORT", 8080, 0, 65535),
    host,
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, "") : null,
    databaseUrl,
    databasePoolSize: int(env, "DATABASE_POOL_SIZE", 20, 1, 1000),
    dataDir: resolve(env["SLOTGATE_DATA_DIR"] || ".slotgate-data"),
    signingKeys: signingKeys(env),
    clientSecretPepper: secret(env, "CLIENT_SECRET_PEPPER"),
    marketplaceUrl,
    marketplaceSecret,
    rateLimit: {
      enabled: bool(env, "RATE_LIMIT", true),
      signInPerMinute: int(env, "RATE_LIMIT_SIGN_IN_PER_MINUTE", 60, 1, 1_000_000),
      tokenPerMinute: int(env, "RATE_LIMIT_TOKEN_PER_MINUTE", 6000, 1, 100_000_000),
      statusPerMinute: int(env, "RATE_LIMIT_STATUS_PER_MINUTE", 6000, 1, 100_000_000),
    },
    trustProxy: int(env, "TRUST_PROXY", 0, 0, 10),
    seedDemo: bool(env, "SLOTGATE_SEED_DEMO", !databaseUrl),
    logLevel,
    outboxPollMs: int(env, "OUTBOX_POLL_MS", 1000, 10, 600_000),
    marketplaceRetryBaseMs: int(env, "MARKETPLACE_RETRY_BASE_MS", 2000, 10, 3_600_000),
    revocationPollMs: int(env, "REVOCATION_POLL_MS", 1000, 10, 600_000),
    chain,
  };
}
