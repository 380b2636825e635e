import { Contract, type Log, getAddress } from "ethers";
import {
  type EntryPointContract,
  type UserOperation,
  decodeContractError,
  entryPointAbi,
  getUserOpHash,
} from "@slotgate/contracts";
import { ChainServiceError } from "../errors.js";
import { type SerialTxSender, revertError } from "../chain/tx-queue.js";
import type { UserOperationReceipt, UserOperationSubmitter } from "./submitter.js";

/** Options of {@link BuiltInBundler}. */
export interface BuiltInBundlerOptions {
  /** The EntryPoint address. */
  entryPoint: string;
  /** Chain id (for the operation hashes). */
  chainId: bigint;
  /** The bundler EOA's serial transaction sender. */
  sender: SerialTxSender;
  /** How long the queue collects operations before a `handleOps`, in ms. @default 10 */
  batchIntervalMs?: number;
  /** Most operations per `handleOps`. @default 24 */
  maxBatchSize?: number;
  /** Called when operations of a wallet were dropped, so its nonce tracking restarts. */
  onSenderReset?: (sender: string) => void;
}

/** EIP-7825 transaction gas cap (2^24), also the ceiling of gas estimation. */
const MAX_TX_GAS = 16_777_216n;

interface Pending {
  op: UserOperation;
  hash: string;
  resolve(receipt: UserOperationReceipt): void;
  reject(error: unknown): void;
}

/** Observable facts of the built-in bundler, for tests and metrics. */
export interface BundlerStats {
  /** `handleOps` transactions sent. */
  batches: number;
  /** Operations included. */
  included: number;
  /** Operations the EntryPoint refused during simulation. */
  dropped: number;
  /** Size of the largest batch. */
  largestBatch: number;
}

/**
 * The platform's own ERC-4337 bundler (spec 4.11 step 4). Operations are queued and, every
 * `batchIntervalMs`, up to `maxBatchSize` of them go into one `EntryPoint.handleOps` sent by the
 * bundler EOA through its serial nonce queue. One batch is in flight at a time, so operations of one
 * wallet land in nonce order. An operation the EntryPoint refuses in simulation (`FailedOp`) is
 * rejected with `chain_reverted`, together with the later operations of the same wallet (their nonces
 * can no longer be valid); the rest of the batch is retried without them.
 *
 * @example
 * ```ts
 * const bundler = new BuiltInBundler({ entryPoint, chainId: 31337n, sender: new SerialTxSender(bundlerWallet) });
 * const receipt = await bundler.submit(signedOp);
 * ```
 */
export class BuiltInBundler implements UserOperationSubmitter {
  readonly #options: Required<Omit<BuiltInBundlerOptions, "onSenderReset">> & Pick<BuiltInBundlerOptions, "onSenderReset">;
  readonly #entryPoint: EntryPointContract;
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  readonly stats: BundlerStats = { batches: 0, included: 0, dropped: 0, largestBatch: 0 };
  readonly pipelinesPerWallet = true;

  constructor(options: BuiltInBundlerOptions) {
    this.#options = { batchIntervalMs: 10, maxBatchSize: 24, ...options };
    this.#entryPoint = new Contract(getAddress(options.entryPoint), entryPointAbi, options.sender.provider) as unknown as EntryPointContract;
  }

  submit(op: UserOperation): Promise<UserOperationReceipt> {
    if (this.#closed) return Promise.reject(new ChainServiceError("service_unavailable", "the bundler is closed"));
    return new Promise((resolve, reject) => {
      this.#queue.push({ op, hash: getUserOpHash(op, this.#options.entryPoint, this.#options.chainId), resolve, reject });
      this.#schedule();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    while (this.#queue.length > 0 || this.#running !== undefined || this.#timer !== undefined) {
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#drain();
      }
      await this.#running;
    }
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#running !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, this.#options.batchIntervalMs);
  }

  #drain(): void {
    if (this.#running !== undefined || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.#options.maxBatchSize);
    this.#running = this.#runBatch(batch).finally(() => {
      this.#running = undefined;
      if (this.#queue.length > 0) this.#schedule();
    });
  }

