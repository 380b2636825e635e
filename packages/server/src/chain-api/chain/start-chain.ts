import { randomBytes } from "node:crypto";
import { join } from "node:path";
import {
  type CallerKeys,
  type ChainService,
  type ChainServiceWarning,
  type RpcChainConfig,
  createChainService,
  startDevelopmentChain,
} from "@slotgate/chain-service";
import type { CallerAssertions } from "./caller-assertions.js";
import type { Database } from "@slotgate/storage";
import type { ChainMode, ChainSettings } from "../../platform/config/chain-env.js";
import { loadOrCreateSecret } from "../../platform/config/data-dir-secret.js";
import type { Logger } from "../../platform/config/logger.js";

/** The chain service as the HTTP layer sees it. */
export interface ChainHandle {
  mode: Exclude<ChainMode, "off">;
  service: ChainService;
  /** Dev-only operator routes (faucet, enable release) are served: true only on the development chain. */
  devOperator: boolean;
  /** The development chain's JSON-RPC URL (`CHAIN=anvil`), for developers' own tools; null otherwise. */
  rpcUrl: string | null;
  /** Stops the bundler / closes the connection. */
  close(): Promise<void>;
}

/** A start-up warning for the operator; `developmentDefault` ones are announced as such. */
export interface ChainStartWarning {
  code:
    | ChainServiceWarning["code"]
    | "generated_chain_kek"
    | "generated_chain_recovery_key"
    | "development_chain_deployed"
    | "development_chain_state_restored";
  message: string;
  developmentDefault: boolean;
}

/**
 * Starts the chain service for the server: on the development chain (`CHAIN=anvil`: an Anvil child
 * process on 127.0.0.1 with its state and deployment kept in `<dataDir>/chain`), against `RPC_URL`
 * (`CHAIN=rpc`), or as a gRPC client of a separate `slotgate-server chain-service` process
 * (`CHAIN_SERVICE_URL`). Both local modes talk JSON-RPC to the chain alike. Returns null for
 * `CHAIN=off`. Without `CHAIN_KEK` and `CHAIN_RECOVERY_KEY` (development only) the key-encryption key
 * and the recovery key are generated once and kept in the data directory. Warnings go to `warn`.
 *
 * @example
 * ```ts
 * const chain = await startChain(config.chain, db, { dataDir: config.dataDir, warn: logChainWarning(log) });
 * ```
 */
export async function startChain(
  settings: ChainSettings,
  db: Database,
  options: {
    dataDir: string;
    warn: (warning: ChainStartWarning) => void;
    log?: Logger;
    /**
     * The front service's side of the caller assertions: `assert` signs them (sent by a remote chain
     * service's client), `keys` verify them (an in-process chain service; else `CHAIN_CALLER_JWKS_URL`
     * or `CHAIN_CALLER_JWKS`).
     */
    callers?: { assert: CallerAssertions; keys: CallerKeys };
  },
): Promise<ChainHandle | null> {
  if (settings.mode === "off") return null;
  if (settings.mode === "remote") {
    const { connectRemoteChain } = await import("../grpc/client.js");
    return connectRemoteChain(settings.serviceUrl as string, {
      token: settings.serviceToken,
      tls: settings.tls.client,
      ...(options.callers ? { assert: options.callers.assert } : {}),
    });
  }
  const {
    keyEncryptionKey,
    recoveryKey,
    chain: configured,
    callerKeys: configuredCallerKeys,
    ...service
  } = settings.service as NonNullable<ChainSettings["service"]>;
  const callerKeys = options.callers?.keys ?? configuredCallerKeys ?? undefined;
  const developmentKey = (given: string | null, file: string, code: "generated_chain_kek" | "generated_chain_recovery_key", what: string, variable: string) => {
    if (given !== null) return given;
    const kept = loadOrCreateSecret(options.dataDir, file, () => randomBytes(32).toString("hex"));
    options.warn({
      code,
      message: `${what} ${kept.generated ? "generated" : "read"} in ${options.dataDir}; set ${variable} for production`,
      developmentDefault: true,
    });
    return kept.value;
  };
  const kek = developmentKey(keyEncryptionKey, "chain-kek", "generated_chain_kek", "chain key-encryption key", "CHAIN_KEK");
  const recovery = developmentKey(recoveryKey, "chain-recovery-key", "generated_chain_recovery_key", "chain recovery key", "CHAIN_RECOVERY_KEY");
  let chainConfig: RpcChainConfig;
  let stopNode = async (): Promise<void> => undefined;
  if (settings.mode === "anvil") {
    const anvil = settings.anvil as NonNullable<ChainSettings["anvil"]>;
    const stateDir = join(options.dataDir, "chain");
    const dev = await startDevelopmentChain({
      stateDir,
      port: anvil.port,
      ...(anvil.blockTimeSeconds === null ? {} : { blockTimeSeconds: anvil.blockTimeSeconds }),
      ...(anvil.binary === null ? {} : { binary: anvil.binary }),
    });
    chainConfig = dev.chain;
    stopNode = () => dev.anvil.stop();
    if (dev.anvil.restoredState !== null)
      options.warn({ code: "development_chain_state_restored", message: dev.anvil.restoredState, developmentDefault: false });
    options.warn({
      code: dev.deployedNow ? "development_chain_deployed" : "development_chain",
      message: `development chain (Anvil) at ${dev.anvil.rpcUrl}, chain id ${dev.deployment.chainId}, state and well-known development keys in ${stateDir}${dev.deployedNow ? "; contracts deployed now" : ""}; production connects to an existing deployment with RPC_URL`,
      developmentDefault: true,
    });
  } else chainConfig = configured as RpcChainConfig;
  let chain: ChainService;
  try {
    chain = await createChainService({
      ...service,
      chain: { ...chainConfig, requestTimeoutMs: settings.rpcTimeoutMs },
      db,
      keyEncryptionKey: kek,
      recoveryKey: recovery,
      // Every HTTP input is parsed once, at this server's boundary; calls over gRPC are parsed by the chain service.
      parse: "remote-calls",
      ...(callerKeys ? { callerKeys } : {}),
      warn: (warning) => options.warn({ ...warning, developmentDefault: warning.code === "development_chain" }),
      ...(options.log ? { log: options.log.child({ component: "chain-service" }) } : {}),
    });
  } catch (error) {
    await stopNode();
    throw error;
  }
  return {
    mode: settings.mode,
    service: chain,
    devOperator: settings.mode === "anvil",
    rpcUrl: settings.mode === "anvil" ? chainConfig.rpcUrl : null,
    async close() {
      await chain.close();
      await stopNode();
    },
  };
}

/**
 * Logs chain start-up warnings: development defaults as `DEVELOPMENT DEFAULT: …`, each with its code.
 *
 * @example
 * ```ts
 * await startChain(config.chain, db, { dataDir: config.dataDir, warn: logChainWarning(log) });
 * ```
 */
export function logChainWarning(log: Logger): (warning: ChainStartWarning) => void {
  return (warning) => log.warn(warning.developmentDefault ? `DEVELOPMENT DEFAULT: ${warning.message}` : warning.message, { code: warning.code });
}
