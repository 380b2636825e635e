import { type JsonRpcProvider, type TransactionReceipt, type Wallet, keccak256 } from "ethers";
import { type TransactionRecord, insertTransaction, markSent, openTransactions, settleTransaction, takeNonce } from "../storage/signers.js";
import { type WriteRecord, markSubmitted, pendingWrites, requeueWrites, writesOfTransaction } from "../storage/writes.js";
import { failWrite } from "./effects.js";
import { LeasedLoop, type LeasedLoopOptions } from "./leased-loop.js";
import { recordConfirmedBlock } from "../storage/chain-state.js";
import { transactionPlace } from "../chain/receipt-outcome.js";

/** A write's final error, as kept and answered. */
export type WriteError = NonNullable<WriteRecord["error"]>;

/** One transaction the planner wants sent for some writes. */
export interface PlannedTransaction {
  writes: WriteRecord[];
  to: string;
  data: string;
  gasLimit: bigint;
}

/** What a signer's writes turn into, and how their receipts settle them (operator calls, user operations). */
export interface WritePlanner {
  /**
   * Turns pending writes into transactions. Writes that cannot be sent get their final error; writes
   * that should wait (a chain hiccup) are left out and stay pending.
   */
  plan(writes: WriteRecord[]): Promise<{ transactions: PlannedTransaction[]; failed: Array<{ write: WriteRecord; error: WriteError }> }>;
  /** Settles the writes of a mined transaction (its receipt's status may be 0: reverted). */
  settle(writes: WriteRecord[], receipt: TransactionReceipt): Promise<void>;
}

/** Options of {@link SignerWriter}. */
export interface SignerWriterOptions extends LeasedLoopOptions {
  provider: JsonRpcProvider;
  /** The signer's key. */
  wallet: Wallet;
  chainId: bigint;
  planner: WritePlanner;
  /** Called with the ids of writes that were settled or failed (wakes the requests that wait for them). */
  onSettled: (ids: readonly string[]) => void;
  /** Most writes planned in one cycle. @default 100 */
  claimLimit?: number;
  /** Most transactions in flight (signed, not yet settled). @default 16 */
  maxInFlight?: number;
  /** A write whose transactions did not land it this many times fails with `chain_reverted`. @default 3 */
  maxAttempts?: number;
  /** A kept transaction without a receipt is handed to the node again after this long, ms. @default 5000 */
  rebroadcastMs?: number;
}

/**
 * @internal The durable sender of one key. Only the instance holding the key's lease (a row of
 * `cs_signers`, see {@link LeasedLoop}) sends, so any number of instances share one key: nonces come
 * from the database, each transaction is signed and kept (`cs_transactions`) before it is sent, and
 * its writes are settled from the receipt. After a crash, the next lease holder finds the kept
 * transactions, sends them again (the same bytes: never a second transaction for them) or settles
 * them from their receipts; a transaction whose nonce the chain used for something else puts its
 * writes back in the queue. Writes are planned into transactions by a {@link WritePlanner}.
 */
export class SignerWriter extends LeasedLoop {
  readonly #o: SignerWriterOptions & { claimLimit: number; maxInFlight: number; maxAttempts: number; rebroadcastMs: number };

  constructor(options: SignerWriterOptions) {
    super(options.wallet.address, options);
    this.#o = { claimLimit: 100, maxInFlight: 16, maxAttempts: 3, rebroadcastMs: 5000, ...options };
  }

