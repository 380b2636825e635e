/**
 * Stable error codes of `@slotgate/contracts`.
 *
 * - `INVALID_ARGUMENT`: an argument failed validation before anything was sent.
 * - `DEPLOY_FAILED`: a deployment or wiring transaction of {@link deploy} failed.
 * - `USER_OPERATION_REJECTED`: the EntryPoint refused a UserOperation (`FailedOp`, e.g. `AA24 signature error`,
 *   `AA32 paymaster expired or not due`); {@link ContractsError.reason} carries the EntryPoint's reason.
 * - `USER_OPERATION_REVERTED`: the UserOperation was included but its call reverted; gas was still paid.
 * - `CHAIN_ERROR`: the JSON-RPC provider failed or returned something unexpected.
 */
export type ContractsErrorCode =
  | "INVALID_ARGUMENT"
  | "DEPLOY_FAILED"
  | "USER_OPERATION_REJECTED"
  | "USER_OPERATION_REVERTED"
  | "CHAIN_ERROR";

/** Options of {@link ContractsError}. */
export interface ContractsErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** Machine-readable detail: the EntryPoint `AAxx` reason or the custom error name. */
  reason?: string;
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
 *   if (error instanceof ContractsError && error.code === "USER_OPERATION_REJECTED") {
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

  constructor(code: ContractsErrorCode, message: string, options: ContractsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ContractsError";
    this.code = code;
    this.reason = options.reason;
  }
}
