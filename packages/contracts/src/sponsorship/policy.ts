import { Interface, type Provider, SigningKey, ZeroAddress, getBytes, keccak256, toUtf8Bytes } from "ethers";
import { decodeContractError } from "../contracts/decode-error.js";
import { ContractsError } from "../errors.js";
import { entryPointAbi } from "../generated/entryPoint.js";
import { requireAddress, requireBytes, requireNonNegative } from "../validate.js";
import { DEFAULT_USER_OPERATION_GAS } from "./gas.js";
import type { UserOperation } from "./user-operation.js";

// What the platform checks before its paymaster signs an operation (docs/security.md, "Gas
// sponsorship"): the operation cannot cost the paymaster more than a cap, and its call does not revert.

/**
 * The default per-operation gas cap: room for a wallet's deploying first operation with the default
 * limits (500,000 call + 3 × 1,000,000 verification + 60,000 pre-verification = 3,560,000).
 */
export const DEFAULT_MAX_OPERATION_GAS = 3_600_000n;

/** What {@link prepareSponsoredUserOperation} checks before the paymaster signs. */
export interface SponsorshipPolicy {
  /** Refuse an operation whose {@link operationGasCeiling} is above this. @default DEFAULT_MAX_OPERATION_GAS */
  maxOperationGas?: bigint;
  /** Simulate the operation's call ({@link simulateWalletCall}) and refuse it when it reverts. @default true */
  simulate?: boolean;
}

/**
 * The most gas a sponsored v0.6 operation can be charged to the paymaster's deposit:
 * `callGasLimit + 3 × verificationGasLimit + preVerificationGas` (the EntryPoint's prefund rule when a
 * paymaster is used: account validation, paymaster validation and postOp each get verificationGasLimit).
 *
 * @param op - the operation (its gas limits)
 * @returns the gas ceiling
 *
 * @example
 * ```ts
 * const ceiling = operationGasCeiling(op); // 1_310_000n for the default limits of a deployed wallet
 * ```
 */
export function operationGasCeiling(op: Pick<UserOperation, "callGasLimit" | "verificationGasLimit" | "preVerificationGas">): bigint {
  return op.callGasLimit + op.verificationGasLimit * 3n + op.preVerificationGas;
}

/**
 * Refuses an operation whose {@link operationGasCeiling} is above `maxGas`: throws `sponsorship_refused`
 * with reason `gas_cap`. Run it before the paymaster signs, so one operation can never cost the
 * deposit more than the cap.
 *
 * @param op - the operation
 * @param maxGas - the per-operation cap
 *
 * @example
 * ```ts
 * checkOperationGas(op, 4_000_000n);
 * ```
 */
export function checkOperationGas(op: Pick<UserOperation, "callGasLimit" | "verificationGasLimit" | "preVerificationGas">, maxGas: bigint): void {
  const ceiling = operationGasCeiling(op);
  if (ceiling > requireNonNegative(maxGas, "maxGas")) {
    throw new ContractsError("sponsorship_refused", `the operation may use ${ceiling} gas, above the per-operation cap of ${maxGas}`, {
      reason: "gas_cap",
    });
  }
}

/** Input of {@link simulateWalletCall}. */
export interface SimulateWalletCallInput {
  /** The EntryPoint the wallet trusts (the call is made from it, as in a real operation). */
  entryPoint: string;
  /** The wallet. */
  sender: string;
  /** The operation's callData (`execute`, `executeBatch` or a call on the wallet itself). */
  callData: string;
  /**
   * The wallet's deploying initCode, used when the wallet has no code yet (its operation deploys it,
   * or an earlier queued one will). Without it an undeployed wallet is refused.
   */
  initCode?: string;
  /** Gas the call may use, as the EntryPoint gives it. @default 500_000n (the default callGasLimit) */
  callGasLimit?: bigint;
  /** Verification gas for a deploying simulation. @default 1_000_000n */
  verificationGasLimit?: bigint;
}

const entryPointInterface = new Interface(entryPointAbi);
/** A well-formed signature nobody owns: validation reports "signature failed" instead of reverting. */
const UNOWNED_SIGNATURE = new SigningKey(keccak256(toUtf8Bytes("slotgate/simulation/unowned-key"))).sign(keccak256("0x")).serialized;

function intrinsicGas(data: string): bigint {
  return 21_000n + 16n * BigInt(getBytes(data).length);
}

