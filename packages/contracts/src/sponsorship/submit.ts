import { type EventFragment, Interface, type Log, type Provider, type Signer, type TransactionReceipt } from "ethers";
import { decodeContractError } from "../contracts/decode-error.js";
import { ContractsError } from "../errors.js";
import { entryPointAbi } from "../generated/entryPoint.js";
import { requireAddress } from "../validate.js";
import { handleOpsGasLimit } from "./gas.js";
import type { UserOperation } from "./user-operation.js";

/** Outcome of one UserOperation in a handleOps transaction. */
export interface UserOperationOutcome {
  /** EntryPoint hash of the operation. */
  userOpHash: string;
  /** The wallet. */
  sender: string;
  /** The operation's nonce. */
  nonce: bigint;
  /** Whether the wallet's call succeeded (gas is paid either way). */
  success: boolean;
  /** Wei the paymaster's deposit paid. */
  actualGasCost: bigint;
  /** Gas used by the operation. */
  actualGasUsed: bigint;
  /** Raw revert data of the wallet's call when it failed. */
  revertData?: string;
  /** The decoded reason: a Slotgate/EntryPoint custom error's name, or the message of a `require` string revert. */
  revertReason?: string;
}

/** Result of {@link submitUserOperations}. */
export interface SubmitResult {
  /** The handleOps transaction. */
  transactionHash: string;
  /** Its block. */
  blockNumber: number;
  /** One entry per operation, in order. */
  operations: UserOperationOutcome[];
}

/** Options of {@link submitUserOperations}. */
export interface SubmitOptions {
  /** Receives the gas refund of handleOps. @default the bundler's address */
  beneficiary?: string;
  /** Gas limit of the handleOps transaction. @default computed from the operations' limits, see {@link handleOpsGasLimit} */
  gasLimit?: bigint;
}

const entryPointInterface = new Interface(entryPointAbi);

/** An EntryPoint event and its topic, hashed once: `Interface.parseLog` hashes every event's signature for each log. */
function entryPointEvent(name: string): { fragment: EventFragment; topicHash: string } {
  const fragment = entryPointInterface.getEvent(name);
  if (fragment === null) throw new Error(`the EntryPoint ABI has no ${name} event`);
  return { fragment, topicHash: fragment.topicHash };
}
const USER_OPERATION_EVENT = entryPointEvent("UserOperationEvent");
const USER_OPERATION_REVERT_REASON = entryPointEvent("UserOperationRevertReason");

/** The handleOps transaction of a bundle. */
export interface HandleOpsTransaction {
  /** The EntryPoint. */
  to: string;
  /** `handleOps(operations, beneficiary)`. */
  data: string;
  /** {@link handleOpsGasLimit} of the operations unless given. */
  gasLimit: bigint;
}

/**
 * The `EntryPoint.handleOps(operations, beneficiary)` transaction: what both the one-shot
 * {@link submitUserOperations} and a batching bundler simulate and send.
 *
 * @param entryPoint - the EntryPoint address
 * @param operations - signed operations
 * @param beneficiary - receives the gas refund
 * @param gasLimit - @default handleOpsGasLimit(operations)
 * @returns `{ to, data, gasLimit }`
 *
 * @example
 * ```ts
 * const tx = handleOpsTransaction(addresses.entryPoint, [signedOp], bundlerAddress);
 * await simulateHandleOps(provider, tx, bundlerAddress);
 * const receipt = await (await bundler.sendTransaction(tx)).wait();
 * ```
 */
export function handleOpsTransaction(
  entryPoint: string,
  operations: readonly UserOperation[],
  beneficiary: string,
  gasLimit: bigint = handleOpsGasLimit(operations),
): HandleOpsTransaction {
  if (operations.length === 0) throw new ContractsError("invalid_argument", "no operations to submit");
  return {
    to: requireAddress(entryPoint, "entryPoint"),
    data: entryPointInterface.encodeFunctionData("handleOps", [[...operations], requireAddress(beneficiary, "beneficiary")]),
    gasLimit,
  };
}

function rejected(cause: unknown): ContractsError {
  const decoded = decodeContractError(cause);
  if (decoded?.name === "FailedOp") {
    const reason = String(decoded.args[1]);
    return new ContractsError("user_operation_rejected", `EntryPoint rejected operation ${String(decoded.args[0])}: ${reason}`, {
      cause,
      reason,
      opIndex: Number(decoded.args[0]),
    });
  }
  return new ContractsError("chain_error", "handleOps failed", { cause, reason: decoded?.name });
}

