import type { Database } from "@slotgate/storage";
import type { SlotgateContracts } from "@slotgate/contracts";
import { type JsonRpcProvider, type TransactionReceipt, getAddress } from "ethers";
import { revertError, specificError } from "../chain/revert-error.js";
import { ChainServiceError } from "../errors.js";
import { type WriteRecord, markSolo, requeueWrites } from "../storage/writes.js";
import { type CallAnswer, callAnswer, spendAnswers } from "./answers.js";
import { type WriteEffects, confirmWrite, failWrite } from "./effects.js";
import type { PlannedTransaction, WriteError, WritePlanner } from "./signer-writer.js";

/** Payload of a `call` write: one transaction of a platform key, how its answer is read, its bookkeeping. */
export interface CallPayload {
  to: string;
  data: string;
  answer: CallAnswer;
  effects?: WriteEffects;
}

/** Payload of a `spend` write: spending recorded for a slot under a cuid; spends of one cuid share a transaction. */
export interface SpendWritePayload {
  cuid: string;
  slot: string;
  amount: string;
  effects?: WriteEffects;
}

/** Most spends in one batch transaction by default (`ChainServiceConfig.spendBatchLimit`). */
export const SPEND_BATCH_LIMIT = 50;

/** The largest `spendBatchLimit` accepted: a writer plans at most 100 writes per cycle. */
export const MAX_SPEND_BATCH_LIMIT = 100;

const asError = (error: unknown): WriteError => {
  const known = specificError(revertError(error));
  if (known instanceof ChainServiceError) {
    return { code: known.code, message: known.message, ...(known.details ? { details: known.details } : {}) };
  }
  return { code: "chain_reverted", message: "the blockchain rejected the transaction" };
};

/** A failed estimate that says nothing about the write itself (the node did not answer): try again later. */
const transient = (error: unknown): boolean => revertError(error).code === "chain_unavailable";

/**
 * @internal Plans the operator's writes: each `call` write is one transaction; `spend` writes of one
 * cuid go into `increase_used_batch` transactions of up to `spendBatchLimit` spends (default
 * {@link SPEND_BATCH_LIMIT}) when the exchange has it and the limit is above 1, else one `increase_used` each. Every transaction is estimated first: a call that would revert
 * fails with its specific error and sends nothing; a batch whose estimate fails is split, and its
 * spends are sent alone. Receipts settle the writes with the answers the endpoints give.
 */
export class OperatorPlanner implements WritePlanner {
  constructor(
    private readonly o: {
      db: Database;
      provider: JsonRpcProvider;
      contracts: SlotgateContracts;
      exchange: string;
      /** The address that sends these writes (estimates run as it). */
      from: string;
      /** Most spends in one batch transaction; 1: one `increase_used` per spend. @default {@link SPEND_BATCH_LIMIT} */
      spendBatchLimit?: number;
    },
  ) {}

  async plan(writes: WriteRecord[]): Promise<{ transactions: PlannedTransaction[]; failed: Array<{ write: WriteRecord; error: WriteError }> }> {
    const transactions: PlannedTransaction[] = [];
    const failed: Array<{ write: WriteRecord; error: WriteError }> = [];
    const limit = this.o.spendBatchLimit ?? SPEND_BATCH_LIMIT;
    const batchable = limit > 1 && this.o.contracts.exchange.interface.getFunction("increase_used_batch") !== null;
    // Spends of one cuid in batches of at most `limit`, in arrival order.
    const groups: Array<{ cuid: string; group: WriteRecord[] }> = [];
    const open = new Map<string, WriteRecord[]>();
    const singles: WriteRecord[] = [];
    for (const write of writes) {
      if (write.kind === "spend" && batchable && !write.solo) {
        const cuid = (write.payload as unknown as SpendWritePayload).cuid;
        let group = open.get(cuid);
        if (group === undefined || group.length >= limit) {
          group = [];
          open.set(cuid, group);
          groups.push({ cuid, group });
        }
        group.push(write);
        continue;
      }
      singles.push(write);
    }
    for (const { cuid, group } of groups) {
      if (group.length === 1) {
        singles.push(group[0] as WriteRecord);
        continue;
      }
      const spends = group.map((w) => w.payload as unknown as SpendWritePayload);
      const data = this.o.contracts.exchange.interface.encodeFunctionData("increase_used_batch", [
        cuid,
        spends.map((s) => getAddress(s.slot)),
        spends.map((s) => BigInt(s.amount)),
      ]);
      try {
        transactions.push({ writes: group, to: this.o.exchange, data, gasLimit: await this.#estimate(this.o.exchange, data) });
      } catch (error) {
        if (transient(error)) continue;
        await markSolo(
          this.o.db,
          group.map((w) => w.id),
        ); // one of them would revert: find it alone
      }
    }
    for (const write of singles) {
      const { to, data } = this.#call(write);
      try {
        transactions.push({ writes: [write], to, data, gasLimit: await this.#estimate(to, data) });
      } catch (error) {
        if (!transient(error)) failed.push({ write, error: asError(error) });
      }
    }
    return { transactions, failed };
  }

  #call(write: WriteRecord): { to: string; data: string } {
    if (write.kind === "spend") {
      const spend = write.payload as unknown as SpendWritePayload;
      return {
        to: this.o.exchange,
        data: this.o.contracts.exchange.interface.encodeFunctionData("increase_used", [getAddress(spend.slot), spend.cuid, BigInt(spend.amount)]),
      };
    }
    const call = write.payload as unknown as CallPayload;
    return { to: call.to, data: call.data };
  }

  async #estimate(to: string, data: string): Promise<bigint> {
    const gas = await this.o.provider.estimateGas({ from: this.o.from, to, data });
    return (gas * 12n) / 10n + 10_000n;
  }

  async settle(writes: WriteRecord[], receipt: TransactionReceipt): Promise<void> {
    if (receipt.status !== 1) {
      // Nothing of a reverted transaction happened: try its writes again, alone (the next estimate names the reason).
      await requeueWrites(
        this.o.db,
        writes.map((w) => w.id),
        true,
      );
      return;
    }
    // Every answer first. A spend's comes from its UsedBalanceIncreased event (no read from the node); a
    // call's from its events.
    const spendWrites = writes.filter((write) => write.kind === "spend");
    const fromEvents = spendAnswers(
      this.o.contracts,
      spendWrites.map((write) => write.payload as unknown as SpendWritePayload),
      receipt,
    );
    const settled: Array<{ write: WriteRecord; answer: Record<string, unknown> } | { write: WriteRecord; error: WriteError }> = [];
    for (const write of writes) {
      try {
        const answer =
          write.kind === "spend"
            ? fromEvents[spendWrites.indexOf(write)]
            : callAnswer(this.o.contracts, (write.payload as unknown as CallPayload).answer, receipt);
        if (!answer) throw new Error("the transaction recorded no UsedBalanceIncreased event for this spend");
        settled.push({ write, answer });
      } catch (error) {
        settled.push({ write, error: { code: "internal_error", message: error instanceof Error ? error.message : "the answer could not be built" } });
      }
    }
    for (const outcome of settled) {
      if ("answer" in outcome) await confirmWrite(this.o.db, outcome.write, outcome.answer, receipt.hash);
      else await failWrite(this.o.db, outcome.write, outcome.error);
    }
  }
}
