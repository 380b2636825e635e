/**
 * Stable error codes of `@slotgate/contracts`.
 *
 * - `invalid_argument`: an argument failed validation before anything was sent.
 * - `deploy_failed`: a deployment or wiring transaction of {@link deploy} failed.
 * - `user_operation_rejected`: the EntryPoint refused a UserOperation (`FailedOp`, e.g. `AA24 signature error`,
 *   `AA32 paymaster expired or not due`); {@link ContractsError.reason} carries the EntryPoint's reason.
 * - `user_operation_reverted`: the UserOperation was included but its call reverted; gas was still paid.
 * - `sponsorship_refused`: the platform's sponsorship checks refused the operation before the paymaster
 *   signed it: its call reverts in simulation ({@link ContractsError.reason} is the custom error name or
 *   `require` message) or it could use more gas than the per-operation cap (`gas_cap`).
 * - `chain_error`: the JSON-RPC provider failed or returned something unexpected.
 */
export type ContractsErrorCode =
  | "invalid_argument"
  | "deploy_failed"
  | "user_operation_rejected"
  | "user_operation_reverted"
  | "sponsorship_refused"
  | "chain_error";

/** Options of {@link ContractsError}. */
export interface ContractsErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** Machine-readable detail: the EntryPoint `AAxx` reason or the custom error name. */
  reason?: string;
  /** For `user_operation_rejected`: the index of the refused operation in its handleOps batch. */
  opIndex?: number;
}

/**
 * The one error class of `@slotgate/contracts`. Branch on {@link ContractsError.code}; messages never
 * contain keys or signatures. Direct contract calls made with the typed handles throw ethers errors;
 * name their custom errors with {@link decodeContractError}.
 *
 * @example
 * ```ts
 * try {
 *   await submitUserOperations(bundler, addresses.entryPoint, [op]);
 * } catch (error) {
 *   if (error instanceof ContractsError && error.code === "user_operation_rejected") {
 *     console.log(error.reason); // e.g. "AA32 paymaster expired or not due"
 *   }
 * }
 * ```
 */
export class ContractsError extends Error {
  /** Stable code. */
  readonly code: ContractsErrorCode;
  /** EntryPoint `AAxx` reason or custom error name, when known. */
  readonly reason: string | undefined;
  /** For `user_operation_rejected`: the index of the refused operation in its handleOps batch. */
  readonly opIndex: number | undefined;

  constructor(code: ContractsErrorCode, message: string, options: ContractsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ContractsError";
    this.code = code;
    this.reason = options.reason;
    this.opIndex = options.opIndex;
  }
}
