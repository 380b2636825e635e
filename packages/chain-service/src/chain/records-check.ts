import { getAddress } from "ethers";
import type { ChainServiceWarning } from "../config.js";
import type { ServiceContext } from "../service-context.js";
import { settledAnswer } from "../writes/engine.js";
import { platformIdentity, platformWrite } from "../writes/platform-write.js";
import { ChainServiceError } from "../errors.js";
import type { ChainLoss } from "../storage/chain-losses.js";
import { initChainState, readChainState, resetChainCursor } from "../storage/chain-state.js";
import { listCuids } from "../storage/providers.js";
import { lastLandedBlockKept, rebuildLostBlocks } from "./rebuild.js";

/** What {@link checkRecordsAgainstChain} found and did. */
export interface RecordsCheck {
  /** The chain has every block the database knows about. */
  inStep: boolean;
  /** Kept transactions sent again that landed with the outcome they first had. */
  rebuilt: number;
  /** Provider registrations and release flags made again (recorded before their transactions were kept). */
  repaired: string[];
  /** What the chain lost and could not be rebuilt, by write id (said, never silently dropped). */
  losses: ChainLoss[];
}

/** The losses as one sentence: write ids by reason. */
function describeLosses(losses: readonly ChainLoss[]): string {
  const byReason = new Map<string, string[]>();
  for (const loss of losses)
    byReason.set(loss.reason, [...(byReason.get(loss.reason) ?? []), loss.writeId === null ? `transaction ${loss.txHash}` : `write ${loss.writeId}`]);
  return [...byReason].map(([reason, what]) => `${reason}: ${what.join(", ")}`).join("; ");
}

/**
 * @internal Start-up check that the chain and the database agree (docs/decisions/persisted-chain.md,
 * docs/decisions/chain-rebuild.md):
 *
 * 1. The database belongs to this chain and deployment (chain id, exchange address); a database of
 *    another chain is refused (`chain_unavailable`), never reused.
 * 2. The last block a confirmed write landed in, and the last block any kept transaction landed in, are
 *    still on the chain with the same hashes. When they are not, the chain lost its latest state (a
 *    development chain killed within its state interval, a reorganisation): the kept signed
 *    transactions from the first lost block on are sent again in their order and each receipt is
 *    checked against the recorded outcome ({@link rebuildLostBlocks}); the `chain_rebuilt` warning
 *    says how many. Provider registrations and release flags recorded before their transactions were
 *    kept are made again by the operator. Whatever could not be rebuilt is recorded by write id
 *    (`cs_chain_losses`) and reported with the `chain_behind_database` warning. Database records of
 *    writes are never deleted.
 *
 * It runs before any writer of this process starts sending.
 */
