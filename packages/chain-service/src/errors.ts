import { ERRORS, type ErrorCode } from "@slotgate/protocol";

/**
 * The error codes the chain service raises: a subset of the `@slotgate/protocol` catalogue, so the
 * HTTP layer maps them to a status with `ERRORS[code].status` and nothing else.
 */
export type ChainServiceErrorCode = Extract<
  ErrorCode,
  | "invalid_request"
  | "wallet_exists"
  | "wallet_not_found"
  | "pin_invalid"
  | "pin_locked"
  | "mnemonic_mismatch"
  | "identity_not_verified"
  | "invalid_caller_assertion"
  | "caller_assertion_replayed"
  | "not_owner"
  | "sponsorship_refused"
  | "provider_not_registered"
  | "cuid_taken"
  | "release_disabled"
  | "insufficient_balance"
  | "insufficient_allowance"
  | "invalid_encrypted_message"
  | "encrypted_message_mismatch"
  | "replayed_message"
  | "stale_message"
  | "slot_not_found"
  | "slot_transfer_in_progress"
  | "slot_wallet_unsafe"
  | "chain_unavailable"
  | "chain_reverted"
  | "idempotency_key_reused"
  | "sponsorship_budget_exceeded"
  | "write_not_found"
  | "service_unavailable"
  | "internal_error"
  | "sealed_record_invalid"
>;

/** Options of {@link ChainServiceError}. */
export interface ChainServiceErrorOptions {
  /** The underlying error (kept for logs; never carries key material). */
  cause?: unknown;
  /** Extra machine-readable facts, e.g. `{ retry_after_seconds: 900 }` for `pin_locked`. */
  details?: Record<string, string | number>;
}

/**
 * The one error class of `@slotgate/chain-service`. `code` is a stable code of the protocol's
 * `ERRORS` catalogue and `status` its HTTP status; messages never contain keys, shares, PINs or
 * mnemonics.
 *
 * @example
 * ```ts
 * try {
 *   await service.verifyPin({ user_uuid: 7, pin_hash, pin_salt, key_share_user, operation });
 * } catch (error) {
 *   if (error instanceof ChainServiceError) res.status(error.status).json(error.toBody());
 * }
 * ```
 */
export class ChainServiceError extends Error {
  /** Stable error code from the protocol catalogue. */
  readonly code: ChainServiceErrorCode;
  /** HTTP status of {@link ChainServiceError.code}. */
  readonly status: number;
  /** Extra machine-readable facts. */
  readonly details: Record<string, string | number> | undefined;

  constructor(code: ChainServiceErrorCode, message?: string, options: ChainServiceErrorOptions = {}) {
    super(message ?? ERRORS[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ChainServiceError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = options.details;
  }

  /**
   * The wire error body (`{ success:false, error, message }`).
   *
   * @example
   * ```ts
   * res.status(error.status).json(error.toBody());
   * ```
   */
  toBody(): { success: false; error: ChainServiceErrorCode; message: string } {
    return { success: false, error: this.code, message: this.message };
  }
}
