import type { BundlerConfig, CallerKeys, ChainServiceConfig, PinLockoutPolicy, RpcChainConfig, SponsorshipSettings } from "@slotgate/chain-service";
import { isIP } from "node:net";
import { LIMITS } from "@slotgate/protocol";
import { isAddress, isHexString } from "ethers";
import { ConfigError, type Env, bigUint, host, int, optional, pemFile, secret, url } from "./env.js";

/** How the server reaches the chain service. */
export type ChainMode = "anvil" | "rpc" | "remote" | "off";

/** The chain service's own settings, as read from the environment (the database is added at start). */
export type ChainServiceSettings = Omit<ChainServiceConfig, "db" | "warn" | "keyEncryptionKey" | "recoveryKey" | "chain" | "callerKeys"> & {
  /**
   * `CHAIN_CALLER_JWKS_URL` (the front service's `/.well-known/jwks.json`) or `CHAIN_CALLER_JWKS` (that
   * document, public keys only): the keys of the front service's caller assertions, which a separate
   * `slotgate-server chain-service` process needs. The HTTP server's in-process chain service uses the
   * server's own keys. @default null
   */
  callerKeys: CallerKeys | null;
  /** `CHAIN_KEK`: 64 hex characters. @default null: generated once and kept in the data directory (development) */
  keyEncryptionKey: string | null;
  /**
   * `CHAIN_RECOVERY_KEY`: 64 hex characters, the recovery-only key of the stored mnemonics; must differ
   * from `CHAIN_KEK`. @default null: generated once and kept in the data directory (development)
   */
  recoveryKey: string | null;
  /** `rpc`: the configured deployment. `anvil`: null, the development chain's own (started by the server). */
  chain: RpcChainConfig | null;
};

/** The development chain the server starts with `CHAIN=anvil`. */
export interface AnvilSettings {
  /** `ANVIL_PORT`: port on 127.0.0.1 (0: any free port). @default 8545 */
  port: number;
  /** `ANVIL_BLOCK_TIME`: seconds between blocks (an L2-like chain). @default null (a block per transaction) */
  blockTimeSeconds: number | null;
  /** `ANVIL_BIN`: the anvil executable. @default null (the npm package's binary, else `anvil` on PATH) */
  binary: string | null;
}

/**
 * TLS of the gRPC link between the HTTP server and `slotgate-server chain-service` (PEM contents, read
 * from the files the variables name).
 */
export interface ChainLinkTls {
  /**
   * The chain-service process's side: `CHAIN_SERVICE_TLS_CERT` and `CHAIN_SERVICE_TLS_KEY` (its
   * certificate chain and key); `CHAIN_SERVICE_TLS_CLIENT_CA` turns on mutual TLS (callers must present
   * a certificate issued by that CA). @default null (plain text)
   */
  server: { cert: Buffer; key: Buffer; clientCa: Buffer | null } | null;
  /**
   * The HTTP server's side: `CHAIN_SERVICE_TLS_CA` (the CA that issued the chain service's certificate,
   * or `system` for the system's roots), `CHAIN_SERVICE_TLS_SERVER_NAME` (the name the certificate must
   * carry, when `CHAIN_SERVICE_URL` names the host by IP address: TLS sends and checks a host name) and,
   * for mutual TLS, `CHAIN_SERVICE_TLS_CLIENT_CERT` and `CHAIN_SERVICE_TLS_CLIENT_KEY`. @default null (plain text)
   */
  client: { ca: Buffer | null; cert: Buffer | null; key: Buffer | null; serverName?: string | null } | null;
}

