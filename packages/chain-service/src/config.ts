import type { CallerKeys } from "./evidence/caller-assertion.js";
import type { SlotgateAddresses } from "@slotgate/contracts";
import type { PinLockoutPolicy } from "./storage/pin-attempts.js";
import type { Database } from "@slotgate/storage";
import type { RecoveryVault } from "./keys/recovery-vault.js";

/**
 * The chain, reached over JSON-RPC with an existing deployment: a production node (`RPC_URL`) or the
 * development chain (`startDevelopmentChain`), one code path for both.
 */
export interface RpcChainConfig {
  kind: "rpc";
  /** The node's JSON-RPC URL. Never logged (it may carry an API key). */
  rpcUrl: string;
  /** The deployed system. */
  addresses: SlotgateAddresses;
  /**
   * Platform operator key: the exchange's `operator` (or its owner). Registers providers, sets release
   * flags, records slot owners, buys within a slot's consent (`buy_for`), releases, and funds wallets
   * with XOTN. The exchange's owner can be another key (a multisig in production). Every instance
   * uses the same key: the database hands out its nonces (no per-instance keys).
   */
  operatorKey: string;
  /** Spend-recorder key: the exchange's `spendRecorder`, the only platform key that records spending (`increase_used`). */
  spendRecorderKey: string;
  /** Paymaster signer key (`verifyingSigner` of the paymaster). */
  paymasterSignerKey: string;
  /** Bundler EOA key (sends `handleOps`; needs ETH, refunded by the EntryPoint). */
  bundlerKey: string;
  /**
   * A development chain with well-known keys: enables `devFundSlot` and time travel in tests. Never
   * set it for a chain that holds real value. @default false
   */
  development?: boolean;
  /** How long one JSON-RPC request may take before it fails with `chain_unavailable`, ms. @default 30000 */
  requestTimeoutMs?: number;
  /**
   * Send the JSON-RPC requests made within 10 ms as one batch (fewer round trips). A batch is answered
   * when its slowest request is: `false` sends each request on its own, so a slow answer (a node that
   * stalls one wallet's calls) holds only its own caller. @default true
   */
  batchRequests?: boolean;
}

/** Where UserOperations go. */
export type BundlerConfig =
  | {
      /** The platform's own bundler: `handleOps` transactions of the bundler key. */
      kind: "built-in";
      /** Most operations in one `handleOps` transaction. @default 24 */
      maxBatchSize?: number;
    }
  | {
      kind: "external";
      /** The external bundler's JSON-RPC URL (`eth_sendUserOperation`). Never logged. */
      url: string;
      /** How often operations handed over are looked up (`eth_getUserOperationReceipt`) while idle, ms. @default 200 */
      pollIntervalMs?: number;
      fetch?: typeof fetch;
    };

/**
 * Everything {@link createChainService} needs: the database, the key-encryption key and the chain; the
 * rest has defaults (the built-in bundler, the spec's PIN policy).
 */
export interface ChainServiceConfig {
  /** The database (`openDatabase` of `@slotgate/storage`: PGlite or PostgreSQL); the service applies its own migrations at start. */
  db: Database;
  /**
   * Key-encryption key, 32 bytes (64 hex characters): seals the server shares and the providers' AES
   * keys at rest (AES-256-GCM under a key derived from it, each value bound to its record). Keep it in
   * a secret store, outside the database.
   */
  keyEncryptionKey: string | Uint8Array;
  /**
   * The recovery-only key that seals the stored owner mnemonics (`_MN`, spec 2.6), which PIN reset,
   * recovery and the claiming of a provisioned wallet open: 32 bytes (64 hex characters), different
   * from `keyEncryptionKey`; or a {@link RecoveryVault} that seals and opens them elsewhere (a KMS or
   * HSM). Whoever holds the database and this key can rebuild every owner key: keep it apart from the
   * key-encryption key (see docs/security.md).
   */
  recoveryKey: string | Uint8Array | RecoveryVault;
  /** The chain and its deployment. */
  chain: RpcChainConfig;
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
  /** What the paymaster sponsors (checked before it signs), and how much per day. */
  sponsorship?: SponsorshipSettings;
  /**
   * How long a request waits for its chain write to land before it is answered with the write's id
   * (`{ status: "pending", write_id }`, HTTP 202), ms. The write lands anyway. @default 30000
   */
  writeWaitMs?: number;
  /**
   * How long a settled chain write is kept after it settled, seconds: its answer at
   * `GET /v1/chain/writes/{write_id}` and its idempotency key (a retry under the key answers the first
   * outcome until then; later the key is free again). Each instance deletes older ones at start and
   * hourly. At least `LIMITS.idempotencyKeyLifetimeSeconds` (one day, what the API promises).
   *
   * @default 86400 (one day)
   *
   * @example
   * ```ts
   * // keep settled writes a week
   * const service = await createChainService({ db, keyEncryptionKey, recoveryKey, chain, writeRetentionSeconds: 7 * 86400 });
   * ```
   */
  writeRetentionSeconds?: number;
  /**
   * Most spends (`increaseUsed`) of one cuid recorded in one `increase_used_batch` transaction; spends
   * that arrive together beyond it go in further batches. 1 sends one `increase_used` transaction per
   * spend (the behaviour before batching; `bench/chain` measures against it). An exchange without
   * `increase_used_batch` always gets one transaction per spend. A whole number from 1 to 100.
   *
   * @default 50
   *
   * @example
   * ```ts
   * // one transaction per spend, e.g. as a benchmark's baseline
   * const service = await createChainService({ db, keyEncryptionKey, recoveryKey, chain, spendBatchLimit: 1 });
   * ```
   */
  spendBatchLimit?: number;
  /**
   * Which calls the service parses with the protocol's schemas before they run (one parse per input):
   * - `"every-call"`: every call, in process or over a transport (a caller whose input is not parsed yet).
   * - `"remote-calls"`: only calls that arrive over a transport (`runRemoteCall`: the gRPC server). An
   *   in-process caller passes the arguments it parsed at its own boundary with the same schemas (the
   *   Slotgate server parses each HTTP input once, with its endpoint's schemas), and they reach the
   *   feature modules as they are, typed, without a second parse.
   *
   * @default "every-call"
   *
   * @example
   * ```ts
   * // the HTTP layer in this process parses every input with the protocol's schemas
   * const service = await createChainService({ db, keyEncryptionKey, recoveryKey, chain, parse: "remote-calls" });
   * ```
   */
  parse?: "every-call" | "remote-calls";
  /** This process's name in the signers' leases (several instances share one database). @default host:pid:random */
  instanceId?: string;
  /**
   * The public keys of the front service's caller assertions (its JWKS, or the URL of its
   * `/.well-known/jwks.json`): `recover` and, over gRPC, every call made for a user need an assertion
   * signed by one of them (docs/decisions/chain-link.md). @default none: such calls are refused
   */
  callerKeys?: CallerKeys;
  /** Clock. @default () => new Date() */
  now?: () => Date;
  /** Receives start-up warnings (development defaults in use, a low paymaster deposit). @default console.warn of the message */
  warn?: (warning: ChainServiceWarning) => void;
  /** Structured log lines (each surface call at debug, each write request at info). @default none */
  log?: ChainServiceLogger;
}

