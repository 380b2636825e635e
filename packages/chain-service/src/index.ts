/**
 * `@slotgate/chain-service`: the Slotgate chain service. PIN key split and owner-key rotation,
 * ERC-4337 wallets (CREATE2, deployed by their first operation), sponsored UserOperations through a
 * built-in batching bundler or an external one, and the content-token economy, on any JSON-RPC chain;
 * every chain write is durable (recorded before it is sent, sent once, settled from its receipt) and
 * any number of instances share one database and one set of keys. `startDevelopmentChain` runs a
 * local Anvil node with the system deployed for development.
 *
 * @packageDocumentation
 */
export type { ChainService, ChainServiceAddresses, ContentSlot, WriteOptions } from "./service.js";
export { createChainService } from "./start.js";
export { CHAIN_SERVICE_METHODS, type ChainServiceMethod, USER_CALL_METHODS } from "./surface.js";
export {
  CALLER_ASSERTION_AUDIENCE,
  CALLER_ASSERTION_MAX_SECONDS,
  CALLER_ASSERTION_TYPE,
  type CallerAssertionClaims,
  type CallerKeys,
  callerAssertionPayload,
} from "./evidence/caller-assertion.js";
export type {
  BundlerConfig,
  ChainServiceConfig,
  ChainServiceLogger,
  ChainServiceMetrics,
  ChainServiceWarning,
  RpcChainConfig,
  SponsorshipSettings,
} from "./config.js";
export { type RequestContext, currentRequestId, runOutsideRequest, runRemoteCall, runWithRequestId } from "./request-context.js";
export { ChainServiceError, type ChainServiceErrorCode, type ChainServiceErrorOptions } from "./errors.js";
export type { WalletOperation, WalletOperationOptions, WalletOperationResponse } from "./operations/wallet-operation.js";
export type { PinCredentials } from "./pin/credentials.js";
export type { PinRecoverInput } from "./pin/recover.js";
export type { PinResetResponse } from "./pin/reset.js";
export { CHAIN_SERVICE_MIGRATIONS, migrateChainService } from "./storage/migrations.js";
export type { PinLockoutPolicy } from "./storage/pin-attempts.js";
export { DEFAULT_PIN_PBKDF2_SALT, deriveSharePin, type SharePinOptions } from "./keys/share-pin.js";
export { BACKUP_KEY_INFO, deriveBackupKey } from "./keys/envelope.js";
export { readMnemonicBackup } from "./keys/backup.js";
export { type RecoveryVault, aesRecoveryVault } from "./keys/recovery-vault.js";
export {
  ANVIL_PLATFORM_PACKAGES,
  type AnvilBinaryOptions,
  type AnvilOptions,
  type AnvilPlatform,
  type AnvilProcess,
  DEVELOPMENT_CHAIN_ID,
  anvilBinary,
  startAnvil,
} from "./chain/anvil.js";
export {
  DEVELOPMENT_MNEMONIC,
  type DevelopmentChain,
  type DevelopmentDeployment,
  developmentKey,
  startDevelopmentChain,
} from "./chain/development-chain.js";