/** Validated chain settings (`CHAIN`, `CHAIN_SERVICE_URL`, `CHAIN_SERVICE_TOKEN` and the chain service's variables). */
export interface ChainSettings {
  /**
   * `CHAIN`: `anvil` (a local Anvil node started by the server, its state kept in the data directory:
   * the development default), `rpc` (`RPC_URL` and the deployed system), `off` (OAuth-only server:
   * chain endpoints answer 503). `CHAIN_SERVICE_URL` selects `remote`: the chain service runs as its own
   * process behind gRPC.
   * @default "rpc" when RPC_URL is set, else "anvil"
   */
  mode: ChainMode;
  /** `CHAIN_SERVICE_URL`: `host:port` of a `slotgate-server chain-service` process. @default null */
  serviceUrl: string | null;
  /**
   * `CHAIN_SERVICE_TOKEN`: shared secret (>= 32 chars) the server sends to the gRPC chain service and
   * the chain-service process requires. @default null (no token; keep the port on a private network)
   */
  serviceToken: string | null;
  /** TLS of the gRPC link, each side's half. */
  tls: ChainLinkTls;
  /** The chain service's settings for `anvil` and `rpc` (null for `remote` and `off`). */
  service: ChainServiceSettings | null;
  /** The development chain's settings (`anvil` only, else null). */
  anvil: AnvilSettings | null;
  /** `RPC_TIMEOUT_MS`: how long one JSON-RPC request to the chain may take before it fails with `chain_unavailable`. @default 30000 */
  rpcTimeoutMs: number;
  /**
   * Where `slotgate-server chain-service` listens: `CHAIN_SERVICE_HOST` and `CHAIN_SERVICE_PORT`.
   * @default { host: "127.0.0.1", port: 50051 }
   */
  listen: { host: string; port: number };
}

/** The chain service's environment variables. */
export const CHAIN_ENV = {
  keyEncryptionKey: "CHAIN_KEK",
  recoveryKey: "CHAIN_RECOVERY_KEY",
  spendRecorderKey: "SPEND_RECORDER_KEY",
  sponsorMaxOperationGas: "SPONSOR_MAX_OPERATION_GAS",
  sponsorErc20AllowList: "SPONSOR_ERC20_ALLOWLIST",
  rpcUrl: "RPC_URL",
  xotn: "XOTN_ADDRESS",
  exchange: "EXCHANGE_ADDRESS",
  entryPoint: "ENTRYPOINT_ADDRESS",
  factory: "FACTORY_ADDRESS",
  paymaster: "PAYMASTER_ADDRESS",
  operatorKey: "OPERATOR_KEY",
  paymasterSignerKey: "PAYMASTER_SIGNER_KEY",
  bundlerKey: "BUNDLER_KEY",
  bundlerUrl: "BUNDLER_URL",
  pinSalt: "PIN_PBKDF2_SALT",
  pinMaxFailures: "PIN_MAX_FAILURES",
  pinLockSeconds: "PIN_LOCK_SECONDS",
  writeWaitMs: "CHAIN_WRITE_WAIT_MS",
  writeRetentionSeconds: "CHAIN_WRITE_RETENTION_SECONDS",
  sponsorUserWeiPerDay: "SPONSOR_USER_WEI_PER_DAY",
  sponsorCuidWeiPerDay: "SPONSOR_CUID_WEI_PER_DAY",
  callerJwksUrl: "CHAIN_CALLER_JWKS_URL",
  callerJwks: "CHAIN_CALLER_JWKS",
} as const;

function privateKey(env: Env, name: string, required: boolean): string | undefined {
  const value = optional(env, name);
  if (value === undefined) {
    if (required) throw new ConfigError(name, "is required when RPC_URL is set");
    return undefined;
  }
  const prefixed = value.startsWith("0x") ? value : `0x${value}`;
  if (!isHexString(prefixed, 32)) throw new ConfigError(name, "must be a 32-byte hex private key");
  return prefixed;
}

function contractAddress(env: Env, name: string): string {
  const value = optional(env, name);
  if (value === undefined) throw new ConfigError(name, "is required when RPC_URL is set");
  if (!isAddress(value)) throw new ConfigError(name, "must be a 0x-prefixed 20-byte address");
  return value;
}

