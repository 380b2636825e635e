import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ChainService } from "@slotgate/chain-service";
import { toServerError } from "../chain/chain-errors.js";
import { type ChainHandle, startChain } from "../chain/start-chain.js";
import type { ServerConfig } from "../config/config.js";
import { createLogger } from "../config/logger.js";
import { connectRemoteChain } from "../grpc/client.js";
import { serveChainService } from "../grpc/server.js";
import { SlotgateServerError } from "../http/errors.js";
import { lockDataDir } from "../storage/data-dir-lock.js";
import { openDatabase } from "../storage/database.js";
import { migrate } from "../storage/migrations.js";
import type { CliIo } from "./commands.js";

/** Usage lines of the chain commands (appended to the CLI's usage). */
export const CHAIN_USAGE = `  chain-service                          serve the chain service over gRPC (CHAIN_SERVICE_HOST, CHAIN_SERVICE_PORT)
  release enable|disable --cuid C        platform operator: release settlement for a cuid
  slot register --cuid C --meta-idx N --user-id U
                                         platform operator: record the user's wallet as owner of a slot (buy_slot)
  dev fund-slot --user-id U --xotn WEI   development chain only: XOTN and purchase allowance for a user's slot

  Operator commands reach the chain through RPC_URL (with DATABASE_URL) or a chain-service process
  (CHAIN_SERVICE_URL). The in-process chain lives inside the running server: there, use its dev routes
  (POST /v1/dev/enable_release, /v1/dev/register_slot, /v1/dev/fund_slot).`;

class ChainCommandProblem extends Error {}

async function withChain<T>(config: ServerConfig, fn: (chain: ChainService) => Promise<T>): Promise<T> {
  const mode = config.chain.mode;
  if (mode === "off") throw new ChainCommandProblem("CHAIN=off: this server has no chain");
  if (mode === "in-process") {
    throw new ChainCommandProblem(
      "the in-process chain lives inside the running server; use its dev routes (POST /v1/dev/enable_release, /v1/dev/register_slot, /v1/dev/fund_slot), or run `slotgate-server chain-service` and set CHAIN_SERVICE_URL",
    );
  }
  let handle: ChainHandle | null;
  let close = async (): Promise<void> => undefined;
  if (mode === "remote") handle = await connectRemoteChain(config.chain.serviceUrl as string, { token: config.chain.serviceToken });
  else {
    const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
    const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: join(config.dataDir, "db"), poolSize: 2 });
    close = async () => {
      await db.close();
      release();
    };
    handle = await startChain(config.chain, db, () => undefined);
  }
  try {
    return await fn((handle as ChainHandle).service);
  } finally {
    await handle?.close();
    await close();
  }
}

const wei = /^[1-9][0-9]{0,77}$/;
const id = /^[1-9][0-9]{0,15}$/;

/**
 * Runs a chain CLI command; resolves to the exit code, or null when `argv` is not one. Results are
 * JSON on stdout; chain failures print the wire error body and exit 1; usage problems exit 2.
 *
 * @example
 * ```ts
 * const code = await runChainCommand(["release", "enable", "--cuid", "my-game"], config, io);
 * ```
 */
