import { AbiCoder, Interface, keccak256 } from "ethers";
import { ContractsError } from "../errors.js";
import { slotgateAccountAbi } from "../generated/slotgateAccount.js";
import { requireAddress, requireBytes, requireNonNegative } from "../validate.js";
import { DEFAULT_USER_OPERATION_GAS } from "./gas.js";

/** An ERC-4337 v0.6 UserOperation with numeric fields as bigint and byte fields as hex strings. */
export interface UserOperation {
  /** The wallet that executes the operation. */
  sender: string;
  /** EntryPoint nonce of the wallet (key 0: 0 on the first operation, then 1, 2, ...). */
  nonce: bigint;
  /** Factory address + `createAccount(owner, salt)` on the first operation, otherwise `0x`. */
  initCode: string;
  /** The call the wallet receives, normally `execute` or `executeBatch`. */
  callData: string;
  callGasLimit: bigint;
  verificationGasLimit: bigint;
  preVerificationGas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  /** Paymaster address + abi.encode(validUntil, validAfter) + signature, or `0x`. */
  paymasterAndData: string;
  /** The owner's signature over {@link getUserOpHash}, or `0x` before signing. */
  signature: string;
}

/** A call a wallet makes. */
export interface WalletCall {
  /** Target contract or account. */
  to: string;
  /** Wei sent along. @default 0n */
  value?: bigint;
  /** Calldata. @default "0x" */
  data?: string;
}

/**
 * What a UserOperation makes the wallet do: one call (`execute`), several (`executeBatch`, run
 * atomically in order), or raw callData for the wallet itself (e.g. {@link changeOwnerCallData}).
 */
export type UserOperationCalls = WalletCall | readonly WalletCall[] | { callData: string };

/** Gas limits of a UserOperation. */
export interface UserOperationGas {
  /** @default 500_000n */
  callGasLimit: bigint;
  /** @default 1_000_000n when `initCode` deploys the wallet, else 250_000n */
  verificationGasLimit: bigint;
  /** @default 60_000n */
  preVerificationGas: bigint;
}

/** Input of {@link buildUserOperation}. */
export interface BuildUserOperationInput {
  sender: string;
  nonce: bigint;
  callData: string;
  /** @default "0x" (wallet already deployed) */
  initCode?: string;
  /** Overrides of the default gas limits. */
  gas?: Partial<UserOperationGas>;
  maxFeePerGas: bigint;
  /** @default maxFeePerGas */
  maxPriorityFeePerGas?: bigint;
}

const accountInterface = new Interface(slotgateAccountAbi);
const coder = AbiCoder.defaultAbiCoder();

/**
 * Builds an unsigned, unsponsored UserOperation (`paymasterAndData` and `signature` are `0x`), with
 * the default gas limits of {@link UserOperationGas} unless overridden.
 *
 * @param input - sender, nonce, callData, optional initCode, gas and fees
 * @returns the operation
 *
 * @example
 * ```ts
 * const op = buildUserOperation({
 *   sender: userWallet,
 *   nonce: 0n,
 *   initCode: encodeInitCode(addresses.factory, owner.address, W_SALT),
 *   callData: encodeExecute({ to: addresses.xotn, data: approveCalldata }),
 *   maxFeePerGas: 2_000_000_000n,
 * });
 * ```
 */
export function buildUserOperation(input: BuildUserOperationInput): UserOperation {
  const initCode = requireBytes(input.initCode, "initCode");
  const deploys = initCode !== "0x";
  const maxFeePerGas = requireNonNegative(input.maxFeePerGas, "maxFeePerGas");
  return {
    sender: requireAddress(input.sender, "sender"),
    nonce: requireNonNegative(input.nonce, "nonce"),
    initCode,
    callData: requireBytes(input.callData, "callData"),
    callGasLimit: requireNonNegative(input.gas?.callGasLimit ?? DEFAULT_USER_OPERATION_GAS.callGasLimit, "callGasLimit"),
    verificationGasLimit: requireNonNegative(
      input.gas?.verificationGasLimit ?? (deploys ? DEFAULT_USER_OPERATION_GAS.deployingVerificationGasLimit : DEFAULT_USER_OPERATION_GAS.verificationGasLimit),
      "verificationGasLimit",
    ),
    preVerificationGas: requireNonNegative(input.gas?.preVerificationGas ?? DEFAULT_USER_OPERATION_GAS.preVerificationGas, "preVerificationGas"),
    maxFeePerGas,
    maxPriorityFeePerGas: requireNonNegative(input.maxPriorityFeePerGas ?? maxFeePerGas, "maxPriorityFeePerGas"),
    paymasterAndData: "0x",
    signature: "0x",
  };
}

/**
 * Encodes the wallet's `execute(dest, value, func)` call for a UserOperation's `callData`.
 *
 * @param call - the call the wallet makes
 * @returns hex callData
 *
 * @example
 * ```ts
 * const callData = encodeExecute({ to: addresses.exchange, data: exchangeInterface.encodeFunctionData("approve_purchases", ["game-1", amount]) });
 * ```
 */
