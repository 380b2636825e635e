import { LIMITS } from "@slotgate/protocol";
import { resolve } from "node:path";
import { type ChainSettings, chainSettingsFromEnv } from "./chain-env.js";
import { ConfigError, type Env, bool, host, int, secret, url } from "./env.js";
import { identityProviders, mailFrom, passkeyRpId } from "./identity-env.js";
import { type Environment, environmentOf } from "./production.js";

export { ConfigError } from "./env.js";

/** Validated server configuration. Every field comes from one environment variable (see the README). */
export interface ServerConfig {
  /**
   * `SLOTGATE_ENV` (`development` or `production`), implied `production` by `NODE_ENV=production`:
   * production refuses to start on development defaults (docs/decisions/production-mode.md).
   * @default "development"
   */
  environment: Environment;
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
  /** `SIGN_IN_*`: per-account backoff of password sign-in. */
  signInBackoff: SignInBackoffConfig;
  /** `TRUST_PROXY`: number of proxy hops to trust for the client IP. @default 0 */
  trustProxy: number;
  /** `SLOTGATE_SEED_DEMO`: seed a demo developer and client at start. @default true on the embedded database in development, else false */
  seedDemo: boolean;
  /** `LOG_LEVEL`: `debug`, `info`, `warn`, `error` or `silent`. @default "info" */
  logLevel: LogLevel;
  /** `OUTBOX_POLL_MS`: how often the outbox worker looks for due messages. @default 1000 */
  outboxPollMs: number;
  /** `MARKETPLACE_RETRY_BASE_MS`: first webhook retry delay; attempt n waits base × 2^(n-1), at most 1 h. @default 2000 */
  marketplaceRetryBaseMs: number;
  /**
   * `CLIENT_SECRET_OVERLAP_SECONDS`: after a client-secret rotation the previous secret keeps working this
   * long, then only the new one does (docs/decisions/developer-center.md). 0 ends it at once. @default 86400 (24 h)
   */
  clientSecretOverlapSeconds: number;
  /**
   * `PROVIDER_KEY_OVERLAP_SECONDS`: after a provider's AES key rotation the previous key and IV still
   * decrypt spend messages this long. 0 ends them at once. @default 86400 (24 h)
   */
  providerKeyOverlapSeconds: number;
  /** `REVOCATION_POLL_MS`: how often revocations by other instances are loaded. @default 1000 */
  revocationPollMs: number;
  /** `DEVICE_CODE_LIFETIME_SECONDS` and `DEVICE_POLL_INTERVAL_SECONDS`: the device grant (RFC 8628). */
  deviceFlow: DeviceFlowConfig;
  /** `CHAIN`, `CHAIN_SERVICE_URL` and the chain service's variables (`RPC_URL`, `CHAIN_KEK`, …). @default the development chain (`CHAIN=anvil`) */
  chain: ChainSettings;
  /** `SMTP_URL` and `MAIL_FROM`: how one-time codes are mailed. */
  mail: MailConfig;
  /** `IDENTITY_PROVIDERS`: upstream OpenID Connect providers shown on the sign-in page. @default [] */
  identityProviders: IdentityProviderConfig[];
  /**
   * `METRICS_TOKEN`: bearer token of `GET /metrics` (>= 32 chars). Unset: `/metrics` answers 404 (the
   * numbers describe users and money flows; there is no safe default credential). @default null
   */
  metricsToken: string | null;
  /**
   * `REDIS_URL`: `redis://` or `rediss://`; when set, rate-limit counters are shared by every instance
   * through it, else each instance counts alone (in memory). @default null
   */
  redisUrl: string | null;
  /** `PASSKEY_RP_ID`: the WebAuthn relying-party id (a registrable domain of the public URL's host). @default the public URL's host name */
  passkeyRpId: string | null;
}

/** Outgoing mail. */
export interface MailConfig {
  /**
   * `SMTP_URL`: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. When unset, mail
   * goes to the development mailbox in the data directory, shown in the developer center.
   * @default null
   */
  smtpUrl: string | null;
  /** `MAIL_FROM`: the From header. @default "Slotgate <no-reply@slotgate.localhost>" */
  from: string;
}