function refused(decoded: ReturnType<typeof decodeContractError>): ContractsError {
  const reason = decoded === undefined ? "unknown" : decoded.name === "Error" ? String(decoded.args[0]) : decoded.name;
  return new ContractsError("sponsorship_refused", `the operation's call reverts in simulation (${reason})`, { reason });
}

/**
 * Simulates what a UserOperation's call would do, before the paymaster signs it, without any
 * signature: an `eth_call` on the `pending` block of the wallet's callData from the EntryPoint (the
 * caller a real operation has), with the operation's callGasLimit. A wallet without code is simulated
 * through `EntryPoint.simulateHandleOp` with its deploying initCode, no fee, no paymaster, and the call
 * as the simulation's target, so the wallet exists when the call runs. Nonces are not involved: an
 * operation queued behind others of the same wallet is simulated on the chain as it is now.
 *
 * Throws `sponsorship_refused` (reason: the decoded custom error name, a `require` message, or
 * `unknown`) when the call reverts, `user_operation_rejected` when the EntryPoint refuses the deploying
 * simulation (`FailedOp`), `chain_error` when the node fails.
 *
 * @param provider - the chain
 * @param input - EntryPoint, wallet, callData, and the deploying initCode for a new wallet
 *
 * @example
 * ```ts
 * await simulateWalletCall(provider, { entryPoint: addresses.entryPoint, sender: op.sender, callData: op.callData });
 * ```
 */
export async function simulateWalletCall(provider: Provider, input: SimulateWalletCallInput): Promise<void> {
  const entryPoint = requireAddress(input.entryPoint, "entryPoint");
  const sender = requireAddress(input.sender, "sender");
  const callData = requireBytes(input.callData, "callData");
  const callGasLimit = requireNonNegative(input.callGasLimit ?? DEFAULT_USER_OPERATION_GAS.callGasLimit, "callGasLimit");
  const callDeployed = async (): Promise<void> => {
    try {
      await provider.call({ from: entryPoint, to: sender, data: callData, gasLimit: callGasLimit + intrinsicGas(callData), blockTag: "pending" });
    } catch (cause) {
      const decoded = decodeContractError(cause);
      if (decoded === undefined && (cause as { code?: unknown })?.code !== "CALL_EXCEPTION") {
        throw new ContractsError("chain_error", "the simulation failed", { cause });
      }
      throw refused(decoded);
    }
  };
  let code: string;
  try {
    code = await provider.getCode(sender, "pending");
  } catch (cause) {
    throw new ContractsError("chain_error", "could not read the wallet's code", { cause });
  }
  if (code !== "0x") return callDeployed();
  if (input.initCode === undefined || requireBytes(input.initCode, "initCode") === "0x") {
    throw new ContractsError("sponsorship_refused", "the wallet is not deployed and the operation cannot deploy it", { reason: "AA20 account not deployed" });
  }
  const verificationGasLimit = input.verificationGasLimit ?? DEFAULT_USER_OPERATION_GAS.deployingVerificationGasLimit;
  const op = {
    sender,
    nonce: 0n,
    initCode: input.initCode,
    callData: "0x",
    callGasLimit: 0n,
    verificationGasLimit,
    preVerificationGas: 0n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    paymasterAndData: "0x",
    signature: UNOWNED_SIGNATURE,
  };
  const data = entryPointInterface.encodeFunctionData("simulateHandleOp", [op, sender, callData]);
  let thrown: unknown;
  try {
    await provider.call({ to: entryPoint, from: ZeroAddress, data, gasLimit: verificationGasLimit + callGasLimit + 200_000n, blockTag: "pending" });
  } catch (cause) {
    thrown = cause;
  }
  const decoded = thrown === undefined ? undefined : decodeContractError(thrown);
  if (decoded?.name === "ExecutionResult") {
    const [, , , , targetSuccess, targetResult] = decoded.args as [bigint, bigint, bigint, bigint, boolean, string];
    if (!targetSuccess) throw refused(decodeContractError(targetResult));
    return;
  }
  // The wallet was deployed (by an operation that landed) between the code read and the simulation.
  if (decoded?.name === "FailedOp" && String(decoded.args[1]).startsWith("AA10")) return callDeployed();
  if (decoded?.name === "FailedOp") {
    throw new ContractsError("user_operation_rejected", `EntryPoint refused the simulation: ${String(decoded.args[1])}`, {
      cause: thrown,
      reason: String(decoded.args[1]),
      opIndex: 0,
    });
  }
  throw new ContractsError("chain_error", "simulateHandleOp did not answer ExecutionResult", { cause: thrown });
}
