import type { Database } from "@slotgate/storage";
import type { JsonRpcProvider, TransactionReceipt } from "ethers";
import { type ChainLoss, type ChainLossReason, recordChainLosses } from "../storage/chain-losses.js";
import {
  type LandedTransactionRecord,
  abandonOpenTransactions,
  acquireLease,
  landedBlocks,
  landedSince,
  lastLandedBlock,
  relandTransaction,
  releaseLease,
  reopenTransaction,
} from "../storage/signers.js";
import { forgetAllWalletNonces } from "../storage/wallet-nonces.js";
import { confirmedHandedOverSince, writesOfTransaction } from "../storage/writes.js";
import { transactionPlace } from "./receipt-outcome.js";
import { WRITER_LEASE_MS } from "../writes/leased-loop.js";

/** What {@link rebuildLostBlocks} needs. */
export interface RebuildOptions {
  db: Database;
  provider: JsonRpcProvider;
  /**
   * A development chain (Anvil): each rebuilt block gets the time its transaction was first signed
   * (`anvil_setTime`, `evm_setNextBlockTimestamp`), so a sponsorship window that held then holds
   * again, and the node's clock is set back to the wall clock afterwards.
   */
  development: boolean;
  /** This process's id in the signers' leases: only the lease holder of a key sends its transactions. */
  holder: string;
  /** The external bundler's queue id, when operations go to one (its bundles are not this service's to send). */
  externalBundler?: string | null;
  /** How long one rebuilt transaction may take to land, ms. @default 30000 on a development chain, 120000 elsewhere */
  receiptTimeoutMs?: number;
  /** How long a signer's lease is taken for, ms. @default 60000 */
  leaseMs?: number;
  /**
   * How long to wait for a lease another holder has, ms: an instance killed a moment ago (kill -9, a crash) still
   * holds its signers' leases until they run out, at most {@link WRITER_LEASE_MS} after its last renewal. A live
   * instance renews its lease, so it still holds it after the wait, and nothing is rebuilt. @default WRITER_LEASE_MS + 5000
   */
  leaseWaitMs?: number;
}

/** What {@link rebuildLostBlocks} found and did. */
export interface RebuildReport {
  /** The first block the chain lost that a kept transaction had landed in (null: none lost). */
  fromBlock: number | null;
  /** Kept transactions that landed again with the outcome they first had. */
  rebuilt: number;
  /** What could not be rebuilt, by write id (also recorded in `cs_chain_losses`). */
  losses: ChainLoss[];
  /** Writes put back in the queue (not answered yet; their transactions follow a nonce that could not be rebuilt). */
  requeued: string[];
  /** The signers whose lease another live instance holds: nothing was sent for them (null: none). */
  leaseHeldElsewhere: string[] | null;
}

/**
 * @internal Whether the chain still has the last block a kept transaction of this service landed in,
 * with the same hash (one block read).
 */
export async function lastLandedBlockKept(db: Database, provider: JsonRpcProvider): Promise<boolean> {
  const last = await lastLandedBlock(db);
  if (last === null) return true;
  return (await provider.getBlock(last.blockNumber))?.hash === last.blockHash;
}

/**
 * The first block a kept transaction landed in that the chain no longer has (by number and hash), or
 * null. The chain is a hash chain: once one recorded block is missing, every later one is too, so the
 * recorded blocks are searched by halves (a handful of block reads for any history).
 */
async function firstLostBlock(db: Database, provider: JsonRpcProvider): Promise<number | null> {
  const blocks = await landedBlocks(db);
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const recorded = blocks[middle] as (typeof blocks)[number];
    if ((await provider.getBlock(recorded.blockNumber))?.hash === recorded.blockHash) low = middle + 1;
    else high = middle;
  }
  return blocks[low]?.blockNumber ?? null;
}

/** The losses of one transaction: one per write it carried (one for the transaction when its writes were purged). */
async function lossesOf(db: Database, tx: LandedTransactionRecord, reason: ChainLossReason, message: string): Promise<ChainLoss[]> {
  const writes = await writesOfTransaction(db, tx.signer, tx.nonce);
  const base = { txSigner: tx.signer, txNonce: tx.nonce, txHash: tx.txHash, reason, message };
  return writes.length === 0 ? [{ writeId: null, ...base }] : writes.map((write) => ({ writeId: write.id, ...base }));
}

