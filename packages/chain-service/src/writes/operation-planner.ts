import type { Database, Queryable } from "@slotgate/storage";
import {
  ContractsError,
  type UserOperation,
  decodeContractError,
  entryPointAbi,
  handleOpsTransaction,
  simulateHandleOps,
  userOperationOutcomes,
} from "@slotgate/contracts";
import { type JsonRpcProvider, Interface, type TransactionReceipt, getAddress } from "ethers";
import { specificError } from "../chain/revert-error.js";
import { ChainServiceError } from "../errors.js";
import { settleSponsorship } from "../storage/sponsorship.js";
import { forgetWalletNonces } from "../storage/wallet-nonces.js";
import { type WriteRecord, requeueWrites } from "../storage/writes.js";
import { type OperationShape, operationAnswer } from "./answers.js";
import { type WriteEffects, confirmWrite, failWrite } from "./effects.js";
import type { PlannedTransaction, WriteError, WritePlanner } from "./signer-writer.js";

/** Payload of a `user_operation` write: the signed operation and what its answer carries besides the receipt. */
export interface OperationPayload {
  /** The operation with quantities as 0x-hex strings (`userOperationToRpc`). */
  op: Record<keyof UserOperation, string>;
  userOpHash: string;
  sender: string;
  /** Whether the operation deploys its wallet (it carries initCode). */
  deploysWallet: boolean;
  /** Which endpoint's answer it gives, and the fields of it known at signing (the wallet, a slot's new owner, ...). */
  shape: OperationShape;
  known: Record<string, string | number | boolean | null>;
  /** Sponsorship scopes charged for it and the wei reserved (the most it can cost). */
  sponsorship: { scopes: string[]; reservedWei: string; reservedAt: string };
  /** Bookkeeping when it lands or fails (a failure also gives the reserved sponsorship back). */
  effects?: WriteEffects;
}

/** The topic of the EntryPoint's `UserOperationEvent` (its topic 1 is the operation's hash), hashed once. */
const USER_OPERATION_EVENT_TOPIC = (() => {
  const event = new Interface(entryPointAbi).getEvent("UserOperationEvent");
  if (event === null) throw new Error("the EntryPoint ABI has no UserOperationEvent");
  return event.topicHash;
})();

/** How far back an operation's `UserOperationEvent` is looked for (its sponsorship lasts minutes). */
const LOOKBACK_BLOCKS = 50_000;