  /** Settles what landed, sends what waits. */
  protected async work(): Promise<boolean> {
    const open = await this.#reconcile();
    if (open >= this.#o.maxInFlight) return true;
    return (await this.#sendPending()) || open > 0;
  }
  /** Settles kept transactions from their receipts, sends again those the node lost. Answers how many stay open. */
  async #reconcile(): Promise<number> {
    const { db, provider } = this.#o;
    const open = await openTransactions(db, this.address);
    if (open.length === 0) return 0;
    const chainNonce = BigInt(await provider.getTransactionCount(this.address, "latest"));
    let stillOpen = 0;
    for (const tx of open) {
      const receipt = await provider.getTransactionReceipt(tx.txHash);
      if (receipt !== null) {
        await this.#settle(tx, receipt);
        continue;
      }
      if (tx.nonce < chainNonce) {
        // The chain used this nonce for another transaction (this key was used elsewhere): ours never
        // lands, so its writes go back in the queue; nothing of them happened.
        await settleTransaction(db, this.address, tx.nonce, { status: "replaced" });
        const writes = await writesOfTransaction(db, this.address, tx.nonce);
        await requeueWrites(
          db,
          writes.map((w) => w.id),
          false,
        );
        continue;
      }
      stillOpen += 1;
      if (tx.sentAt === null || Date.now() - tx.sentAt.getTime() > this.#o.rebroadcastMs) await this.#broadcast(tx);
    }
    return stillOpen;
  }

  async #settle(tx: TransactionRecord, receipt: TransactionReceipt): Promise<void> {
    const { db } = this.#o;
    const writes = await writesOfTransaction(db, this.address, tx.nonce);
    await this.#o.planner.settle(writes, receipt);
    // Where it landed and what it did: a chain that loses this block gets it again (chain/rebuild.ts).
    await settleTransaction(db, this.address, tx.nonce, transactionPlace(receipt));
    if (receipt.status === 1) await recordConfirmedBlock(db, receipt.blockNumber, receipt.blockHash);
    this.#o.onSettled(writes.map((w) => w.id));
  }

  async #broadcast(tx: TransactionRecord): Promise<void> {
    try {
      // The raw JSON-RPC call: `provider.broadcastTransaction` also reads the block number and parses the
      // transaction back (recovering its sender's key) to answer a response object nobody here reads.
      await this.#o.provider.send("eth_sendRawTransaction", [tx.raw]);
    } catch (error) {
      // "already known" / "nonce too low": the node has it or mined it; the next reconcile settles it.
      const message = String((error as { message?: unknown })?.message ?? "");
      if (!/already known|nonce too low|known transaction|NONCE_EXPIRED/i.test(message) && (error as { code?: unknown })?.code !== "NONCE_EXPIRED") throw error;
    }
    if (tx.sentAt !== null) this.stats.rebroadcasts += 1;
    await markSent(this.#o.db, this.address, tx.nonce);
  }

  /** Plans the pending writes, signs and keeps each transaction, then sends it. Answers whether any was sent. */
  async #sendPending(): Promise<boolean> {
    const { db, provider, planner, wallet, holder, chainId, maxAttempts } = this.#o;
    const writes = await pendingWrites(db, this.address, this.#o.claimLimit);
    if (writes.length === 0) return false;
    const settledNow: string[] = [];
    const tooMany = writes.filter((w) => w.attempts >= maxAttempts);
    for (const write of tooMany) {
      await failWrite(db, write, { code: "chain_reverted", message: `the chain did not take this write after ${write.attempts} attempts` });
      settledNow.push(write.id);
    }
    const { transactions, failed } = await planner.plan(writes.filter((w) => w.attempts < maxAttempts));
    for (const { write, error } of failed) {
      await failWrite(db, write, error);
      settledNow.push(write.id);
    }
    if (settledNow.length > 0) this.#o.onSettled(settledNow);
    if (transactions.length === 0) return settledNow.length > 0;
    const fees = await provider.getFeeData();
    const maxFeePerGas = fees.maxFeePerGas ?? fees.gasPrice;
    if (maxFeePerGas == null) throw new Error("the node reported no fee data");
    const maxPriorityFeePerGas = fees.maxPriorityFeePerGas ?? maxFeePerGas;
    // "pending": a transaction of this key that another database's writer sent is not given its nonce again.
    const chainNonce = BigInt(await provider.getTransactionCount(this.address, "pending"));
    const kept: TransactionRecord[] = [];
    for (const planned of transactions) {
      const record = await db.transaction(async (tx) => {
        const nonce = await takeNonce(tx, this.address, holder, chainNonce);
        if (nonce === null) return null; // the lease moved to another instance: it sends these writes
        const raw = await wallet.signTransaction({
          type: 2,
          chainId,
          nonce: Number(nonce),
          to: planned.to,
          data: planned.data,
          gasLimit: planned.gasLimit,
          maxFeePerGas,
          maxPriorityFeePerGas,
          value: 0n,
        });
        const txHash = keccak256(raw);
        await insertTransaction(tx, { signer: this.address, nonce, txHash, raw });
        await markSubmitted(
          tx,
          planned.writes.map((w) => w.id),
          this.address,
          nonce,
        );
        return { signer: this.address, nonce, txHash, raw, status: "signed" as const, sentAt: null, createdAt: new Date() };
      });
      if (record === null) {
        this.lostLease();
        break;
      }
      this.stats.transactions += 1;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, planned.writes.length);
      kept.push(record);
    }
    for (const record of kept) await this.#broadcast(record).catch(() => undefined);
    return kept.length > 0;
  }
}
