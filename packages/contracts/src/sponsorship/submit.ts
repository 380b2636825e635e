import { Contract, type Log, type Signer, getAddress } from "ethers";
import { decodeContractError } from "../contracts/decode-error.js";
import { ContractsError } from "../errors.js";
import { type EntryPointContract, entryPointAbi } from "../generated/entryPoint.js";
import { requireAddress } from "../validate.js";
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

/** EIP-7825 (Osaka) per-transaction gas cap, also the default cap of Hardhat 2.29's in-process chain. */
const TRANSACTION_GAS_CAP = 16_777_216n;

/**
 * Gas limit for a handleOps transaction carrying `operations`: per operation three times its
 * verificationGasLimit (account validation, paymaster validation, postOp) plus its callGasLimit and
 * 50,000 of EntryPoint overhead, plus 100,000 for the transaction, capped at 2^24 (EIP-7825).
 * Computed, not estimated: `eth_estimateGas` of handleOps overshoots the cap on Hardhat 2.29.
 *
 * @param operations - the operations to bundle
 * @returns the gas limit
 *
 * @example
 * ```ts
 * const gasLimit = handleOpsGasLimit([op]);
 * ```
 */
export function handleOpsGasLimit(operations: readonly UserOperation[]): bigint {
  let total = 100_000n;
  for (const op of operations) total += op.verificationGasLimit * 3n + op.callGasLimit + 50_000n;
  return total < TRANSACTION_GAS_CAP ? total : TRANSACTION_GAS_CAP;
}

function rejected(cause: unknown): ContractsError {
  const decoded = decodeContractError(cause);
  if (decoded?.name === "FailedOp") {
    const reason = String(decoded.args[1]);
    return new ContractsError("USER_OPERATION_REJECTED", `EntryPoint rejected operation ${String(decoded.args[0])}: ${reason}`, {
      cause,
      reason,
    });
  }
  return new ContractsError("CHAIN_ERROR", "handleOps failed", { cause, reason: decoded?.name });
}

/**
 * Submits signed, sponsored UserOperations through `EntryPoint.handleOps` from a bundler key (the
 * platform acts as its own bundler; spec 4.11 step 4). Operations the EntryPoint refuses during
 * validation (bad signature, expired sponsorship, wrong nonce) make the whole call fail with
 * `USER_OPERATION_REJECTED` and nothing is sent. An operation whose wallet call reverts is still
 * included (its gas paid by the paymaster) and reported with `success: false`.
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
  if (operations.length === 0) throw new ContractsError("INVALID_ARGUMENT", "no operations to submit");
  const entryPointAddress = requireAddress(entryPoint, "entryPoint");
  const contract = new Contract(entryPointAddress, entryPointAbi, bundler) as unknown as EntryPointContract;
  const beneficiary = requireAddress(options.beneficiary ?? (await bundler.getAddress()), "beneficiary");
  const ops = [...operations];
  const gasLimit = options.gasLimit ?? handleOpsGasLimit(ops);
  try {
    // Simulate first: an operation the EntryPoint refuses (FailedOp) must not cost a mined transaction.
    await contract.handleOps.staticCall(ops, beneficiary, { gasLimit });
  } catch (cause) {
    throw rejected(cause);
  }
  let receipt: Awaited<ReturnType<Awaited<ReturnType<EntryPointContract["handleOps"]>>["wait"]>>;
  try {
    const response = await contract.handleOps(ops, beneficiary, { gasLimit });
    receipt = await response.wait();
  } catch (cause) {
    throw rejected(cause);
  }
  if (receipt === null) throw new ContractsError("CHAIN_ERROR", "handleOps transaction was not mined");

  const revertData = new Map<string, string>();
  const outcomes: UserOperationOutcome[] = [];
  for (const log of receipt.logs as readonly Log[]) {
    if (getAddress(log.address) !== entryPointAddress) continue;
    const parsed = contract.interface.parseLog(log);
    if (parsed?.name === "UserOperationRevertReason") {
      revertData.set(String(parsed.args.userOpHash), String(parsed.args.revertReason));
    } else if (parsed?.name === "UserOperationEvent") {
      outcomes.push({
        userOpHash: String(parsed.args.userOpHash),
        sender: String(parsed.args.sender),
        nonce: BigInt(parsed.args.nonce),
        success: Boolean(parsed.args.success),
        actualGasCost: BigInt(parsed.args.actualGasCost),
        actualGasUsed: BigInt(parsed.args.actualGasUsed),
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
  return { transactionHash: receipt.hash, blockNumber: receipt.blockNumber, operations: outcomes };
}