export async function checkRecordsAgainstChain(ctx: ServiceContext, warn: (warning: ChainServiceWarning) => void): Promise<RecordsCheck> {
  const chainId = ctx.chainId.toString();
  const exchange = getAddress(ctx.addresses.exchange);
  const quiet: RecordsCheck = { inStep: true, rebuilt: 0, repaired: [], losses: [] };
  const state = await readChainState(ctx.db);
  if (state === null) {
    await initChainState(ctx.db, chainId, exchange);
    return quiet;
  }
  if (state.chainId !== chainId || getAddress(state.exchange) !== exchange) {
    throw new ChainServiceError(
      "chain_unavailable",
      `this database belongs to chain ${state.chainId} and the exchange at ${state.exchange}, not to the configured chain ${chainId} and exchange ${exchange}`,
    );
  }
  const cursorKept = state.lastBlock === 0 || (await ctx.provider.getBlock(state.lastBlock))?.hash === state.lastBlockHash;
  if (cursorKept && (await lastLandedBlockKept(ctx.db, ctx.provider))) return quiet;

  const headBefore = await ctx.provider.getBlock("latest");
  const started = Date.now();
  const report = await rebuildLostBlocks({
    db: ctx.db,
    provider: ctx.provider,
    development: ctx.development,
    holder: ctx.holder,
    externalBundler: ctx.signers.bundler.startsWith("external-bundler:") ? ctx.signers.bundler : null,
  });
  if (report.leaseHeldElsewhere !== null) {
    // Another live instance sends for these keys: it must not be raced. The cursor stays, so the next start looks again.
    warn({
      code: "chain_behind_database",
      message: `the chain lost blocks the database recorded (from block ${report.fromBlock}), but another running instance holds the lease of ${report.leaseHeldElsewhere.join(", ")} (still after waiting for a stopped instance's lease to run out): nothing was rebuilt; stop every instance and start one to rebuild`,
    });
    return { inStep: false, rebuilt: 0, repaired: [], losses: [] };
  }

  const { repaired, unrepairable } = await repairRegistrations(ctx);
  const after = await ctx.provider.getBlock("latest");
  await resetChainCursor(ctx.db, after?.number ?? 0, after?.hash ?? null);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  ctx.log.info("chain rebuilt", {
    from_block: report.fromBlock,
    rebuilt: report.rebuilt,
    lost: report.losses.length,
    requeued: report.requeued.length,
    seconds,
  });
  warn({
    code: "chain_rebuilt",
    message:
      `the chain lost blocks the database recorded (from block ${report.fromBlock ?? state.lastBlock}; the chain ended at block ${headBefore?.number ?? "?"}): ` +
      `${report.rebuilt} kept transaction${report.rebuilt === 1 ? "" : "s"} sent again landed as they first did` +
      (repaired.length > 0 ? `; made again: ${repaired.join("; ")}` : "") +
      (report.requeued.length > 0 ? `; ${report.requeued.length} writes not yet answered went back in the queue` : "") +
      ` (${seconds} s)`,
  });
  if (report.losses.length > 0 || unrepairable.length > 0) {
    const parts = [
      ...(report.losses.length > 0
        ? [`${report.losses.length} answered writes could not be rebuilt and are recorded in cs_chain_losses (${describeLosses(report.losses)})`]
        : []),
      ...unrepairable,
    ];
    warn({ code: "chain_behind_database", message: `the chain lacks what the database recorded: ${parts.join("; ")}` });
  }
  return { inStep: false, rebuilt: report.rebuilt, repaired, losses: report.losses };
}

/**
 * Provider registrations and release flags the database records that the chain lacks (recorded before
 * their transactions were kept, so the rebuild had none to send): made again by the operator.
 */
async function repairRegistrations(ctx: ServiceContext): Promise<{ repaired: string[]; unrepairable: string[] }> {
  const repaired: string[] = [];
  const unrepairable: string[] = [];
  for (const record of await listCuids(ctx.db)) {
    const onChain = await ctx.contracts.exchange.get_provider(record.cuid);
    const { releasePer, ownerAddr } = record;
    if (!onChain.registered && (releasePer === null || ownerAddr === null)) {
      unrepairable.push(`the provider registration of cuid ${record.cuid} (recorded before its parameters were kept)`);
    } else if (!onChain.registered && releasePer !== null && ownerAddr !== null) {
      const args = [record.clientId, record.cuid, releasePer, ownerAddr] as const;
      settledAnswer(
        await platformWrite(ctx, platformIdentity("repair.init_permission_provider", [...args]), {
          to: ctx.addresses.exchange,
          data: ctx.contracts.exchange.interface.encodeFunctionData("init_permission_provider", [...args]),
          answer: { kind: "transaction" },
          effects: {
            confirmed: [{ kind: "insert_cuid", cuid: record.cuid, client_id: record.clientId, release_per: releasePer, owner_addr: ownerAddr }],
          },
        }),
      );
      repaired.push(`provider registration of cuid ${record.cuid}`);
    }
    if (
      record.releaseEnabled &&
      (await ctx.contracts.exchange.get_provider(record.cuid)).registered &&
      !(await ctx.contracts.exchange._cuid_releaseTokenEnabled(record.cuid))
    ) {
      settledAnswer(
        await platformWrite(ctx, platformIdentity("repair.set_release_enabled", [record.cuid]), {
          to: ctx.addresses.exchange,
          data: ctx.contracts.exchange.interface.encodeFunctionData("set_release_enabled", [record.cuid, true]),
          answer: { kind: "transaction" },
        }),
      );
      repaired.push(`release flag of cuid ${record.cuid}`);
    }
  }
  return { repaired, unrepairable };
}
