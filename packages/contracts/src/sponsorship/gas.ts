import type { UserOperation } from "./user-operation.js";

/**
 * The per-transaction gas cap, 2^24 (EIP-7825, Osaka), also the default cap of Hardhat 2.29's
 * in-process chain. No transaction the platform sends asks for more: it caps {@link handleOpsGasLimit}
 * and is the ceiling a transaction's gas estimation may search up to.
 *
 * @example
 * ```ts
 * const estimate = await signer.estimateGas({ to, data, gasLimit: TRANSACTION_GAS_CAP });
 * ```
 */
export const TRANSACTION_GAS_CAP = 16_777_216n;

/** @internal The default gas limits of a UserOperation (documented on `UserOperationGas`). */
export const DEFAULT_USER_OPERATION_GAS = {
  callGasLimit: 500_000n,
  /** When `initCode` deploys the wallet (the factory's CREATE2 runs during validation). */
  deployingVerificationGasLimit: 1_000_000n,
  verificationGasLimit: 250_000n,
  preVerificationGas: 60_000n,
} as const;

/** EntryPoint bookkeeping per operation in a handleOps transaction. */
const PER_OPERATION_OVERHEAD = 50_000n;
/** The handleOps transaction itself (intrinsic gas, calldata, loop). */
const TRANSACTION_OVERHEAD = 100_000n;

/**
 * Gas limit for a handleOps transaction carrying `operations`: per operation three times its
 * verificationGasLimit (account validation, paymaster validation, postOp) plus its callGasLimit and
 * 50,000 of EntryPoint overhead, plus 100,000 for the transaction, capped at
 * {@link TRANSACTION_GAS_CAP}. Computed from the limits the EntryPoint itself enforces rather than
 * estimated, so simulation and sending use the same number.
 *
 * @param operations - the operations to bundle
 * @returns the gas limit
 *
 * @example
 * ```ts
 * const gasLimit = handleOpsGasLimit([op]);
 * ```
 */
export function handleOpsGasLimit(operations: readonly Pick<UserOperation, "verificationGasLimit" | "callGasLimit">[]): bigint {
  let total = TRANSACTION_OVERHEAD;
  for (const op of operations) total += op.verificationGasLimit * 3n + op.callGasLimit + PER_OPERATION_OVERHEAD;
  return total < TRANSACTION_GAS_CAP ? total : TRANSACTION_GAS_CAP;
}
