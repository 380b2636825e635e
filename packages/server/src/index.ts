/**
 * The Slotgate reference server: developer center, OAuth 2.0 authorization-code flow, the
 * backend-SDK authorize flow, token validation and the login-status sync with a durable
 * marketplace outbox; with the chain service (in process, over RPC, or a separate gRPC process):
 * PIN and key endpoints, token transfer, slot exchange and content tokens. Embedded PostgreSQL (PGlite) by default, PostgreSQL via `DATABASE_URL`.
 *
 * @example
 * ```ts
 * import { loadConfig, startServer } from "@slotgate/server";
 * const running = await startServer(loadConfig({ PORT: "0" }));
 * console.log(running.url);
 * ```
 *
 * @packageDocumentation
 */
export { createApp, type CreateAppOptions, type SlotgateApp } from "./platform/app/create-app.js";
export { type ChainLinkTls, type ChainMode, type ChainServiceSettings, type ChainSettings, chainSettingsFromEnv } from "./platform/config/chain-env.js";
export { type ChainHandle, type ChainStartWarning, logChainWarning, startChain } from "./chain-api/chain/start-chain.js";
export { connectRemoteChain } from "./chain-api/grpc/client.js";
export { type ChainGrpcOptions, type ChainGrpcServer, linkCredentialWarning, serveChainService } from "./chain-api/grpc/server.js";
export { type CallerAssertions, callerAssertions, runAsVerifiedUser } from "./chain-api/chain/caller-assertions.js";
export {
  type Environment,
  type ProcessRole,
  type ProductionProblem,
  ProductionRefusal,
  environmentOf,
  productionProblems,
  refuseDevelopmentDefaults,
} from "./platform/config/production.js";
export type { Services } from "./platform/app/services.js";
export {
  ConfigError,
  loadConfig,
  type LogLevel,
  type DeviceFlowConfig,
  type RateLimitConfig,
  type ServerConfig,
  type SigningKeyInput,
} from "./platform/config/config.js";
export { createLogger, type Logger } from "./platform/config/logger.js";
export { runCli, type CliIo } from "./developer/cli/commands.js";
export { type AppPrototypes, appPrototypes } from "./platform/http/app-prototypes.js";
export { SlotgateServerError } from "./platform/http/errors.js";
export { createKeyStore, generateSigningKey, type KeyStore, type PrivateJwk } from "./oauth/keys/key-store.js";
export { signWebhook } from "./status/marketplace-webhook.js";
export { SERVER_MIGRATIONS, migrateServer } from "./platform/migrations.js";
export { openResources, openServerDatabase, startServer, type Resources, type RunningServer } from "./server.js";
