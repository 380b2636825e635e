/**
 * The one error class of `@slotgate/backend-sdk`, its stable codes and the HTTP
 * status a backend should answer its own caller with.
 */

/**
 * Every code a {@link SlotgateBackendError} can carry, with the HTTP status the
 * SDK suggests for your own route and the message it starts with. The first
 * five messages are the specification's own strings (section 7).
 *
 * @example
 * ```ts
 * BACKEND_ERRORS.CALLBACK_TIMEOUT; // { status: 408, message: "authorize callback timeout" }
 * ```
 */
export const BACKEND_ERRORS = {
  /** No user JWT was given to `getSlotInfo` (spec 7: "400 when the login request has no JWT"). */
  MISSING_TOKEN: { status: 400, message: "no JWT given" },
  /** The user JWT is not a decodable JWT. */
  INVALID_TOKEN: { status: 401, message: "INVALID_TOKEN" },
  /** The user JWT (or an agent token) has expired; checked locally before any request. */
  EXPIRED_TOKEN: { status: 401, message: "EXPIRED_TOKEN" },
  /** `GET /v1/oauth-meta/authorize` failed: the service refused, answered garbage or was unreachable. */
  AUTHORIZE_ERROR: { status: 502, message: "AUTHORIZE_ERROR" },
  /** No callback (and code exchange) within the timeout. */
  CALLBACK_TIMEOUT: { status: 408, message: "authorize callback timeout" },
  /** The service's callback reported failure (`success` other than `1`) or carried no code. */
  CALLBACK_REJECTED: { status: 502, message: "authorize callback rejected" },
  /** `POST /v1/oauth-meta/get_token` failed. */
  TOKEN_EXCHANGE_ERROR: { status: 502, message: "get_token failed" },
  /** The call was made during or after `shutdown()`, or was pending when it ran. */
  SHUTDOWN: { status: 503, message: "shutdown" },
  /** The caller's `AbortSignal` fired. 499: the client closed the request. */
  ABORTED: { status: 499, message: "aborted" },
  /** The shared pending store (e.g. Redis) failed. */
  STORE_ERROR: { status: 503, message: "pending store unavailable" },
  /** A delegation token failed verification (signature, issuer, audience, claims). */
  INVALID_AGENT_TOKEN: { status: 401, message: "invalid agent token" },
  /** The delegation server's published keys could not be fetched. */
  KEYS_UNAVAILABLE: { status: 503, message: "delegation keys unavailable" },
  /** A Slotgate API call answered an error status. `error` and `serviceStatus` carry the service's answer. */
  SERVICE_ERROR: { status: 502, message: "service error" },
  /** The service could not be reached. */
  NETWORK_ERROR: { status: 502, message: "network error" },
  /** The service answered something that is not the documented JSON. */
  INVALID_RESPONSE: { status: 502, message: "invalid response" },
  /** A constructor option is missing or malformed (a programming or configuration error). */
  INVALID_OPTIONS: { status: 500, message: "invalid options" },
  /** A method argument is missing or malformed (a programming error). */
  INVALID_ARGUMENT: { status: 500, message: "invalid argument" },
} as const satisfies Record<string, { status: number; message: string }>;

/** A stable code of {@link SlotgateBackendError}. */
export type BackendErrorCode = keyof typeof BACKEND_ERRORS;

/** Extra fields of a {@link SlotgateBackendError}. */
export interface SlotgateBackendErrorInit {
  /** Appended to the code's message after `": "`. Never contains a secret. */
  detail?: string;
  /** The service's stable error code (its body's `error` field), when the service answered one. */
  error?: string;
  /** The HTTP status the Slotgate service answered, when it answered. */
  serviceStatus?: number;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The one error class of the backend SDK. `code` is stable; `status` is the
 * HTTP status the SDK suggests for your own route (spec 7); `error` and
 * `serviceStatus` carry the Slotgate service's answer when there was one.
 *
 * @example
 * ```ts
 * import { SlotgateBackendError } from "@slotgate/backend-sdk";
 * app.post("/login", async (req, res) => {
 *   try {
 *     res.json(await slotgate.getSlotInfo(req.body.jwt));
 *   } catch (err) {
 *     if (!(err instanceof SlotgateBackendError)) throw err;
 *     res.status(err.status).json({ error: err.code, message: err.message });
 *   }
 * });
 * ```
 */
export class SlotgateBackendError extends Error {
  override name = "SlotgateBackendError";
  /** Stable code, one of {@link BACKEND_ERRORS}. */
  readonly code: BackendErrorCode;
  /** Suggested HTTP status for your own route. */
  readonly status: number;
  /** The service's error code, when the Slotgate service answered one. */
  readonly error: string | undefined;
  /** The HTTP status the Slotgate service answered, when it answered. */
  readonly serviceStatus: number | undefined;

  constructor(code: BackendErrorCode, init: SlotgateBackendErrorInit = {}) {
    const base = BACKEND_ERRORS[code];
    super(init.detail ? `${base.message}: ${init.detail}` : base.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.status = base.status;
    this.error = init.error;
    this.serviceStatus = init.serviceStatus;
  }

  /** A JSON view without the stack or cause, safe to send to a client. */
  toJSON(): { name: string; code: BackendErrorCode; status: number; message: string; error?: string } {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      message: this.message,
      ...(this.error === undefined ? {} : { error: this.error }),
    };
  }
}

/**
 * Returns whether a value is a {@link SlotgateBackendError}, optionally with a given code.
 *
 * @example
 * ```ts
 * if (isSlotgateBackendError(err, "CALLBACK_TIMEOUT")) retryLater();
 * ```
 */
export function isSlotgateBackendError(value: unknown, code?: BackendErrorCode): value is SlotgateBackendError {
  return value instanceof SlotgateBackendError && (code === undefined || value.code === code);
}
