import { getAddress } from "ethers";
import type { ChainServiceWarning } from "../config.js";
import type { ServiceContext } from "../context.js";
import { settledAnswer } from "../writes/engine.js";
import { platformIdentity, platformWrite } from "../writes/platform-write.js";
import { ChainServiceError } from "../errors.js";
import { initChainState, readChainState, resetChainCursor } from "../storage/chain-state.js";
import { listCuids } from "../storage/providers.js";
import { forgetChainPosition } from "../storage/signers.js";

/** What {@link checkRecordsAgainstChain} found and did. */
export interface RecordsCheck {
  /** The chain has every block the database knows about. */
  inStep: boolean;
  /** What was made again on the chain from the database's records. */
  repaired: string[];
  /** What the chain lost and the database cannot restore (said, never silently dropped). */
  unrecoverable: string[];
}

/**
 * @internal Start-up check that the chain and the database agree (docs/decisions/persisted-chain.md):
 *
 * 1. The database belongs to this chain and deployment (chain id, exchange address); a database of
 *    another chain is refused (`chain_unavailable`), never reused.
 * 2. The last block a confirmed write landed in is still on the chain with the same hash. When it is
 *    not, the chain lost its latest state (a development chain killed within its state interval, a
 *    reorganisation): provider registrations and release flags the database records are made again on
 *    the chain; what cannot be made again (purchases, spends, slot exchanges, owner rotations signed by
 *    users) is reported with the `chain_behind_database` warning. Database records are never deleted.
 *    The nonces the database tracks are read again from the chain and writes not yet landed are sent
 *    again (before any writer of this process starts sending).
 */
export async function checkRecordsAgainstChain(ctx: ServiceContext, warn: (warning: ChainServiceWarning) => void): Promise<RecordsCheck> {
  const chainId = ctx.chainId.toString();
  const exchange = getAddress(ctx.addresses.exchange);
  const state = await readChainState(ctx.db);
  if (state === null) {
    await initChainState(ctx.db, chainId, exchange);
    return { inStep: true, repaired: [], unrecoverable: [] };
  }
  if (state.chainId !== chainId || getAddress(state.exchange) !== exchange) {
    throw new ChainServiceError(
      "chain_unavailable",
      `this database belongs to chain ${state.chainId} and the exchange at ${state.exchange}, not to the configured chain ${chainId} and exchange ${exchange}`,
    );
  }
  if (state.lastBlock === 0) return { inStep: true, repaired: [], unrecoverable: [] };
  const block = await ctx.provider.getBlock(state.lastBlock);
  if (block !== null && block.hash === state.lastBlockHash) return { inStep: true, repaired: [], unrecoverable: [] };

  // The signers' and wallets' nonces the database tracks are ahead of the chain now, and transactions
  // kept for sending may never land: they are taken again from the chain, and the writes go back in the queue.
  await forgetChainPosition(ctx.db);
  const head = await ctx.provider.getBlock("latest");
  const repaired: string[] = [];
  const unrecoverable: string[] = [
    `the chain ends at block ${head?.number ?? "?"} but the database saw a write land in block ${state.lastBlock}: purchases, spends, transfers, slot exchanges and owner rotations after the chain's last block are not on chain and cannot be made again from the database (it keeps no copy of balances)`,
  ];
  for (const record of await listCuids(ctx.db)) {
    const onChain = await ctx.contracts.exchange.get_provider(record.cuid);
    if (!onChain.registered) {
      if (record.releasePer === null || record.ownerAddr === null) {
        unrecoverable.push(`provider registration of cuid ${record.cuid} (recorded before its parameters were kept)`);
        continue;
      }
      const args = [record.clientId, record.cuid, record.releasePer, record.ownerAddr] as const;
      settledAnswer(
        await platformWrite(ctx, platformIdentity("repair.init_permission_provider", [...args]), {
          to: ctx.addresses.exchange,
          data: ctx.contracts.exchange.interface.encodeFunctionData("init_permission_provider", [...args]),
          answer: { kind: "transaction" },
          effects: {
            confirmed: [{ kind: "insert_cuid", cuid: record.cuid, client_id: record.clientId, release_per: record.releasePer, owner_addr: record.ownerAddr }],
          },
        }),
      );
      repaired.push(`provider registration of cuid ${record.cuid}`);
    }
    if (record.releaseEnabled && !(await ctx.contracts.exchange._cuid_releaseTokenEnabled(record.cuid))) {
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
  const after = await ctx.provider.getBlock("latest");
  await resetChainCursor(ctx.db, after?.number ?? 0, after?.hash ?? null);
  warn({
    code: "chain_behind_database",
    message: `the chain lost state the database recorded. Repaired: ${repaired.length > 0 ? repaired.join("; ") : "nothing"}. Not repairable: ${unrecoverable.join("; ")}`,
  });
  return { inStep: false, repaired, unrecoverable };
}
