import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ChainService } from "@slotgate/chain-service";
import { isPendingWrite } from "@slotgate/protocol";
import { clientIdParamSchema, cuid as cuidSchema, primitives, providerCuidSchema, summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import { providerOf, registerCuid, rotateProviderKey, setReplayProtection } from "../provider.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { findClient } from "../../oauth/clients/clients-store.js";
import { type ChainHandle, logChainWarning, startChain } from "../../chain-api/chain/start-chain.js";
import { ConfigError, type ServerConfig } from "../../platform/config/config.js";
import { createLogger } from "../../platform/config/logger.js";
import { refuseDevelopmentDefaults } from "../../platform/config/production.js";
import { connectRemoteChain } from "../../chain-api/grpc/client.js";
import { linkCredentialWarning, serveChainService } from "../../chain-api/grpc/server.js";
import { asServerError } from "../../platform/http/error-handler.js";
import { openServerDatabase } from "../../server.js";
import type { CliIo } from "./commands.js";

/** Usage lines of the chain commands (appended to the CLI's usage). */
export const CHAIN_USAGE = `  chain-service                          serve the chain service over gRPC (CHAIN_SERVICE_HOST, CHAIN_SERVICE_PORT)
  release enable|disable --cuid C        platform operator: release settlement for a cuid
  slot register --cuid C --meta-idx N --user-id U
                                         platform operator: record the user's wallet as owner of a slot (buy_slot)
  provider status --client-id C          a client's provider side as JSON: key state, replay protection, cuids
                                         with release_per and release flag
  provider register-cuid --client-id C --cuid C --release-per N --owner-addr 0x…
                                         init_permission_provider; the first prints the AES key and IV, once
  provider replay-protection on|off --client-id C
                                         the spend replay protection
  provider rotate-key --client-id C      new AES key and IV (printed once); the old ones decrypt for
                                         PROVIDER_KEY_OVERLAP_SECONDS more
  dev fund-slot --client-id C --cuid C --user-id U --xotn WEI
                                         development chain only: XOTN for a user's slot and its purchase
                                         consent for that client's cuid

  Operator commands reach the chain through RPC_URL (with DATABASE_URL) or a chain-service process
  (CHAIN_SERVICE_URL). The development chain (CHAIN=anvil) is managed by the running server: there, use
  its dev routes (POST /v1/dev/enable_release, /v1/dev/register_slot, /v1/dev/fund_slot).`;

class ChainCommandProblem extends Error {}

async function withChain<T>(config: ServerConfig, fn: (chain: ChainService) => Promise<T>): Promise<T> {
  const mode = config.chain.mode;
  if (mode === "off") throw new ChainCommandProblem("CHAIN=off: this server has no chain");
  if (mode === "anvil") {
    throw new ChainCommandProblem(
      "the development chain (CHAIN=anvil) is managed by the running server; use its dev routes (POST /v1/dev/enable_release, /v1/dev/register_slot, /v1/dev/fund_slot), or run `slotgate-server chain-service` and set CHAIN_SERVICE_URL",
    );
  }
  let handle: ChainHandle | null;
  let close = async (): Promise<void> => undefined;
  if (mode === "remote")
    handle = await connectRemoteChain(config.chain.serviceUrl as string, { token: config.chain.serviceToken, tls: config.chain.tls.client });
  else {
    const db = await openServerDatabase(config, { poolSize: 2 });
    close = () => db.close();
    handle = await startChain(config.chain, db, { dataDir: config.dataDir, warn: () => undefined });
  }
  try {
    return await fn((handle as ChainHandle).service);
  } finally {
    await handle?.close();
    await close();
  }
}

const isWei = (value: string | undefined): value is string => primitives.positiveUintString.safeParse(value).success;
const isUserId = (value: string | undefined): value is string => primitives.userIdString.safeParse(value).success;

/**
 * Runs a chain CLI command; resolves to the exit code, or null when `argv` is not one. Results are
 * JSON on stdout; chain failures print the wire error body and exit 1; usage problems exit 2.
 *
 * @example
 * ```ts
 * const code = await runChainCommand(["release", "enable", "--cuid", "my-game"], config, io);
 * ```
 */
export async function runChainCommand(argv: string[], config: ServerConfig, io: CliIo): Promise<number | null> {
  const [noun, verb] = argv;
  try {
    if (noun === "chain-service") return await serveChainProcess(config, io);
    if (noun === "release" && (verb === "enable" || verb === "disable")) {
      const { values } = parseArgs({ args: argv.slice(2), strict: true, options: { cuid: { type: "string" } } });
      if (!cuidSchema.safeParse(values.cuid).success) throw new ChainCommandProblem("--cuid must be a cuid");
      const cuid = values.cuid as string;
      const result = await withChain(config, (chain) => chain.enableRelease(cuid, verb === "enable"));
      io.out(JSON.stringify(isPendingWrite(result) ? result : { success: true, cuid, enabled: verb === "enable", tx_hash: result.tx_hash }));
      return 0;
    }
    if (noun === "slot" && verb === "register") {
      const { values } = parseArgs({
        args: argv.slice(2),
        strict: true,
        options: { cuid: { type: "string" }, "meta-idx": { type: "string" }, "user-id": { type: "string" } },
      });
      if (!cuidSchema.safeParse(values.cuid).success || !/^[0-9]{1,15}$/.test(values["meta-idx"] ?? "") || !isUserId(values["user-id"])) {
        throw new ChainCommandProblem("slot register needs --cuid C --meta-idx N --user-id U");
      }
      const args = { cuid: values.cuid as string, meta_idx: Number(values["meta-idx"]), user_uuid: Number(values["user-id"]) };
      const result = await withChain(config, async (chain) => {
        await chain.provisionWallet(args.user_uuid);
        return chain.registerSlot(args);
      });
      io.out(JSON.stringify({ success: true, cuid: args.cuid, meta_idx: args.meta_idx, ...result }));
      return 0;
    }
    if (noun === "provider" && verb !== undefined && ["status", "register-cuid", "replay-protection", "rotate-key"].includes(verb)) {
      return await providerCommand(argv, config, io);
    }
    if (noun === "dev" && verb === "fund-slot") {
      const { values } = parseArgs({
        args: argv.slice(2),
        strict: true,
        options: { "client-id": { type: "string" }, cuid: { type: "string" }, "user-id": { type: "string" }, xotn: { type: "string" } },
      });
      const clientId = values["client-id"];
      if (
        !isUserId(values["user-id"]) ||
        !isWei(values.xotn) ||
        !cuidSchema.safeParse(values.cuid).success ||
        !primitives.text(128).safeParse(clientId).success
      ) {
        throw new ChainCommandProblem("dev fund-slot needs --client-id C --cuid C --user-id U --xotn WEI (a positive integer)");
      }
      const args = { user_uuid: Number(values["user-id"]), xotn: values.xotn, cuid: values.cuid as string, client_id: clientId as string };
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
    const known = asServerError(error);
    if (known) {
      io.err(JSON.stringify(known.toBody()));
      return 1;
    }
    throw error;
  }
}

/** `slotgate-server provider <verb>`: the provider side of a client, as the developer center offers it (audit actor `cli`). */
async function providerCommand(argv: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const verb = argv[1] as "status" | "register-cuid" | "replay-protection" | "rotate-key";
  const rest = argv.slice(2);
  const onOff = verb === "replay-protection" ? rest.shift() : undefined;
  if (verb === "replay-protection" && onOff !== "on" && onOff !== "off") throw new ChainCommandProblem("provider replay-protection needs on or off");
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { "client-id": { type: "string" }, cuid: { type: "string" }, "release-per": { type: "string" }, "owner-addr": { type: "string" } },
  });
  const id = clientIdParamSchema.safeParse({ client_id: values["client-id"] });
  if (!id.success) throw new ChainCommandProblem(`provider ${verb} needs --client-id C`);
  const clientId = id.data.client_id;
  const cuidRequest =
    verb === "register-cuid"
      ? providerCuidSchema.safeParse({
          cuid: values.cuid,
          release_per: /^[0-9]{1,6}$/.test(values["release-per"] ?? "") ? Number(values["release-per"]) : values["release-per"],
          owner_addr: values["owner-addr"],
        })
      : null;
  if (cuidRequest && !cuidRequest.success) throw new ChainCommandProblem(`provider register-cuid: ${summarizeDetails(validationDetails(cuidRequest.error))}`);
  const db = await openServerDatabase(config, { poolSize: 2 });
  try {
    const client = await findClient(db, clientId);
    if (!client || client.deleted_at !== null) throw new SlotgateServerError("client_not_found");
    const actor = { devUserId: client.dev_user_id, label: "cli" };
    const answer = await withChain<unknown>(config, (chain) => {
      const deps = { db, chain, keyOverlapSeconds: config.providerKeyOverlapSeconds };
      if (verb === "status") return providerOf(deps, actor, clientId);
      if (verb === "register-cuid") return registerCuid(deps, actor, clientId, cuidRequest!.data!, {});
      if (verb === "replay-protection") return setReplayProtection(deps, actor, clientId, onOff === "on");
      return rotateProviderKey(deps, actor, clientId);
    });
    io.out(JSON.stringify(answer));
    return 0;
  } finally {
    await db.close();
  }
}