/** One upstream OpenID Connect provider (an entry of `IDENTITY_PROVIDERS`). */
export interface IdentityProviderConfig {
  /** Short id used in forms and links: lowercase letters, digits and `-`, at most 32. */
  id: string;
  /** Button text after "Continue with", e.g. `Google`. */
  name: string;
  /** Issuer URL (https; http only on a loopback host, for local development and tests). */
  issuer: string;
  client_id: string;
  client_secret: string;
  /** Space-separated scopes. @default "openid email profile" */
  scopes: string;
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

/** Lifetimes of the device authorization grant (RFC 8628). */
export interface DeviceFlowConfig {
  /** `DEVICE_CODE_LIFETIME_SECONDS`: how long a device_code / user_code pair lives. @default 600 */
  codeLifetimeSeconds: number;
  /** `DEVICE_POLL_INTERVAL_SECONDS`: the polling interval answered to devices. @default 5 */
  pollIntervalSeconds: number;
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
  /**
   * `RATE_LIMIT_PIN_PER_MINUTE`: the key-deriving PIN endpoints (`/v1/pin/register`, `verify`, `reset`,
   * `recover`, `recover/code`), one budget per IP. @default 60
   */
  pinPerMinute: number;
  /** `RATE_LIMIT_PIN_PER_ACCOUNT_PER_MINUTE`: the same endpoints, one budget per account (the bearer token's user). @default 10 */
  pinPerAccountPerMinute: number;
  /**
   * `RATE_LIMIT_SLOTS_PER_ACCOUNT_PER_MINUTE`: opening (`POST /v1/slots`, each one a platform chain write)
   * and activating (`POST /v1/slots/activate`) slots, one budget per account (the bearer token's user). @default 10
   */
  slotsPerAccountPerMinute: number;
  /**
   * `PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT`: PIN requests of one account in flight at once (each runs a
   * 100,000-round PBKDF2); one more is answered 429 rate_limited instead of queued. Applies whether or not
   * `RATE_LIMIT` is on. @default 2
   */
  pinConcurrentPerAccount: number;
  /**
   * `RATE_LIMIT_PIN_REFUSAL_DELAY_MS`: about how long (0.5-1.5 times, at random) a PIN request over its per-IP
   * or per-account budget is held before its 429 is sent (a tarpit: a client that waits for answers gets
   * about one refusal per delay).
   * 0 answers at once. @default 1000
   */
  pinRefusalDelayMs: number;
  /** `RATE_LIMIT_REDIS_PREFIX`: key prefix of the counters in Redis (deployments sharing one Redis use their own). @default "slotgate:rl:" */
  redisPrefix: string;
}

/**
 * Per-account backoff of password sign-in (developer login, the authorize and device pages), kept in the
 * database so every instance enforces it. The first `freeFailures` wrong passwords cost nothing; each one
 * after makes the account wait 2, 4, 8, ... seconds before the next try; the `lockAfterFailures`-th locks
 * it for `lockSeconds` (and every wrong password after the lock locks it again). A right password resets it.
 */
export interface SignInBackoffConfig {
  /** `SIGN_IN_FREE_FAILURES`. @default 5 */
  freeFailures: number;
  /** `SIGN_IN_LOCK_AFTER_FAILURES`. @default 10 */
  lockAfterFailures: number;
  /** `SIGN_IN_LOCK_SECONDS`. @default 900 */
  lockSeconds: number;
}

function signInBackoff(env: Env): SignInBackoffConfig {
  const freeFailures = int(env, "SIGN_IN_FREE_FAILURES", 5, 1, 1000);
  const lockAfterFailures = int(env, "SIGN_IN_LOCK_AFTER_FAILURES", 10, 1, 1000);
  if (lockAfterFailures <= freeFailures) throw new ConfigError("SIGN_IN_LOCK_AFTER_FAILURES", `must be greater than SIGN_IN_FREE_FAILURES (${freeFailures})`);
  return { freeFailures, lockAfterFailures, lockSeconds: int(env, "SIGN_IN_LOCK_SECONDS", 900, 1, 86_400) };
}

/** Log levels, most verbose first. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

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

function redisPrefix(env: Env): string {
  const value = env["RATE_LIMIT_REDIS_PREFIX"]?.trim() || "slotgate:rl:";
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(value)) throw new ConfigError("RATE_LIMIT_REDIS_PREFIX", "must be 1-64 letters, digits or :._-");
  return value;
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
  const listenHost = host(env, "HOST", "127.0.0.1");
  const publicUrl = url(env, "PUBLIC_URL", ["http:", "https:"]);
  const databaseUrl = url(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const logLevel = (env["LOG_LEVEL"] || "info") as LogLevel;
  if (!["debug", "info", "warn", "error", "silent"].includes(logLevel)) throw new ConfigError("LOG_LEVEL", "must be debug, info, warn, error or silent");
  const marketplaceSecret = secret(env, "MARKETPLACE_SECRET");
  const marketplaceUrl = url(env, "MARKETPLACE_URL", ["http:", "https:"]);
  if (marketplaceUrl && !marketplaceSecret) throw new ConfigError("MARKETPLACE_SECRET", "is required when MARKETPLACE_URL is set (webhooks are signed)");
  const chain = chainSettingsFromEnv(env);
  const environment = environmentOf(env);
  return {
    environment,
    port: int(env, "PORT", 8080, 0, 65535),
    host: listenHost,
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
      pinPerMinute: int(env, "RATE_LIMIT_PIN_PER_MINUTE", 60, 1, 100_000_000),
      pinPerAccountPerMinute: int(env, "RATE_LIMIT_PIN_PER_ACCOUNT_PER_MINUTE", 10, 1, 1_000_000),
      slotsPerAccountPerMinute: int(env, "RATE_LIMIT_SLOTS_PER_ACCOUNT_PER_MINUTE", 10, 1, 1_000_000),
      pinConcurrentPerAccount: int(env, "PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT", 2, 1, 100),
      pinRefusalDelayMs: int(env, "RATE_LIMIT_PIN_REFUSAL_DELAY_MS", 1000, 0, 60_000),
      redisPrefix: redisPrefix(env),
    },
    signInBackoff: signInBackoff(env),
    trustProxy: int(env, "TRUST_PROXY", 0, 0, 10),
    seedDemo: bool(env, "SLOTGATE_SEED_DEMO", !databaseUrl && environment === "development"),
    logLevel,
    outboxPollMs: int(env, "OUTBOX_POLL_MS", 1000, 10, 600_000),
    marketplaceRetryBaseMs: int(env, "MARKETPLACE_RETRY_BASE_MS", 2000, 10, 3_600_000),
    clientSecretOverlapSeconds: int(env, "CLIENT_SECRET_OVERLAP_SECONDS", 86_400, 0, 7 * 86_400),
    providerKeyOverlapSeconds: int(env, "PROVIDER_KEY_OVERLAP_SECONDS", 86_400, 0, 7 * 86_400),
    revocationPollMs: int(env, "REVOCATION_POLL_MS", 1000, 10, 600_000),
    deviceFlow: {
      codeLifetimeSeconds: int(env, "DEVICE_CODE_LIFETIME_SECONDS", LIMITS.deviceCodeLifetimeSeconds, 1, 3600),
      pollIntervalSeconds: int(env, "DEVICE_POLL_INTERVAL_SECONDS", LIMITS.devicePollIntervalSeconds, 1, 60),
    },
    chain,
    mail: {
      smtpUrl: url(env, "SMTP_URL", ["smtp:", "smtps:"]),
      from: mailFrom(env),
    },
    identityProviders: identityProviders(env),
    passkeyRpId: passkeyRpId(env, publicUrl),
    metricsToken: secret(env, "METRICS_TOKEN"),
    redisUrl: url(env, "REDIS_URL", ["redis:", "rediss:"]),
  };
}