export async function runChainCommand(argv: string[], config: ServerConfig, env: Record<string, string | undefined>, io: CliIo): Promise<number | null> {
  const [noun, verb] = argv;
  try {
    if (noun === "chain-service") return await serveChainProcess(config, env, io);
    if (noun === "release" && (verb === "enable" || verb === "disable")) {
      const { values } = parseArgs({ args: argv.slice(2), strict: true, options: { cuid: { type: "string" } } });
      if (!values.cuid || !/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(values.cuid)) throw new ChainCommandProblem("--cuid must be a cuid");
      const cuid = values.cuid;
      const result = await withChain(config, (chain) => chain.enableRelease(cuid, verb === "enable"));
      io.out(JSON.stringify({ success: true, cuid, enabled: verb === "enable", tx_hash: result.tx_hash }));
      return 0;
    }
    if (noun === "slot" && verb === "register") {
      const { values } = parseArgs({ args: argv.slice(2), strict: true, options: { cuid: { type: "string" }, "meta-idx": { type: "string" }, "user-id": { type: "string" } } });
      if (!values.cuid || !values["meta-idx"] || !/^[0-9]{1,15}$/.test(values["meta-idx"]) || !values["user-id"] || !id.test(values["user-id"])) {
        throw new ChainCommandProblem("slot register needs --cuid C --meta-idx N --user-id U");
      }
      const args = { cuid: values.cuid, meta_idx: Number(values["meta-idx"]), user_uuid: Number(values["user-id"]) };
      const result = await withChain(config, async (chain) => {
        await chain.provisionWallet(args.user_uuid);
        return chain.registerSlot(args);
      });
      io.out(JSON.stringify({ success: true, cuid: args.cuid, meta_idx: args.meta_idx, ...result }));
      return 0;
    }
    if (noun === "dev" && verb === "fund-slot") {
      const { values } = parseArgs({ args: argv.slice(2), strict: true, options: { "user-id": { type: "string" }, xotn: { type: "string" } } });
      if (!values["user-id"] || !id.test(values["user-id"]) || !values.xotn || !wei.test(values.xotn)) {
        throw new ChainCommandProblem("dev fund-slot needs --user-id U --xotn WEI (a positive integer)");
      }
      const args = { user_uuid: Number(values["user-id"]), xotn: values.xotn };
      const result = await withChain(config, (chain) => chain.devFundSlot(args));
      io.out(JSON.stringify({ success: true, user_id: values["user-id"], slot: result.address, xotn: args.xotn }));
      return 0;
    }
    return null;
  } catch (error) {
    if (error instanceof ChainCommandProblem) {
      io.err(`${error.message}\n\n${CHAIN_USAGE}`);
      return 2;
    }
    const mapped = toServerError(error);
    if (mapped instanceof SlotgateServerError) {
      io.err(JSON.stringify(mapped.toBody()));
      return 1;
    }
    throw error;
  }
}

/** `slotgate-server chain-service`: the chain service as its own process behind gRPC. */
async function serveChainProcess(config: ServerConfig, env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  if (config.chain.mode === "remote") throw new ChainCommandProblem("CHAIN_SERVICE_URL is for the HTTP server; the chain-service process connects to the chain itself (unset it here)");
  if (config.chain.mode === "off") throw new ChainCommandProblem("CHAIN=off: nothing to serve");
  const host = env["CHAIN_SERVICE_HOST"] || "127.0.0.1";
  const rawPort = env["CHAIN_SERVICE_PORT"] || "50051";
  if (!/^[0-9]{1,5}$/.test(rawPort) || Number(rawPort) > 65535) throw new ChainCommandProblem("CHAIN_SERVICE_PORT must be a port number");
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) throw new ChainCommandProblem("CHAIN_SERVICE_HOST must be a host name or IP address");
  const log = createLogger(config.logLevel);
  const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: join(config.dataDir, "db"), poolSize: config.databasePoolSize });
  await migrate(db);
  if (db.kind === "pglite") log.warn(`DEVELOPMENT DEFAULT: embedded database (PGlite) in ${join(config.dataDir, "db")}; set DATABASE_URL for production`);
  const handle = (await startChain(config.chain, db, (w) => log.warn(`DEVELOPMENT DEFAULT: ${w}`))) as ChainHandle;
  if (!config.chain.serviceToken) log.warn("DEVELOPMENT DEFAULT: CHAIN_SERVICE_TOKEN is not set: any process that reaches the port may call the chain service; keep it on loopback or a private network");
  const server = await serveChainService(handle.service, { host, port: Number(rawPort), log, token: config.chain.serviceToken, devChain: handle.devOperator });
  io.err(`\n  Slotgate chain service (gRPC) on ${server.address} — chain: ${handle.mode}\n`);
  const stop = () => {
    void (async () => {
      await server.close();
      await handle.close();
      await db.close();
      release();
      process.exit(0);
    })();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return new Promise<number>(() => undefined);
}