function rpcChain(env: Env, rpcUrl: string): RpcChainConfig {
  const bundlerKey = privateKey(env, CHAIN_ENV.bundlerKey, optional(env, CHAIN_ENV.bundlerUrl) === undefined);
  return {
    kind: "rpc",
    rpcUrl,
    addresses: {
      xotn: contractAddress(env, CHAIN_ENV.xotn),
      exchange: contractAddress(env, CHAIN_ENV.exchange),
      entryPoint: contractAddress(env, CHAIN_ENV.entryPoint),
      factory: contractAddress(env, CHAIN_ENV.factory),
      paymaster: contractAddress(env, CHAIN_ENV.paymaster),
    },
    operatorKey: privateKey(env, CHAIN_ENV.operatorKey, true) as string,
    spendRecorderKey: privateKey(env, CHAIN_ENV.spendRecorderKey, true) as string,
    paymasterSignerKey: privateKey(env, CHAIN_ENV.paymasterSignerKey, true) as string,
    bundlerKey: bundlerKey ?? (privateKey(env, CHAIN_ENV.operatorKey, true) as string),
  };
}

function hexKey(env: Env, name: string): string | null {
  const value = optional(env, name) ?? null;
  if (value !== null && !/^[0-9a-fA-F]{64}$/.test(value)) throw new ConfigError(name, "must be 64 hex characters (32 bytes)");
  return value;
}

function sponsorship(env: Env): SponsorshipSettings | undefined {
  const gas = int(env, CHAIN_ENV.sponsorMaxOperationGas, 0, 100_000, 30_000_000);
  const list = optional(env, CHAIN_ENV.sponsorErc20AllowList);
  const tokens =
    list === undefined
      ? []
      : list
          .split(",")
          .map((token) => token.trim())
          .filter((token) => token !== "");
  for (const token of tokens) {
    if (!isAddress(token)) throw new ConfigError(CHAIN_ENV.sponsorErc20AllowList, "must be a comma-separated list of 0x-prefixed 20-byte addresses");
  }
  const userWeiPerDay = bigUint(env, CHAIN_ENV.sponsorUserWeiPerDay);
  const cuidWeiPerDay = bigUint(env, CHAIN_ENV.sponsorCuidWeiPerDay);
  const settings: SponsorshipSettings = {
    ...(gas === 0 ? {} : { maxOperationGas: BigInt(gas) }),
    ...(tokens.length === 0 ? {} : { erc20AllowList: tokens }),
    ...(userWeiPerDay === undefined ? {} : { userWeiPerDay }),
    ...(cuidWeiPerDay === undefined ? {} : { cuidWeiPerDay }),
  };
  return Object.keys(settings).length === 0 ? undefined : settings;
}

function serviceSettings(env: Env, mode: "anvil" | "rpc"): ChainServiceSettings {
  const keyEncryptionKey = hexKey(env, CHAIN_ENV.keyEncryptionKey);
  const recoveryKey = hexKey(env, CHAIN_ENV.recoveryKey);
  if (keyEncryptionKey !== null && recoveryKey !== null && keyEncryptionKey.toLowerCase() === recoveryKey.toLowerCase()) {
    throw new ConfigError(CHAIN_ENV.recoveryKey, "must differ from CHAIN_KEK (it alone opens the stored mnemonics)");
  }
  let chain: ChainServiceSettings["chain"] = null;
  if (mode === "rpc") {
    if (keyEncryptionKey === null) throw new ConfigError(CHAIN_ENV.keyEncryptionKey, "is required when RPC_URL is set");
    if (recoveryKey === null) throw new ConfigError(CHAIN_ENV.recoveryKey, "is required when RPC_URL is set");
    chain = rpcChain(env, url(env, CHAIN_ENV.rpcUrl, ["http:", "https:", "ws:", "wss:"]) as string);
  }
  const sponsored = sponsorship(env);
  const bundlerUrl = url(env, CHAIN_ENV.bundlerUrl, ["http:", "https:"]);
  const bundler: BundlerConfig | undefined = bundlerUrl === null ? undefined : { kind: "external", url: bundlerUrl };
  const pinSalt = optional(env, CHAIN_ENV.pinSalt);
  const maxFailures = int(env, CHAIN_ENV.pinMaxFailures, 0, 1, 1_000_000);
  const lockSeconds = int(env, CHAIN_ENV.pinLockSeconds, 0, 1, 100_000_000);
  const pinLockout: Partial<PinLockoutPolicy> = {
    ...(maxFailures === 0 ? {} : { maxFailures }),
    ...(lockSeconds === 0 ? {} : { lockSeconds }),
  };
  const writeWaitMs = int(env, CHAIN_ENV.writeWaitMs, 0, 1, 600_000);
  // At least the one-day idempotency lifetime the API promises; at most ten years.
  const writeRetentionSeconds = int(
    env,
    CHAIN_ENV.writeRetentionSeconds,
    LIMITS.idempotencyKeyLifetimeSeconds,
    LIMITS.idempotencyKeyLifetimeSeconds,
    3650 * 86_400,
  );
  return {
    callerKeys: callerKeys(env),
    ...(writeWaitMs === 0 ? {} : { writeWaitMs }),
    writeRetentionSeconds,
    keyEncryptionKey,
    recoveryKey,
    chain,
    ...(sponsored ? { sponsorship: sponsored } : {}),
    ...(bundler ? { bundler } : {}),
    ...(pinSalt === undefined ? {} : { pinPbkdf2Salt: pinSalt }),
    ...(Object.keys(pinLockout).length > 0 ? { pinLockout } : {}),
  };
}