/** A stored operation back as a UserOperation. */
export function operationOf(payload: OperationPayload): UserOperation {
  const { op } = payload;
  return {
    sender: op.sender,
    nonce: BigInt(op.nonce),
    initCode: op.initCode,
    callData: op.callData,
    callGasLimit: BigInt(op.callGasLimit),
    verificationGasLimit: BigInt(op.verificationGasLimit),
    preVerificationGas: BigInt(op.preVerificationGas),
    maxFeePerGas: BigInt(op.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
    paymasterAndData: op.paymasterAndData,
    signature: op.signature,
  };
}

const payloadOf = (write: WriteRecord) => write.payload as unknown as OperationPayload;

/**
 * @internal Plans the bundler's writes (the platform's own ERC-4337 bundler): signed operations go into
 * `EntryPoint.handleOps` transactions of up to `maxBatch`, an operation that deploys its wallet
 * (`initCode`) in a bundle of its own (a front-run `createAccount` then fails that bundle alone). Each
 * bundle is simulated first: an operation the EntryPoint refuses is dropped with its reason, unless it
 * already landed (another bundler included it: its `UserOperationEvent` is on chain), and the later
 * operations of its wallet fail too (their nonces cannot be valid any more); the wallet's nonces are read
 * again from the chain. A bundle that reverts on chain puts its operations back in the queue, so the
 * ones still valid are simulated and sent again; an operation is reported failed only when it can no
 * longer land (refused, or its sponsorship window ended) and its event is not on chain.
 */
export class OperationPlanner implements WritePlanner {
  constructor(
    private readonly o: { db: Database; provider: JsonRpcProvider; entryPoint: string; bundler: string; maxBatch: number; onBundle?: (size: number) => void },
  ) {}

  async plan(writes: WriteRecord[]): Promise<{ transactions: PlannedTransaction[]; failed: Array<{ write: WriteRecord; error: WriteError }> }> {
    const failed: Array<{ write: WriteRecord; error: WriteError }> = [];
    const live: WriteRecord[] = [];
    const now = Date.now();
    for (const write of writes) {
      if (write.validUntil !== null && write.validUntil.getTime() <= now) {
        if (!(await this.findLanded(write))) {
          failed.push({
            write,
            error: {
              code: "chain_reverted",
              message: "the operation's sponsorship ended before it landed; send it again",
              details: { reason: "SponsorshipExpired" },
            },
          });
        }
        continue;
      }
      live.push(write);
    }
    const bundles = this.bundlesOf(live);
    const dropped = new Set<string>(); // wallets with a refused operation in this plan
    const transactions: PlannedTransaction[] = [];
    const keepLive = (bundle: WriteRecord[]): WriteRecord[] => {
      const kept: WriteRecord[] = [];
      for (const write of bundle) {
        if (dropped.has(getAddress(payloadOf(write).sender))) failed.push({ write, error: superseded() });
        else kept.push(write);
      }
      return kept;
    };
    for (let bundle of bundles) {
      bundle = keepLive(bundle);
      while (bundle.length > 0) {
        const tx = handleOpsTransaction(
          this.o.entryPoint,
          bundle.map((w) => operationOf(payloadOf(w))),
          this.o.bundler,
        );
        try {
          await simulateHandleOps(this.o.provider, tx, this.o.bundler);
          transactions.push({ writes: bundle, to: tx.to, data: tx.data, gasLimit: tx.gasLimit });
          this.o.onBundle?.(bundle.length);
          break;
        } catch (error) {
          if (!(error instanceof ContractsError) || error.code !== "user_operation_rejected" || error.opIndex === undefined) {
            break; // the node did not answer: these stay pending for the next cycle
          }
          const refused = bundle[error.opIndex];
          if (refused === undefined) break;
          const sender = getAddress(payloadOf(refused).sender);
          if (!(await this.findLanded(refused))) {
            failed.push({
              write: refused,
              error: {
                code: "chain_reverted",
                message: `the EntryPoint refused the operation: ${error.reason ?? "unknown"}`,
                details: { reason: error.reason ?? "unknown" },
              },
            });
            dropped.add(sender);
            await forgetWalletNonces(this.o.db, sender);
          }
          bundle = keepLive(bundle.filter((w) => w !== refused));
        }
      }
    }
    return { transactions, failed };
  }

  /**
   * This cycle's bundles. Every bundle is simulated against the chain as it is before any of them is sent, so
   * each wallet's operations of a cycle go into one bundle, as a run of consecutive nonces from its lowest:
   * an operation that deploys its wallet goes alone (its wallet's later operations wait for the next cycle,
   * when the wallet has code), and a wallet with more operations than fit a bundle sends the first
   * `maxBatch` (the rest wait). Split over two bundles, the second would be simulated with a nonce the chain
   * has not reached (AA25) and refused. Wallets are taken by their earliest write.
   */
  bundlesOf(live: WriteRecord[]): WriteRecord[][] {
    const byWallet = new Map<string, WriteRecord[]>();
    for (const write of [...live].sort((a, b) => compareBigInt(BigInt(a.id), BigInt(b.id)))) {
      const sender = getAddress(payloadOf(write).sender);
      byWallet.set(sender, [...(byWallet.get(sender) ?? []), write]);
    }
    const bundles: WriteRecord[][] = [];
    let open: WriteRecord[] = [];
    for (const writes of byWallet.values()) {
      writes.sort((a, b) => compareBigInt(BigInt(payloadOf(a).op.nonce), BigInt(payloadOf(b).op.nonce)));
      const first = writes[0] as WriteRecord;
      if (payloadOf(first).op.initCode !== "0x") {
        bundles.push([first]);
        continue;
      }
      const run = [first];
      for (const write of writes.slice(1)) {
        if (run.length === this.o.maxBatch || BigInt(payloadOf(write).op.nonce) !== BigInt(payloadOf(run[run.length - 1] as WriteRecord).op.nonce) + 1n) break;
        run.push(write);
      }
      if (open.length + run.length > this.o.maxBatch) {
        bundles.push(open);
        open = [];
      }
      open.push(...run);
    }
    if (open.length > 0) bundles.push(open);
    return bundles;
  }

  /** Settles an operation whose `UserOperationEvent` is on chain (another bundler included it): answers whether it was. */
  async findLanded(write: WriteRecord): Promise<boolean> {
    const payload = payloadOf(write);
    const head = await this.o.provider.getBlockNumber();
    const logs = await this.o.provider.getLogs({
      address: this.o.entryPoint,
      topics: [USER_OPERATION_EVENT_TOPIC, payload.userOpHash],
      fromBlock: Math.max(0, head - LOOKBACK_BLOCKS),
      toBlock: head,
    });
    const log = logs[0];
    if (!log) return false;
    const receipt = await this.o.provider.getTransactionReceipt(log.transactionHash);
    if (!receipt) return false;
    await this.settleOperation(write, receipt);
    return true;
  }

  async settle(writes: WriteRecord[], receipt: TransactionReceipt): Promise<void> {
    if (receipt.status !== 1) {
      // The bundle reverted on chain (e.g. someone deployed a wallet first): nothing of it happened; the
      // operations go back to the queue and are simulated again, the ones still valid sent again.
      await requeueWrites(
        this.o.db,
        writes.map((w) => w.id),
        false,
      );
      return;
    }
    // The receipt's outcomes are read once for the whole bundle, not once per operation in it.
    const outcomes = userOperationOutcomes(this.o.entryPoint, receipt.logs);
    for (const write of writes) await this.settleOperation(write, receipt, outcomes);
  }

  /**
   * Settles one operation from the receipt of the bundle that carried it (no event of it there: back in
   * the queue). `outcomes`: the receipt's {@link userOperationOutcomes}, when the caller read them already.
   */
  async settleOperation(write: WriteRecord, receipt: TransactionReceipt, outcomes = userOperationOutcomes(this.o.entryPoint, receipt.logs)): Promise<void> {
    if (write.status === "confirmed" || write.status === "failed") return;
    const payload = payloadOf(write);
    const outcome = outcomes.find((o) => o.userOpHash === payload.userOpHash);
    if (outcome === undefined) {
      await requeueWrites(this.o.db, [write.id], false);
      return;
    }
    const charge = (tx: Queryable) =>
      settleSponsorship(
        tx,
        payload.sponsorship.scopes,
        BigInt(payload.sponsorship.reservedWei),
        outcome.actualGasCost,
        new Date(payload.sponsorship.reservedAt),
      );
    if (outcome.success) {
      const answer = operationAnswer(payload.shape, payload.known, {
        txHash: receipt.hash,
        userOpHash: payload.userOpHash,
        deployedWallet: payload.deploysWallet,
      });
      await confirmWrite(this.o.db, write, answer, receipt.hash, charge);
      return;
    }
    // The wallet's call reverted: the nonce is used and the gas paid (charged to the budgets); the
    // custom error names the reason. The `failed` bookkeeping must not give the sponsorship back here.
    const reason = outcome.revertData === undefined ? "unknown" : (decodeContractError(outcome.revertData)?.name ?? "unknown");
    const error = specificError(
      new ChainServiceError("chain_reverted", `the wallet call reverted (${reason})`, { details: { reason, tx_hash: receipt.hash } }),
    );
    const known = error as ChainServiceError;
    await failWrite(this.o.db, write, { code: known.code, message: known.message, ...(known.details ? { details: known.details } : {}) }, charge);
  }
}

const compareBigInt = (a: bigint, b: bigint): number => (a === b ? 0 : a < b ? -1 : 1);

function superseded(): WriteError {
  return {
    code: "chain_reverted",
    message: "an earlier operation of this wallet was refused, so this one cannot land; send it again",
    details: { reason: "EarlierOperationRefused" },
  };
}