/** Sends a kept transaction again; answers the node's refusal, or null when it took it (or knew it). */
async function sendAgain(provider: JsonRpcProvider, raw: string): Promise<string | null> {
  try {
    await provider.broadcastTransaction(raw);
    return null;
  } catch (error) {
    const message = String((error as { shortMessage?: unknown; message?: unknown })?.shortMessage ?? (error as { message?: unknown })?.message ?? error);
    if (/already known|known transaction/i.test(message)) return null;
    return message.slice(0, 300);
  }
}

async function waitForReceipt(provider: JsonRpcProvider, hash: string, timeoutMs: number, development: boolean): Promise<TransactionReceipt | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt !== null || Date.now() > deadline) return receipt;
    await new Promise((resolve) => setTimeout(resolve, development ? 20 : 1000));
  }
}

/** Calls a development node's JSON-RPC extension; answers false when the node refused it or has none (the rebuild goes on without it). */
async function nodeCall(provider: JsonRpcProvider, method: string, params: unknown[]): Promise<boolean> {
  try {
    await provider.send(method, params);
    return true;
  } catch {
    return false;
  }
}

/**
 * @internal Rebuilds what the chain lost (docs/decisions/chain-rebuild.md). Every transaction this
 * service sent was signed and kept in `cs_transactions` before it was sent, and settled with where it
 * landed and what it did. When the chain no longer has a block one of them landed in (a development
 * chain killed within its state interval; a reorganisation), the kept transactions from that block on
 * are sent again, byte for byte, in the order they first landed (block, then index in the block; so
 * each key's nonces stay in order and one key's transaction that depended on another's comes after it),
 * one at a time, each waited for. Each receipt is compared with the recorded outcome (status and
 * events, {@link transactionPlace}); an equal one moves the record to its new block. What cannot be
 * rebuilt is reported by write id and kept in `cs_chain_losses`, never silently dropped:
 * a transaction the node refuses (`refused`, and the same key's later ones: `nonce_gap`, whose writes
 * not yet answered go back in the queue), one that lands with another outcome (`outcome_changed`), one
 * that does not land in time (`not_mined`: it stays kept, the writer sends it on), and operations an
 * external bundler landed (`external_bundler`). The signers' leases are held meanwhile, so no writer
 * sends beside the rebuild.
 *
 * @example
 * ```ts
 * const report = await rebuildLostBlocks({ db, provider, development: true, holder });
 * console.log(report.rebuilt, report.losses.map((loss) => loss.writeId));
 * ```
 */