export function encodeExecute(call: WalletCall): string {
  return accountInterface.encodeFunctionData("execute", [
    requireAddress(call.to, "call.to"),
    requireNonNegative(call.value ?? 0n, "call.value"),
    requireBytes(call.data, "call.data"),
  ]);
}

/**
 * Encodes the wallet's `executeBatch(dest[], func[])` call (no value) for several calls in one
 * operation, e.g. XOTN `approve` followed by `buy_content_token`.
 *
 * @param calls - the calls, executed in order; all must have zero value
 * @returns hex callData
 *
 * @example
 * ```ts
 * const callData = encodeExecuteBatch([
 *   { to: addresses.xotn, data: xotn.interface.encodeFunctionData("approve", [addresses.exchange, amount]) },
 *   { to: addresses.exchange, data: exchange.interface.encodeFunctionData("buy_content_token", [slotWallet, "game-1", amount]) },
 * ]);
 * ```
 */
export function encodeExecuteBatch(calls: readonly WalletCall[]): string {
  if (calls.length === 0) throw new ContractsError("invalid_argument", "executeBatch needs at least one call");
  if (calls.some((call) => (call.value ?? 0n) !== 0n)) {
    throw new ContractsError("invalid_argument", "executeBatch cannot send value; use encodeExecute");
  }
  return accountInterface.encodeFunctionData("executeBatch", [
    calls.map((call) => requireAddress(call.to, "call.to")),
    calls.map((call) => requireBytes(call.data, "call.data")),
  ]);
}

/**
 * @internal The callData of {@link UserOperationCalls}: `execute` for one call, `executeBatch` for
 * several, raw callData as it is.
 *
 * @param calls - what the wallet does
 * @returns hex callData
 *
 * @example
 * ```ts
 * const callData = encodeCalls([erc20ApproveCall(addresses.xotn, addresses.exchange, amount), approvePurchasesCall(addresses.exchange, "game-1", amount)]);
 * ```
 */
export function encodeCalls(calls: UserOperationCalls): string {
  if ("callData" in calls) return requireBytes(calls.callData, "callData");
  if (Array.isArray(calls)) {
    const list = calls as readonly WalletCall[];
    return list.length === 1 && list[0] !== undefined ? encodeExecute(list[0]) : encodeExecuteBatch(list);
  }
  return encodeExecute(calls as WalletCall);
}

/**
 * The EntryPoint v0.6 hash of a UserOperation, computed off-chain; equals `entryPoint.getUserOpHash(op)`.
 * It covers every field except `signature`, including `paymasterAndData`, so sponsor first, then sign.
 *
 * @param op - the operation
 * @param entryPoint - the EntryPoint address
 * @param chainId - the chain id
 * @returns the 32-byte hash as hex
 *
 * @example
 * ```ts
 * const hash = getUserOpHash(op, addresses.entryPoint, 31337n);
 * ```
 */
export function getUserOpHash(op: UserOperation, entryPoint: string, chainId: bigint): string {
  const packed = coder.encode(
    ["address", "uint256", "bytes32", "bytes32", "uint256", "uint256", "uint256", "uint256", "uint256", "bytes32"],
    [
      op.sender,
      op.nonce,
      keccak256(op.initCode),
      keccak256(op.callData),
      op.callGasLimit,
      op.verificationGasLimit,
      op.preVerificationGas,
      op.maxFeePerGas,
      op.maxPriorityFeePerGas,
      keccak256(op.paymasterAndData),
    ],
  );
  return keccak256(coder.encode(["bytes32", "address", "uint256"], [keccak256(packed), requireAddress(entryPoint, "entryPoint"), chainId]));
}

/**
 * The operation as JSON-RPC hex fields, the shape `eth_sendUserOperation` of an external v0.6 bundler expects.
 *
 * @param op - the operation
 * @returns the same fields with quantities as 0x-hex strings
 *
 * @example
 * ```ts
 * await bundlerProvider.send("eth_sendUserOperation", [userOperationToRpc(op), addresses.entryPoint]);
 * ```
 */
export function userOperationToRpc(op: UserOperation): Record<keyof UserOperation, string> {
  const quantity = (value: bigint) => `0x${value.toString(16)}`;
  return {
    sender: op.sender,
    nonce: quantity(op.nonce),
    initCode: op.initCode,
    callData: op.callData,
    callGasLimit: quantity(op.callGasLimit),
    verificationGasLimit: quantity(op.verificationGasLimit),
    preVerificationGas: quantity(op.preVerificationGas),
    maxFeePerGas: quantity(op.maxFeePerGas),
    maxPriorityFeePerGas: quantity(op.maxPriorityFeePerGas),
    paymasterAndData: op.paymasterAndData,
    signature: op.signature,
  };
}
