/**
 * `@slotgate/chain-service`: the Slotgate chain service. PIN key split and owner-key rotation,
 * ERC-4337 wallets (CREATE2, deployed by their first operation), sponsored UserOperations through a
 * built-in batching bundler or an external one, and the content-token economy.
 *
 * @packageDocumentation
 */
export { type ChainService, type ChainServiceAddresses, createChainService, walletDirectoryOf } from "./service.js";
export type { BundlerConfig, ChainServiceConfig, InProcessChainConfig, RpcChainConfig } from "./config.js";
export { ChainServiceError, type ChainServiceErrorCode, type ChainServiceErrorOptions } from "./errors.js";
export type { WalletOperation, WalletOperationResponse } from "./operations/wallet-operation.js";
export type { PinCredentials } from "./pin/credentials.js";
export type { PinRecoverInput } from "./pin/recover.js";
export type { PinResetResponse } from "./pin/reset.js";
export {
  type PGliteLike,
  type PgClientLike,
  type PgPoolLike,
  type SqlDatabase,
  type SqlResult,
  fromPGlite,
  fromPgPool,
} from "./storage/database.js";
export { MIGRATIONS, migrate } from "./storage/migrations.js";
export type { PinLockoutPolicy } from "./storage/pin-attempts.js";
export { DEFAULT_PIN_PBKDF2_SALT, deriveSharePin, type SharePinOptions } from "./keys/share-pin.js";
export { BACKUP_KEY_INFO, deriveBackupKey } from "./keys/envelope.js";
export { readMnemonicBackup } from "./keys/backup.js";
export {
  BuiltInBundler,
  type BuiltInBundlerOptions,
  type BundlerStats,
  ExternalBundler,
  type ExternalBundlerOptions,
  type UserOperationReceipt,
  type UserOperationSubmitter,
  paymasterHash,
} from "./bundler/index.js";
export { type Eip1193Provider, HARDHAT_MNEMONIC, type InProcessChain, startInProcessChain } from "./chain/in-process.js";
export { SerialTxSender } from "./chain/tx-queue.js";
export { CHAIN_ENV, chainServiceConfigFromEnv } from "./config-from-env.js";