export async function rebuildLostBlocks(options: RebuildOptions): Promise<RebuildReport> {
  const { db, provider, holder } = options;
  const report: RebuildReport = { fromBlock: null, rebuilt: 0, losses: [], requeued: [], leaseHeldElsewhere: null };
  const fromBlock = await firstLostBlock(db, provider);
  const head = await provider.getBlock("latest");
  if (fromBlock !== null) {
    report.fromBlock = fromBlock;
    const lost = await landedSince(db, fromBlock);
    const signers = [...new Set(lost.map((tx) => tx.signer))];
    const leaseMs = options.leaseMs ?? 60_000;
    const held: string[] = [];
    const deadline = Date.now() + (options.leaseWaitMs ?? WRITER_LEASE_MS + 5_000);
    for (;;) {
      for (const signer of signers) if (!held.includes(signer) && (await acquireLease(db, signer, holder, leaseMs))) held.push(signer);
      if (held.length === signers.length || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    try {
      if (held.length < signers.length) {
        report.leaseHeldElsewhere = signers.filter((signer) => !held.includes(signer));
        return report;
      }
      await rebuild(options, lost, head?.timestamp ?? 0, report);
    } finally {
      for (const signer of held) await releaseLease(db, signer, holder).catch(() => undefined);
    }
  }
  if (options.externalBundler) {
    // Operations an external bundler landed after the chain's surviving head: this service never held
    // their bundles' bytes, so each one still missing is reported.
    const since = new Date(((head?.timestamp ?? 0) - 60) * 1000);
    for (const write of await confirmedHandedOverSince(db, options.externalBundler, since)) {
      const hash = String(write.result?.["tx_hash"] ?? write.result?.["transaction_hash"] ?? "");
      if (hash !== "" && (await provider.getTransactionReceipt(hash)) !== null) continue;
      report.losses.push({
        writeId: write.id,
        txSigner: options.externalBundler,
        txNonce: null,
        txHash: hash,
        reason: "external_bundler",
        message: "an external bundler landed this operation in a block the chain lost; this service keeps no signed copy of that bundle",
      });
    }
  }
  if (report.losses.length > 0) {
    await recordChainLosses(db, report.losses);
    // Operations counted by the database that the chain does not have: each wallet's next operation reads its nonces from the chain.
    await forgetAllWalletNonces(db);
  }
  return report;
}

async function rebuild(options: RebuildOptions, lost: readonly LandedTransactionRecord[], headTimestamp: number, report: RebuildReport): Promise<void> {
  const { db, provider, development } = options;
  const timeoutMs = options.receiptTimeoutMs ?? (development ? 30_000 : 120_000);
  const automine = development
    ? await provider.send("anvil_getAutomine", []).then(
        (on: unknown) => on !== false,
        () => true,
      )
    : true;
  const gapped = new Set<string>();
  const waiting = new Set<string>();
  let clock = headTimestamp;
  let pinned = false;
  for (const tx of lost) {
    if (gapped.has(tx.signer)) {
      report.losses.push(
        ...(await lossesOf(db, tx, "nonce_gap", `an earlier transaction of ${tx.signer} could not be sent again, so nonce ${tx.nonce} cannot land`)),
      );
      await relandTransaction(db, tx.signer, tx.nonce, { status: "replaced" });
      continue;
    }
    let receipt = await provider.getTransactionReceipt(tx.txHash);
    if (receipt === null) {
      if (development) {
        // The block gets the time the transaction was first signed (it landed then or shortly after), after the block before it.
        const at = Math.max(clock + 1, Math.floor(tx.createdAt.getTime() / 1000));
        // Anvil refuses a next timestamp below its clock (the wall clock at its start): the clock is set first.
        if ((await nodeCall(provider, "anvil_setTime", [at])) && (await nodeCall(provider, "evm_setNextBlockTimestamp", [at]))) {
          clock = at;
          pinned = true;
        }
      }
      const refused = await sendAgain(provider, tx.raw);
      if (refused !== null) {
        receipt = await provider.getTransactionReceipt(tx.txHash);
        if (receipt === null) {
          // A nonce the chain has not used yet leaves a gap: the key's later transactions cannot land either.
          if (BigInt(await provider.getTransactionCount(tx.signer, "latest")) <= tx.nonce) gapped.add(tx.signer);
          report.losses.push(...(await lossesOf(db, tx, "refused", `the node refused the kept transaction when it was sent again: ${refused}`)));
          await relandTransaction(db, tx.signer, tx.nonce, { status: "replaced" });
          continue;
        }
      }
      if (receipt === null && !automine) await nodeCall(provider, "evm_mine", []);
      if (receipt === null) receipt = waiting.has(tx.signer) ? null : await waitForReceipt(provider, tx.txHash, timeoutMs, development);
      if (receipt === null) {
        // It is with the node: kept open, the signer's writer settles it when it lands (its writes keep their answers).
        waiting.add(tx.signer);
        report.losses.push(
          ...(await lossesOf(db, tx, "not_mined", `sent again, it did not land within ${Math.round(timeoutMs / 1000)} s; the writer keeps sending it`)),
        );
        await reopenTransaction(db, tx.signer, tx.nonce);
        continue;
      }
    }
    const place = transactionPlace(receipt);
    await relandTransaction(db, tx.signer, tx.nonce, place);
    if (place.status === tx.status && (tx.outcome === null || tx.outcome === place.outcome)) {
      report.rebuilt += 1;
      continue;
    }
    const what =
      place.status !== tx.status
        ? `it ${place.status === "mined" ? "succeeded" : "reverted"} where it first ${tx.status === "mined" ? "succeeded" : "reverted"}`
        : "it emitted other events than the first time";
    report.losses.push(
      ...(await lossesOf(
        db,
        tx,
        "outcome_changed",
        `sent again, ${what} (something it depended on was lost with the block and is not this service's to send)`,
      )),
    );
  }
  for (const signer of gapped) report.requeued.push(...(await abandonOpenTransactions(db, signer)));
  // The node's clock back to the wall clock (never backwards).
  if (pinned) await nodeCall(provider, "anvil_setTime", [Math.max(clock, Math.floor(Date.now() / 1000))]);
}
