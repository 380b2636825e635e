import type { ErrorCode, ErrorDetail } from "@slotgate/protocol";

/** An error the simulated endpoint answers with the contract's error body. Internal. */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, options: { message?: string; details?: ErrorDetail[]; headers?: Record<string, string> } = {}) {
    super(options.message ?? code);
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.hasCustomMessage = options.message !== undefined;
  }
  readonly hasCustomMessage: boolean;
}

/** 401 invalid_token with the RFC 6750 challenge header. */
export function invalidToken(): HttpError {
  return new HttpError("invalid_token", { headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });
}
