import { randomBytes } from "node:crypto";
import { isAddress, isHexString } from "ethers";
import type { ChainServiceConfig } from "./config.js";
import { ChainServiceError } from "./errors.js";
import type { SqlDatabase } from "./storage/database.js";

/** The environment variables {@link chainServiceConfigFromEnv} reads. */
export const CHAIN_ENV = {
  keyEncryptionKey: "CHAIN_KEK",
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
} as const;

function bad(variable: string, what: string): never {
  // Names the variable, never echoes its value (it may be a key or a URL with credentials).
  throw new ChainServiceError("invalid_request", `${variable} ${what}`);
}

/**
 * Reads and validates the chain service's configuration from environment variables, once, at start-up.
 * Without `RPC_URL` the in-process chain is used (and without `CHAIN_KEK` a random key-encryption key,
 * with a warning: stored shares then only live as long as the process). With `RPC_URL` every address
 * and key variable is required. A bad value throws `invalid_request` naming the variable.
 *
 * @example
 * ```ts
 * const chain = await createChainService(chainServiceConfigFromEnv(process.env, { db }));
 * ```
 */
export function chainServiceConfigFromEnv(
  env: Record<string, string | undefined>,
  base: { db: SqlDatabase; warn?: (message: string) => void },
): ChainServiceConfig {
  const warn = base.warn ?? ((message: string) => console.warn(message));
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const hexKey = (name: string, required: boolean) => {
    const value = read(name);
    if (value === undefined) return required ? bad(name, "is required when RPC_URL is set") : undefined;
    const prefixed = value.startsWith("0x") ? value : `0x${value}`;
    if (!isHexString(prefixed, 32)) bad(name, "must be a 32-byte hex private key");
    return prefixed;
  };
  const positiveInt = (name: string) => {
    const value = read(name);
    if (value === undefined) return undefined;
    if (!/^[1-9][0-9]{0,8}$/.test(value)) bad(name, "must be a positive integer");
    return Number(value);
  };

  let keyEncryptionKey = read(CHAIN_ENV.keyEncryptionKey);
  if (keyEncryptionKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(keyEncryptionKey)) {
    bad(CHAIN_ENV.keyEncryptionKey, "must be 64 hex characters (32 bytes)");
  }
  const rpcUrl = read(CHAIN_ENV.rpcUrl);
  const config: ChainServiceConfig = { db: base.db, keyEncryptionKey: "", warn };
  if (rpcUrl !== undefined) {
    try {
      const url = new URL(rpcUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "ws:" && url.protocol !== "wss:") throw new Error();
    } catch {
      bad(CHAIN_ENV.rpcUrl, "must be an http(s) or ws(s) URL");
    }
    if (keyEncryptionKey === undefined) bad(CHAIN_ENV.keyEncryptionKey, "is required when RPC_URL is set");
    const address = (name: string) => {
      const value = read(name);
      if (value === undefined) return bad(name, "is required when RPC_URL is set");
      if (!isAddress(value)) bad(name, "must be a 0x-prefixed 20-byte address");
      return value;
    };
    config.chain = {
      kind: "rpc",
      rpcUrl,
      addresses: {
        xotn: address(CHAIN_ENV.xotn),
        exchange: address(CHAIN_ENV.exchange),
        entryPoint: address(CHAIN_ENV.entryPoint),
        factory: address(CHAIN_ENV.factory),
        paymaster: address(CHAIN_ENV.paymaster),
      },
      operatorKey: hexKey(CHAIN_ENV.operatorKey, true) as string,
      paymasterSignerKey: hexKey(CHAIN_ENV.paymasterSignerKey, true) as string,
      bundlerKey: hexKey(CHAIN_ENV.bundlerKey, read(CHAIN_ENV.bundlerUrl) === undefined) ?? (hexKey(CHAIN_ENV.operatorKey, true) as string),
    };
  } else {
    config.chain = { kind: "in-process" };
    if (keyEncryptionKey === undefined) {
      keyEncryptionKey = randomBytes(32).toString("hex");
      warn(`[chain-service] ${CHAIN_ENV.keyEncryptionKey} is not set: using a random key-encryption key for this process only`);
    }
  }
  config.keyEncryptionKey = keyEncryptionKey as string;
  const bundlerUrl = read(CHAIN_ENV.bundlerUrl);
  if (bundlerUrl !== undefined) {
    try {
      new URL(bundlerUrl);
    } catch {
      bad(CHAIN_ENV.bundlerUrl, "must be a URL");
    }
    config.bundler = { kind: "external", url: bundlerUrl };
  }
  const pinSalt = read(CHAIN_ENV.pinSalt);
  if (pinSalt !== undefined) config.pinPbkdf2Salt = pinSalt;
  const maxFailures = positiveInt(CHAIN_ENV.pinMaxFailures);
  const lockSeconds = positiveInt(CHAIN_ENV.pinLockSeconds);
  if (maxFailures !== undefined || lockSeconds !== undefined) {
    config.pinLockout = {
      ...(maxFailures === undefined ? {} : { maxFailures }),
      ...(lockSeconds === undefined ? {} : { lockSeconds }),
    };
  }
  return config;
}