/**
 * Simulates a handleOps transaction so that an operation the EntryPoint refuses (`FailedOp`: bad
 * signature, expired sponsorship, wrong nonce) costs no mined transaction. The simulation is an
 * `eth_call` on the `pending` block with the transaction's gas limit: the pending block's time is
 * the one the operation will meet, while `latest` would show the last block's time, before a window
 * that starts now (Anvil then answers AA32). Throws `user_operation_rejected` with the EntryPoint's
 * `reason` and the refused operation's `opIndex`, or `chain_error` for any other failure (its `cause`
 * is the provider's error).
 *
 * @param provider - the chain
 * @param tx - from {@link handleOpsTransaction}
 * @param from - the account that will send it
 *
 * @example
 * ```ts
 * try {
 *   await simulateHandleOps(provider, tx, bundlerAddress);
 * } catch (error) {
 *   if (error instanceof ContractsError && error.code === "user_operation_rejected") dropOperation(error.opIndex);
 * }
 * ```
 */
export async function simulateHandleOps(provider: Provider, tx: HandleOpsTransaction, from: string): Promise<void> {
  try {
    await provider.call({ ...tx, from: requireAddress(from, "from"), blockTag: "pending" });
  } catch (cause) {
    throw rejected(cause);
  }
}

/**
 * Reads the per-operation outcomes of a mined handleOps transaction from its logs: one entry per
 * `UserOperationEvent` of `entryPoint`, in order, with the `UserOperationRevertReason` of a failed call
 * attached and decoded.
 *
 * @param entryPoint - the EntryPoint address
 * @param logs - the transaction receipt's logs
 * @returns the outcomes
 *
 * @example
 * ```ts
 * const outcomes = userOperationOutcomes(addresses.entryPoint, receipt.logs);
 * ```
 */
export function userOperationOutcomes(entryPoint: string, logs: readonly Log[]): UserOperationOutcome[] {
  const entryPointAddress = requireAddress(entryPoint, "entryPoint").toLowerCase();
  const revertData = new Map<string, string>();
  const outcomes: UserOperationOutcome[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== entryPointAddress) continue;
    const topic = log.topics[0]?.toLowerCase();
    if (topic === USER_OPERATION_REVERT_REASON.topicHash) {
      const args = entryPointInterface.decodeEventLog(USER_OPERATION_REVERT_REASON.fragment, log.data, log.topics);
      revertData.set(String(args.userOpHash), String(args.revertReason));
    } else if (topic === USER_OPERATION_EVENT.topicHash) {
      const args = entryPointInterface.decodeEventLog(USER_OPERATION_EVENT.fragment, log.data, log.topics);
      outcomes.push({
        userOpHash: String(args.userOpHash),
        sender: String(args.sender),
        nonce: BigInt(args.nonce),
        success: Boolean(args.success),
        actualGasCost: BigInt(args.actualGasCost),
        actualGasUsed: BigInt(args.actualGasUsed),
      });
    }
  }
  for (const outcome of outcomes) {
    const data = revertData.get(outcome.userOpHash);
    if (data !== undefined) {
      outcome.revertData = data;
      const decoded = decodeContractError(data);
      if (decoded !== undefined) outcome.revertReason = decoded.name === "Error" ? String(decoded.args[0]) : decoded.name;
    }
  }
  return outcomes;
}

/**
 * Submits signed, sponsored UserOperations through `EntryPoint.handleOps` from a bundler key (the
 * platform acts as its own bundler; spec 4.11 step 4): {@link handleOpsTransaction}, then
 * {@link simulateHandleOps}, then the transaction, then {@link userOperationOutcomes}. Operations the
 * EntryPoint refuses during validation make the whole call fail with `user_operation_rejected` and
 * nothing is sent. An operation whose wallet call reverts is still included (its gas paid by the
 * paymaster) and reported with `success: false`.
 *
 * @param bundler - signer that sends handleOps (pays the transaction gas, refunded by the EntryPoint)
 * @param entryPoint - the EntryPoint address
 * @param operations - signed operations
 * @param options - beneficiary and gas limit
 * @returns the transaction and per-operation outcomes
 *
 * @example
 * ```ts
 * const { operations } = await submitUserOperations(bundler, addresses.entryPoint, [signedOp]);
 * if (!operations[0]?.success) console.log(operations[0]?.revertReason);
 * ```
 */
export async function submitUserOperations(
  bundler: Signer,
  entryPoint: string,
  operations: readonly UserOperation[],
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  if (bundler.provider == null) throw new ContractsError("invalid_argument", "the bundler signer has no provider");
  const from = await bundler.getAddress();
  const tx = handleOpsTransaction(entryPoint, operations, options.beneficiary ?? from, options.gasLimit);
  await simulateHandleOps(bundler.provider, tx, from);
  let receipt: TransactionReceipt | null;
  try {
    receipt = await (await bundler.sendTransaction(tx)).wait();
  } catch (cause) {
    throw rejected(cause);
  }
  if (receipt === null) throw new ContractsError("chain_error", "handleOps transaction was not mined");
  return { transactionHash: receipt.hash, blockNumber: receipt.blockNumber, operations: userOperationOutcomes(tx.to, receipt.logs) };
}
