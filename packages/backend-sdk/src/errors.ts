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
 * BACKEND_ERRORS.callback_timeout; // { status: 408, message: "authorize callback timeout" }
 * ```
 */
export const BACKEND_ERRORS = {
  /** No user JWT was given to `getSlotInfo` (spec 7: "400 when the login request has no JWT"). */
  missing_token: { status: 400, message: "no JWT given" },
  /** The user JWT is not a decodable JWT. */
  invalid_token: { status: 401, message: "INVALID_TOKEN" },
  /** The user JWT (or an agent token) has expired; checked locally before any request. */
  expired_token: { status: 401, message: "EXPIRED_TOKEN" },
  /** `GET /v1/oauth-meta/authorize` failed: the service refused, answered garbage or was unreachable. */
  authorize_error: { status: 502, message: "AUTHORIZE_ERROR" },
  /** No callback (and code exchange) within the timeout. */
  callback_timeout: { status: 408, message: "authorize callback timeout" },
  /** The service's callback reported failure (`success` other than `1`) or carried no code. */
  callback_rejected: { status: 502, message: "authorize callback rejected" },
  /** `POST /v1/oauth-meta/get_token` failed. */
  token_exchange_error: { status: 502, message: "get_token failed" },
  /** The call was made during or after `shutdown()`, or was pending when it ran. */
  shutdown: { status: 503, message: "shutdown" },
  /** The caller's `AbortSignal` fired. 499: the client closed the request. */
  aborted: { status: 499, message: "aborted" },
  /** The shared pending store (e.g. Redis) failed. */
  store_error: { status: 503, message: "pending store unavailable" },
  /** A delegation token failed verification (signature, issuer, audience, claims). */
  invalid_agent_token: { status: 401, message: "invalid agent token" },
  /** The delegation server's published keys could not be fetched. */
  keys_unavailable: { status: 503, message: "delegation keys unavailable" },
  /**
   * The service refused a refresh token (`invalid_grant`: expired, revoked, ended by logout, or reused,
   * which ends the session). Sign the user in again.
   */
  refresh_rejected: { status: 401, message: "refresh rejected" },
  /** A Slotgate API call answered an error status. `error` and `serviceStatus` carry the service's answer. */
  service_error: { status: 502, message: "service error" },
  /**
   * A money-moving call was accepted and recorded by the service (HTTP 202) but its chain write had not
   * landed when the client stopped waiting (`pendingTimeoutMs`). It lands exactly once anyway: `writeId`
   * names it for `ContentTokenClient.write`, and the same call sent again with the same
   * `idempotencyKey` answers its outcome. 202: accepted, not done yet.
   */
  write_pending: { status: 202, message: "chain write pending" },
  /** A webhook's `Slotgate-Signature` is missing, malformed, or matches no secret (`verifyWebhook`). */
  webhook_signature_invalid: { status: 400, message: "webhook signature invalid" },
  /** A webhook was signed longer ago (or further ahead) than the tolerance: a replay, or a clock far off. */
  webhook_timestamp_out_of_window: { status: 400, message: "webhook timestamp out of window" },
  /** A correctly signed webhook body is not a login-status event. */
  webhook_payload_invalid: { status: 400, message: "webhook payload invalid" },
  /** The service could not be reached. */
  network_error: { status: 502, message: "network error" },
  /** The service answered something that is not the documented JSON. */
  invalid_response: { status: 502, message: "invalid response" },
  /** A constructor option is missing or malformed (a programming or configuration error). */
  invalid_options: { status: 500, message: "invalid options" },
  /** A method argument is missing or malformed (a programming error). */
  invalid_argument: { status: 500, message: "invalid argument" },
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
  /** The service's own message (its body's `message`, clipped to printable text), when it answered one. */
  serviceMessage?: string;
  /** The service's id of a chain write still pending (`write_pending`). */
  writeId?: string;
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
  /** The service's own message (what went wrong and what to fix), when it answered one. */
  readonly serviceMessage: string | undefined;
  /** The chain write to look up later with `ContentTokenClient.write`, on `write_pending`. */
  readonly writeId: string | undefined;

  constructor(code: BackendErrorCode, init: SlotgateBackendErrorInit = {}) {
    const base = BACKEND_ERRORS[code];
    super(init.detail ? `${base.message}: ${init.detail}` : base.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.status = base.status;
    this.error = init.error;
    this.serviceStatus = init.serviceStatus;
    this.serviceMessage = init.serviceMessage;
    this.writeId = init.writeId;
  }

  /** A JSON view without the stack or cause, safe to send to a client. */
  toJSON(): { name: string; code: BackendErrorCode; status: number; message: string; error?: string; writeId?: string } {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      message: this.message,
      ...(this.error === undefined ? {} : { error: this.error }),
      ...(this.writeId === undefined ? {} : { writeId: this.writeId }),
    };
  }
}

/**
 * Returns whether a value is a {@link SlotgateBackendError}, optionally with a given code.
 *
 * @example
 * ```ts
 * if (isSlotgateBackendError(err, "callback_timeout")) retryLater();
 * ```
 */
export function isSlotgateBackendError(value: unknown, code?: BackendErrorCode): value is SlotgateBackendError {
  return value instanceof SlotgateBackendError && (code === undefined || value.code === code);
}
