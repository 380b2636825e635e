import type { SlotgateAddresses } from "@slotgate/contracts";
import type { PinLockoutPolicy } from "./storage/pin-attempts.js";
import type { SqlDatabase } from "./storage/database.js";

/** A chain reached over JSON-RPC with an existing deployment (production). */
export interface RpcChainConfig {
  kind: "rpc";
  /** `RPC_URL`. Never logged. */
  rpcUrl: string;
  /** The deployed system. */
  addresses: SlotgateAddresses;
  /** Platform operator key (owner of the exchange: registers providers, records spending, releases). */
  operatorKey: string;
  /** Paymaster signer key (`verifyingSigner` of the paymaster). */
  paymasterSignerKey: string;
  /** Bundler EOA key (sends `handleOps`; needs ETH, refunded by the EntryPoint). */
  bundlerKey: string;
}

/**
 * The in-process EVM (Hardhat network) with the whole system deployed at start and the paymaster
 * funded: development, tests and a bare `npm start`.
 */
export interface InProcessChainConfig {
  kind: "in-process";
  /** ETH deposited for the paymaster, wei. @default 100 ether */
  paymasterDeposit?: bigint;
}

/** Where UserOperations go. */
export type BundlerConfig =
  | {
      kind: "built-in";
      /** @default 10 */
      batchIntervalMs?: number;
      /** @default 24 */
      maxBatchSize?: number;
    }
  | {
      kind: "external";
      /** The external bundler's JSON-RPC URL (`eth_sendUserOperation`). */
      url: string;
      /** @default 500 */
      pollIntervalMs?: number;
      fetch?: typeof fetch;
    };

/**
 * Everything {@link createChainService} needs. Only `db` and `keyEncryptionKey` are required; the
 * rest defaults to the in-process chain and the built-in bundler.
 */
export interface ChainServiceConfig {
  /** The database (PGlite or PostgreSQL); migrations run at start. */
  db: SqlDatabase;
  /**
   * Key-encryption key, 32 bytes (64 hex characters): seals the server shares, the stored mnemonics
   * and the providers' AES keys at rest. Keep it in a secret store, outside the database.
   */
  keyEncryptionKey: string | Uint8Array;
  /** @default { kind: "in-process" } */
  chain?: RpcChainConfig | InProcessChainConfig;
  /** @default { kind: "built-in" } */
  bundler?: BundlerConfig;
  /** Fixed service-wide PBKDF2 salt string of share_pin. @default "slotgate/share_pin/v1" */
  pinPbkdf2Salt?: string;
  /** PBKDF2 iterations of share_pin. @default 100000 (spec 4.10) */
  pinPbkdf2Iterations?: number;
  /** PIN lockout. @default { maxFailures: 5, lockSeconds: 900 } */
  pinLockout?: Partial<PinLockoutPolicy>;
  /** Accepted age (either direction) of a spend payload's `ts` under replay protection, seconds. @default 300 */
  spendMaxAgeSeconds?: number;
  /** Paymaster sponsorship window, seconds. @default 300 (spec 4.11) */
  sponsorshipSeconds?: number;
  /** Clock. @default () => new Date() */
  now?: () => Date;
  /** Receives start-up warnings (development defaults in use). @default console.warn */
  warn?: (message: string) => void;
}
