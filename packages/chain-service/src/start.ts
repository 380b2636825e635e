import type { ChainServiceConfig } from "./config.js";
import { createContext } from "./context.js";
import type { ChainService } from "./service.js";
import { serviceOver } from "./surface.js";

/**
 * Starts the chain service: applies its own database migrations, connects the chain over JSON-RPC
 * (a production node, or `startDevelopmentChain`'s Anvil), checks the deployment and its own records
 * against the chain, and starts the writers that send its durable chain writes (the operator's
 * transactions; UserOperations in `handleOps` batches of the bundler key, or handed to an external
 * `eth_sendUserOperation` bundler). Any number of instances may share one database and one set of
 * keys. Every method of the answer validates its arguments before it runs (in process only those of
 * calls that arrive over a transport, with `parse: "remote-calls"`); a method that writes
 * answers its result once the write landed, or a pending write (`PendingWrite`) when it did not land within
 * `writeWaitMs` (it lands anyway; {@link ChainService.lookupWrite} follows it).
 *
 * @example
 * ```ts
 * import { openDatabase } from "@slotgate/storage";
 * import { createChainService } from "@slotgate/chain-service";
 *
 * const chain = await createChainService({
 *   db: await openDatabase({ databaseUrl: process.env.DATABASE_URL }),
 *   keyEncryptionKey: process.env.CHAIN_KEK!, // 64 hex characters
 *   recoveryKey: process.env.CHAIN_RECOVERY_KEY!, // 64 hex characters, another key (or a KMS-backed RecoveryVault)
 *   chain: { kind: "rpc", rpcUrl, addresses, operatorKey, spendRecorderKey, paymasterSignerKey, bundlerKey },
 * });
 * const { data } = await chain.registerPin({ user_uuid: 7, pin_hash, pin_salt });
 * ```
 */
export async function createChainService(config: ChainServiceConfig): Promise<ChainService> {
  return serviceOver(await createContext(config), config.parse ?? "every-call");
}
