import { ERRORS, type ErrorBody, type ErrorCode, type ErrorDetail } from "@slotgate/protocol";

/**
 * The server's one error class: a stable code from `@slotgate/protocol`, its HTTP status, and an
 * optional message and field details that are safe to show (never a secret).
 *
 * @example
 * ```ts
 * throw new SlotgateServerError("invalid_client");
 * ```
 */
export class SlotgateServerError extends Error {
  override name = "SlotgateServerError";
  /** HTTP status from the error catalogue. */
  readonly status: number;
  /** Extra response headers (e.g. WWW-Authenticate, Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    options: { message?: string; details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(options.message ?? ERRORS[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = ERRORS[code].status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  /** Field-level problems, for validation failures. */
  readonly details: ErrorDetail[] | undefined;

  /** The JSON body of this error (`error_description` added for the token endpoint). */
  toBody(withDescription = false): ErrorBody {
    const body: ErrorBody = { success: false, error: this.code, message: this.message };
    if (withDescription) body.error_description = this.message;
    if (this.details) body.details = this.details;
    return body;
  }
}