  async #runBatch(initial: Pending[]): Promise<void> {
    let batch = initial;
    const beneficiary = this.#options.sender.address;
    while (batch.length > 0) {
      const ops = batch.map((p) => p.op);
      let gasLimit: bigint;
      try {
        gasLimit = ((await this.#entryPoint.handleOps.estimateGas(ops, beneficiary, { from: beneficiary, gasLimit: MAX_TX_GAS })) * 13n) / 10n;
      } catch (cause) {
        const decoded = decodeContractError(cause);
        if (decoded?.name === "FailedOp") {
          batch = this.#dropFailed(batch, Number(decoded.args[0]), String(decoded.args[1]), cause);
          continue;
        }
        this.#failAll(batch, revertError(cause));
        return;
      }
      try {
        const data = this.#entryPoint.interface.encodeFunctionData("handleOps", [ops, beneficiary]);
        const receipt = await this.#options.sender.sendAndWait({ to: this.#options.entryPoint, data, gasLimit });
        this.stats.batches += 1;
        this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
        this.#settle(batch, receipt.hash, receipt.logs);
      } catch (cause) {
        this.#failAll(batch, revertError(cause));
      }
      return;
    }
  }

  #dropFailed(batch: Pending[], index: number, reason: string, cause: unknown): Pending[] {
    const failed = batch[index];
    if (failed === undefined) {
      this.#failAll(batch, new ChainServiceError("chain_reverted", `the EntryPoint refused an operation: ${reason}`, { cause }));
      return [];
    }
    const sender = getAddress(failed.op.sender);
    const error = new ChainServiceError("chain_reverted", `the EntryPoint refused the operation: ${reason}`, {
      cause,
      details: { reason },
    });
    const keep: Pending[] = [];
    for (const pending of batch) {
      if (getAddress(pending.op.sender) === sender && pending.op.nonce >= failed.op.nonce) {
        this.stats.dropped += 1;
        pending.reject(error);
      } else keep.push(pending);
    }
    // Queued operations of that wallet carry nonces after the dropped one: refuse them too.
    this.#queue = this.#queue.filter((pending) => {
      if (getAddress(pending.op.sender) !== sender) return true;
      this.stats.dropped += 1;
      pending.reject(error);
      return false;
    });
    this.#options.onSenderReset?.(sender);
    return keep;
  }

  #failAll(batch: Pending[], error: unknown): void {
    const senders = new Set(batch.map((p) => getAddress(p.op.sender)));
    for (const pending of batch) pending.reject(error);
    this.#queue = this.#queue.filter((pending) => {
      if (!senders.has(getAddress(pending.op.sender))) return true;
      pending.reject(error);
      return false;
    });
    for (const sender of senders) this.#options.onSenderReset?.(sender);
  }

  #settle(batch: Pending[], transactionHash: string, logs: readonly Log[]): void {
    const outcomes = new Map<string, { success: boolean; revertReason?: string }>();
    const revertData = new Map<string, string>();
    for (const log of logs) {
      if (getAddress(log.address) !== getAddress(this.#options.entryPoint)) continue;
      const parsed = this.#entryPoint.interface.parseLog(log);
      if (parsed?.name === "UserOperationEvent") {
        outcomes.set(String(parsed.args.userOpHash), { success: Boolean(parsed.args.success) });
      } else if (parsed?.name === "UserOperationRevertReason") {
        revertData.set(String(parsed.args.userOpHash), String(parsed.args.revertReason));
      }
    }
    for (const pending of batch) {
      const outcome = outcomes.get(pending.hash);
      if (outcome === undefined) {
        pending.reject(new ChainServiceError("chain_reverted", "the operation was not included"));
        continue;
      }
      const data = revertData.get(pending.hash);
      const reason = data === undefined ? undefined : decodeContractError(data)?.name;
      this.stats.included += 1;
      pending.resolve({
        userOpHash: pending.hash,
        transactionHash,
        success: outcome.success,
        ...(reason === undefined ? {} : { revertReason: reason }),
      });
    }
  }
}