/** `slotgate-server chain-service`: the chain service as its own process behind gRPC. */
async function serveChainProcess(config: ServerConfig, io: CliIo): Promise<number> {
  if (config.chain.mode === "remote")
    throw new ChainCommandProblem("CHAIN_SERVICE_URL is for the HTTP server; the chain-service process connects to the chain itself (unset it here)");
  if (config.chain.mode === "off") throw new ChainCommandProblem("CHAIN=off: nothing to serve");
  refuseDevelopmentDefaults(config, "chain-service");
  const { host, port } = config.chain.listen;
  // Refuse before opening anything: off loopback the link needs a credential (the warning is logged when serving).
  linkCredentialWarning({ host, token: config.chain.serviceToken, tls: config.chain.tls.server });
  if (!config.chain.service?.callerKeys) {
    throw new ConfigError(
      "CHAIN_CALLER_JWKS_URL",
      "is required by the chain-service process: the front service's JWKS (its /.well-known/jwks.json), whose keys sign the caller assertions of user calls (or set CHAIN_CALLER_JWKS)",
    );
  }
  const log = createLogger(config.logLevel);
  const db = await openServerDatabase(config);
  if (db.kind === "pglite") log.warn(`DEVELOPMENT DEFAULT: embedded database (PGlite) in ${join(config.dataDir, "db")}; set DATABASE_URL for production`);
  const handle = (await startChain(config.chain, db, { dataDir: config.dataDir, warn: logChainWarning(log), log })) as ChainHandle;
  const server = await serveChainService(handle.service, {
    host,
    port,
    log,
    token: config.chain.serviceToken,
    tls: config.chain.tls.server,
    devChain: handle.devOperator,
  });
  io.err(`\n  Slotgate chain service (gRPC) on ${server.address} — chain: ${handle.mode}\n`);
  const stop = () => {
    void (async () => {
      await server.close();
      await handle.close();
      await db.close();
      process.exit(0);
    })();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return new Promise<number>(() => undefined);
}