/** The platform's sponsorship checks (docs/security.md, "Gas sponsorship"). */
export interface SponsorshipSettings {
  /**
   * Most gas one sponsored operation may cost the paymaster's deposit (callGasLimit + 3 ×
   * verificationGasLimit + preVerificationGas); larger operations are refused with `sponsorship_refused`.
   * @default 3_600_000n (a wallet's deploying first operation with the default limits)
   */
  maxOperationGas?: bigint;
  /**
   * ERC-20 contracts `POST /v1/token/transfer` (`erc20_transfer`) may move with a sponsored operation;
   * any other token is refused with `sponsorship_refused`. XOTN is always allowed.
   * @default [] (XOTN only)
   */
  erc20AllowList?: readonly string[];
  /**
   * Most wei of gas the paymaster sponsors per user per UTC day (all their operations); over it,
   * `sponsorship_budget_exceeded` with the reset time. 0 turns the limit off. @default 10n ** 18n (1 ETH)
   */
  userWeiPerDay?: bigint;
  /** The same per cuid (operations that buy or exchange under it). @default 50n * 10n ** 18n (50 ETH) */
  cuidWeiPerDay?: bigint;
}

/**
 * A start-up warning of the chain service. `code` is stable; `message` is for people.
 *
 * - `development_chain`: a development chain (well-known keys) is in use.
 * - `low_paymaster_deposit`: the paymaster's EntryPoint deposit is below 0.1 ETH.
 * - `chain_rebuilt`: the chain had lost blocks the database recorded (a development chain killed
 *   within its state interval, a reorganisation); the kept signed transactions were sent again and
 *   landed as they first did. The message says from which block and how many
 *   (docs/decisions/chain-rebuild.md).
 * - `chain_behind_database`: the chain lacks what the database recorded and could not be rebuilt: the
 *   message names the writes by id and reason (kept in `cs_chain_losses`), or the instance whose lease
 *   kept the rebuild from running.
 * - `secrets_resealed`: stored secrets written before sealing was authenticated (server shares,
 *   providers' AES keys, and mnemonics, also those under the key-encryption key from before the
 *   recovery key existed) were sealed again, bound to their records; the message says how many of each.
 *   (It replaces `mnemonics_resealed`.)
 * - `slot_sales_refused`: the deployment was made before slot wallets were locked (issue 28): every slot
 *   sale is refused with `slot_wallet_unsafe`; everything else works.
 */
export interface ChainServiceWarning {
  code: "development_chain" | "low_paymaster_deposit" | "chain_rebuilt" | "chain_behind_database" | "secrets_resealed" | "slot_sales_refused";
  message: string;
}

/**
 * Where the chain service logs (structured: a message and fields; the server passes its pino logger).
 * Fields never hold secrets: ids, method names, states, durations. Each line of a call carries the
 * call's `request_id`.
 */
export interface ChainServiceLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * A snapshot of the chain service's operational numbers (the server's `/metrics` reads it at each scrape).
 */
export interface ChainServiceMetrics {
  /** Chain writes (`cs_writes`) per state. */
  writes: { pending: number; submitted: number; confirmed: number; failed: number };
  /** PBKDF2 derivations (share_pin) waiting for a slot in this process. */
  pbkdf2Queue: number;
  /** Users whose PIN is locked now. */
  pinLockouts: number;
  /** The paymaster's EntryPoint deposit in wei (decimal), or null when the node did not answer. */
  paymasterDepositWei: string | null;
  /** Bundles sent by this process's built-in bundler, by number of operations: `{ "3": 12 }`. */
  bundleSizes: Record<string, number>;
}
