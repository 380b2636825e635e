import { type ChainService, chainServiceConfigFromEnv, createChainService, migrate as migrateChain } from "@slotgate/chain-service";
import type { Database } from "../storage/database.js";
import type { ChainMode, ChainSettings } from "./chain-config.js";
import { chainDatabaseOf } from "./sql-adapter.js";
import { ensureExchangeTable } from "../slot-exchange/exchange-states.js";

/** The chain service as the HTTP layer sees it. */
export interface ChainHandle {
  mode: Exclude<ChainMode, "off">;
  service: ChainService;
  /** Dev-only operator routes (faucet, enable release) are served: true only on the in-process chain. */
  devOperator: boolean;
  /** Resolves when the chain answers a read (health check); rejects otherwise. */
  ready(): Promise<void>;
  /** Stops the bundler / closes the connection. */
  close(): Promise<void>;
}

/** Chain-bound records of the chain service, cleared when an in-process chain (which forgets everything) starts. */
const CHAIN_BOUND_TABLES = [
  "cs_pending_rotations",
  "cs_pin_attempts",
  "cs_keys",
  "cs_wallets",
  "cs_spend_nonces",
  "cs_slot_last_cuid",
  "cs_provider_cuids",
  "cs_providers",
  "slot_exchange_states",
];

/**
 * Starts the chain service for the server: in process (Hardhat network, `CHAIN=in-process`), against
 * `RPC_URL` (`CHAIN=rpc`), or as a gRPC client of a separate `slotgate-server chain-service` process
 * (`CHAIN_SERVICE_URL`). Returns null for `CHAIN=off`. Development defaults are reported through `warn`.
 *
 * @example
 * ```ts
 * const chain = await startChain(config.chain, db, (w) => log.warn(`DEVELOPMENT DEFAULT: ${w}`));
 * ```
 */
export async function startChain(settings: ChainSettings, db: Database, warn: (message: string) => void): Promise<ChainHandle | null> {
  if (settings.mode === "off") return null;
  await ensureExchangeTable(db);
  if (settings.mode === "remote") {
    const { connectRemoteChain } = await import("../grpc/client.js");
    return connectRemoteChain(settings.serviceUrl as string, { token: settings.serviceToken });
  }
  const sql = chainDatabaseOf(db);
  // The chain service's own wording names its config object; the server's operators set variables.
  const say = (message: string) =>
    warn(
      message
        .replace(/^\[chain-service\] /, "")
        .replace(/configure chain\.kind = "rpc" for production/, "set RPC_URL, the deployed addresses and keys for production (CHAIN=off runs without a chain)"),
    );
  const config = chainServiceConfigFromEnv(settings.env, { db: sql, warn: say });
  if (settings.mode === "in-process") {
    // The in-process chain starts empty every time: wallets, providers and nonces recorded against the
    // previous run's chain would point at state that no longer exists.
    await migrateChain(sql);
    const counts = await db.query<{ n: string }>("SELECT (SELECT count(*) FROM cs_wallets) + (SELECT count(*) FROM cs_providers) AS n");
    if (Number(counts[0]?.n ?? 0) > 0) {
      await db.query(`TRUNCATE ${CHAIN_BOUND_TABLES.join(", ")}`);
      warn("in-process chain: wallets, PIN records and provider registrations of the previous run were cleared (the development chain is not persisted)");
    }
  }
  const service = await createChainService({ ...config, warn: say });
  return {
    mode: settings.mode,
    service,
    devOperator: settings.mode === "in-process",
    async ready() {
      await service.slotOwner("healthz", 0);
    },
    close: () => service.close(),
  };
}