/** `CHAIN_CALLER_JWKS_URL` or `CHAIN_CALLER_JWKS` (not both), or null. */
function callerKeys(env: Env): CallerKeys | null {
  const jwksUrl = url(env, CHAIN_ENV.callerJwksUrl, ["http:", "https:"]);
  const inline = optional(env, CHAIN_ENV.callerJwks);
  if (jwksUrl !== null && inline !== undefined) throw new ConfigError(CHAIN_ENV.callerJwks, `cannot be combined with ${CHAIN_ENV.callerJwksUrl}; set one`);
  if (jwksUrl !== null) return new URL(jwksUrl);
  if (inline === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(inline);
  } catch {
    throw new ConfigError(CHAIN_ENV.callerJwks, 'must be a JSON Web Key Set ({"keys": [...]})');
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new ConfigError(CHAIN_ENV.callerJwks, "must be a JSON Web Key Set with at least one key");
  for (const key of keys) {
    if (typeof key !== "object" || key === null || (key as { kty?: unknown }).kty !== "EC" || "d" in key) {
      throw new ConfigError(CHAIN_ENV.callerJwks, "must hold public EC P-256 keys only (no private part)");
    }
  }
  return { keys } as CallerKeys;
}

/** Both variables of a pair set, or neither. */
function pair(env: Env, first: string, second: string): [Buffer, Buffer] | null {
  const [a, b] = [pemFile(env, first), pemFile(env, second)];
  if ((a === null) !== (b === null)) throw new ConfigError(a === null ? first : second, `must be set together with ${a === null ? second : first}`);
  return a && b ? [a, b] : null;
}

function linkTls(env: Env): ChainLinkTls {
  const served = pair(env, "CHAIN_SERVICE_TLS_CERT", "CHAIN_SERVICE_TLS_KEY");
  const clientCa = pemFile(env, "CHAIN_SERVICE_TLS_CLIENT_CA");
  if (clientCa && !served)
    throw new ConfigError("CHAIN_SERVICE_TLS_CLIENT_CA", "needs CHAIN_SERVICE_TLS_CERT and CHAIN_SERVICE_TLS_KEY (mutual TLS is TLS first)");
  const caSetting = optional(env, "CHAIN_SERVICE_TLS_CA");
  const ca = caSetting === undefined || caSetting === "system" ? null : pemFile(env, "CHAIN_SERVICE_TLS_CA");
  const identity = pair(env, "CHAIN_SERVICE_TLS_CLIENT_CERT", "CHAIN_SERVICE_TLS_CLIENT_KEY");
  if (identity && caSetting === undefined)
    throw new ConfigError("CHAIN_SERVICE_TLS_CLIENT_CERT", "needs CHAIN_SERVICE_TLS_CA (a client certificate is only sent over TLS)");
  const serverName = optional(env, "CHAIN_SERVICE_TLS_SERVER_NAME") ?? null;
  if (serverName !== null && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(serverName))
    throw new ConfigError("CHAIN_SERVICE_TLS_SERVER_NAME", "must be a DNS host name");
  return {
    server: served ? { cert: served[0], key: served[1], clientCa } : null,
    client: caSetting === undefined ? null : { ca, cert: identity?.[0] ?? null, key: identity?.[1] ?? null, serverName },
  };
}

/**
 * Reads and validates the chain settings once at start-up. A bad value throws {@link ConfigError}
 * naming the variable, never echoing its value (it may be a key or a URL with credentials).
 *
 * @example
 * ```ts
 * chainSettingsFromEnv({ CHAIN: "off" }).mode; // "off"
 * ```
 */
export function chainSettingsFromEnv(env: Env): ChainSettings {
  const explicit = optional(env, "CHAIN")?.toLowerCase();
  const serviceUrl = optional(env, "CHAIN_SERVICE_URL") ?? null;
  const serviceToken = secret(env, "CHAIN_SERVICE_TOKEN");
  const rpcUrl = optional(env, CHAIN_ENV.rpcUrl);
  const listen = { host: host(env, "CHAIN_SERVICE_HOST", "127.0.0.1"), port: int(env, "CHAIN_SERVICE_PORT", 50051, 0, 65535) };
  const rpcTimeoutMs = int(env, "RPC_TIMEOUT_MS", 30_000, 100, 600_000);
  const tls = linkTls(env);
  if (explicit === "in-process") {
    throw new ConfigError("CHAIN", "in-process was replaced by anvil: a local development chain whose state is kept in the data directory (set CHAIN=anvil)");
  }
  if (explicit !== undefined && !["anvil", "rpc", "off"].includes(explicit)) {
    throw new ConfigError("CHAIN", "must be anvil, rpc or off");
  }
  if (serviceUrl !== null) {
    if (explicit === "off") throw new ConfigError("CHAIN_SERVICE_URL", "cannot be combined with CHAIN=off");
    if (!/^[A-Za-z0-9.\-[\]:]+:[0-9]{1,5}$/.test(serviceUrl)) {
      throw new ConfigError("CHAIN_SERVICE_URL", "must be host:port of a slotgate-server chain-service process");
    }
    const serviceHost = serviceUrl.slice(0, serviceUrl.lastIndexOf(":")).replace(/^\[|\]$/g, "");
    if (tls.client && !tls.client.serverName && isIP(serviceHost) !== 0) {
      throw new ConfigError(
        "CHAIN_SERVICE_TLS_SERVER_NAME",
        "is required when CHAIN_SERVICE_URL names the chain service by IP address over TLS: the DNS name on its certificate",
      );
    }
    return { mode: "remote", serviceUrl, serviceToken, tls, service: null, anvil: null, rpcTimeoutMs, listen };
  }
  if (explicit === "off") return { mode: "off", serviceUrl: null, serviceToken, tls, service: null, anvil: null, rpcTimeoutMs, listen };
  if (explicit === "rpc" && rpcUrl === undefined) throw new ConfigError("RPC_URL", "is required with CHAIN=rpc");
  if (explicit === "anvil" && rpcUrl !== undefined) throw new ConfigError("CHAIN", "is anvil but RPC_URL is set; remove one of them");
  if (explicit === undefined && rpcUrl === undefined && optional(env, "DATABASE_URL") !== undefined) {
    throw new ConfigError(
      "CHAIN",
      "must be chosen when DATABASE_URL is set: set RPC_URL and the deployed addresses (production), CHAIN=anvil (a development chain kept in the data directory) or CHAIN=off",
    );
  }
  const mode = rpcUrl === undefined ? "anvil" : "rpc";
  const blockTime = int(env, "ANVIL_BLOCK_TIME", 0, 1, 3600);
  const anvil: AnvilSettings | null =
    mode === "anvil"
      ? { port: int(env, "ANVIL_PORT", 8545, 0, 65535), blockTimeSeconds: blockTime === 0 ? null : blockTime, binary: optional(env, "ANVIL_BIN") ?? null }
      : null;
  return { mode, serviceUrl: null, serviceToken, tls, service: serviceSettings(env, mode), anvil, rpcTimeoutMs, listen };
}
