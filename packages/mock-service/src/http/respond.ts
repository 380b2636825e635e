import { ERRORS, type ErrorBody } from "@slotgate/protocol";
import { HttpError } from "./http-error.js";

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}

/** The error body of an {@link HttpError}. */
export function errorBody(error: HttpError, withDescription: boolean): ErrorBody {
  const message = error.hasCustomMessage ? error.message : ERRORS[error.code].message;
  return {
    success: false,
    error: error.code,
    message,
    ...(withDescription ? { error_description: message } : {}),
    ...(error.details ? { details: error.details } : {}),
  };
}

/** The JSON error response of an {@link HttpError}. */
export function errorResponse(error: HttpError, options: { withDescription?: boolean; headers?: Record<string, string> } = {}): Response {
  return json(errorBody(error, options.withDescription ?? false), ERRORS[error.code].status, {
    ...options.headers,
    ...error.headers,
  });
}

/** Runs a route body, turning thrown {@link HttpError}s into error responses and anything else into 500 (no stack). */
export async function guard(run: () => Promise<Response>, options: { withDescription?: boolean; headers?: Record<string, string> } = {}): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error, options);
    return errorResponse(new HttpError("internal_error"), options);
  }
}
