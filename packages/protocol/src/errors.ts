/**
 * The error-code catalogue of the Slotgate HTTP service.
 *
 * Every error response carries one of these codes in its `error` field, with
 * the HTTP status given here. Codes are stable: they are added, never renamed
 * or reused. `ERR_MISSING_PARAMS`, `invalid_client` and the RFC 6749 token
 * errors keep the spellings the specification and OAuth 2.0 use.
 *
 * @example
 * ```ts
 * import { ERRORS } from "@slotgate/protocol";
 * res.status(ERRORS.invalid_client.status).json({
 *   success: false, error: "invalid_client", message: ERRORS.invalid_client.message,
 * });
 * ```
 */
export const ERRORS = {
  // --- request shape ---
  ERR_MISSING_PARAMS: {
    status: 400,
    message: "The login URL lacks one of client_id, redirect_uri, response_type or state (state may be left out only when PKCE S256 protects a code redirect).",
  },
  invalid_request: { status: 400, message: "The request is missing a field or has a field of the wrong type." },
  malformed_json: { status: 400, message: "The request body is not valid JSON." },
  unsupported_media_type: { status: 415, message: "Send the body as application/json." },
  payload_too_large: { status: 413, message: "The request body is larger than the service accepts." },
  unsupported_response_type: { status: 400, message: "response_type must be code." },
  not_found: { status: 404, message: "No such endpoint." },
  method_not_allowed: { status: 405, message: "This endpoint does not accept that HTTP method." },
  rate_limited: { status: 429, message: "Too many requests; retry after the time in the Retry-After header." },
  idempotency_key_reused: {
    status: 422,
    message: "This Idempotency-Key was used with another request; send a new key for a new request, or repeat the first request exactly.",
  },

  // --- OAuth 2.0 (RFC 6749 section 5.2 spellings) ---
  invalid_client: { status: 401, message: "Unknown client_id or wrong client_secret." },
  redirect_uri_mismatch: { status: 401, message: "redirect_uri mismatch: it must equal a registered redirect URI character for character." },
  invalid_grant: { status: 400, message: "The authorization code is unknown, expired, already used, or was issued to another client or redirect_uri." },
  unsupported_grant_type: { status: 400, message: "grant_type must be authorization_code, refresh_token or urn:ietf:params:oauth:grant-type:device_code." },
  unauthorized_client: { status: 400, message: "This client is not registered for this grant type; register it with the grant in grant_types." },
  access_denied: { status: 400, message: "The user denied the authorization request." },
  invalid_token: { status: 401, message: "The bearer token is missing, malformed, expired, revoked or not signed by this service." },
  token_user_mismatch: { status: 403, message: "The bearer token does not belong to the user_id or client_id in the request." },
  // --- device authorization grant (RFC 8628 section 3.5 spellings) ---
  authorization_pending: { status: 400, message: "The user has not approved the device yet; keep polling at the interval." },
  slow_down: { status: 400, message: "Polling too fast; wait the interval plus 5 seconds before the next poll." },
  expired_token: { status: 400, message: "The device_code has expired; start a new device authorization." },
  csrf_failed: { status: 403, message: "The form's CSRF token is missing or wrong; reload the page and try again." },

  // --- accounts ---
  invalid_credentials: { status: 401, message: "Wrong email or password." },
  sign_in_throttled: { status: 429, message: "Too many wrong passwords for this account; wait the time in Retry-After before the next try." },
  email_taken: { status: 409, message: "An account with this email already exists." },
  client_not_found: { status: 404, message: "No client application with this client_id belongs to you." },
  delivery_not_found: { status: 404, message: "No delivery with this id belongs to this client application." },
  delivery_not_retryable: { status: 409, message: "This delivery already succeeded; only a pending or failed delivery can be retried." },
  otp_invalid: { status: 401, message: "The one-time code from the email is wrong; check it and try again." },
  otp_expired: { status: 400, message: "The one-time code expired, was already used, or belongs to another request; ask for a new code." },
  otp_locked: { status: 423, message: "Too many wrong one-time codes; ask for a new code." },
  email_not_verified: { status: 403, message: "This account has no verified email address yet." },
  identity_provider_error: { status: 502, message: "The identity provider did not complete the sign-in; try again or use another way to sign in." },

  // --- content tokens ---
  provider_not_registered: { status: 404, message: "No provider is registered for this client_id and cuid." },
  cuid_taken: { status: 409, message: "This cuid is already registered." },
  release_disabled: { status: 409, message: "Release is not enabled for this cuid; ask the platform operator to enable it." },
  insufficient_balance: { status: 409, message: "The slot's content-token balance is smaller than the amount." },
  insufficient_allowance: { status: 409, message: "The slot's wallet has not approved enough XOTN for this purchase." },
  invalid_encrypted_message: {
    status: 400,
    message: "encrypted_message is not hex AES-256-CTR of a JSON object with client_id, user_dbkey, amount and cuid under this provider's key.",
  },
  encrypted_message_mismatch: { status: 403, message: "The decrypted fields do not match the caller's provider registration." },
  replayed_message: { status: 409, message: "This encrypted message (nonce) was already accepted." },
  stale_message: { status: 400, message: "The encrypted message's timestamp is outside the accepted window." },
  slot_not_found: { status: 404, message: "No slot is known for this identifier." },
  logout_required: {
    status: 409,
    message:
      "The user is logged in to the game that owns this cuid; the slot can be sold, put to sleep or activated only after logout (POST /v1/oauth/status/logout).",
  },
  slot_transfer_in_progress: {
    status: 409,
    message: "A sale of this user's slot is being written to the chain; the login status can change once it has settled. Retry after the Retry-After seconds.",
  },
  slot_wallet_unsafe: {
    status: 409,
    message:
      "This slot's wallet cannot be sold: the chain does not show that nothing its owner set can outlive the sale (a wallet made before slot wallets were locked, or one running other code). Nothing was moved.",
  },

  // --- wallets, PIN and keys ---
  wallet_exists: { status: 409, message: "A wallet is already registered for this user." },
  wallet_not_found: { status: 404, message: "No wallet is registered for this user; register a PIN first." },
  pin_invalid: { status: 401, message: "The PIN or the key share is wrong." },
  pin_locked: { status: 423, message: "Too many wrong PIN attempts; the wallet is locked for a while." },
  mnemonic_mismatch: { status: 401, message: "The mnemonic does not match the wallet's stored mnemonic." },
  identity_not_verified: { status: 403, message: "Recovery needs a verified email identity first." },
  invalid_caller_assertion: {
    status: 401,
    message: "The chain service refused the call: the front service's caller assertion is missing, forged, expired, or names another user or call.",
  },
  caller_assertion_replayed: { status: 401, message: "The chain service refused the call: its caller assertion was already used." },
  not_owner: { status: 403, message: "The caller does not own this address or slot." },
  sponsorship_refused: {
    status: 403,
    message:
      "The platform does not sponsor this operation: the token is not on the sponsorship allow-list, or the operation may use more gas than one operation may.",
  },

  // --- wallet window ---
  confirmation_not_found: { status: 404, message: "No wallet confirmation with this id belongs to this client application." },
  confirmation_closed: { status: 409, message: "This wallet confirmation was already approved, denied or has expired; create a new one." },
  cuid_not_owned: { status: 403, message: "This client application did not register the cuid (or the slot's cu_id) it asks the player about." },
  wallet_session_required: {
    status: 401,
    message: "The wallet window has no sign-in of this player for this client application; sign in through the client's login first.",
  },
  wallet_user_mismatch: { status: 403, message: "The player signed in to this window is not the player this confirmation is for." },

  // --- service ---
  chain_unavailable: { status: 503, message: "The blockchain node did not answer; retry later." },
  sponsorship_budget_exceeded: {
    status: 429,
    message: "The gas the platform sponsors for this user or cuid today is used up; retry after the time in Retry-After.",
  },
  write_not_found: { status: 404, message: "No chain write with this id belongs to you." },
  chain_reverted: { status: 409, message: "The blockchain rejected the transaction." },
  service_unavailable: { status: 503, message: "The service is starting or shutting down; retry later." },
  internal_error: { status: 500, message: "Internal error." },
  sealed_record_invalid: {
    status: 500,
    message:
      "A secret the service keeps for this request failed its integrity check (it was altered, or sealed under another key); nothing was changed. Ask the platform operator to restore it.",
  },
} as const satisfies Record<string, { status: number; message: string }>;

/** A stable error code of the Slotgate HTTP service. */
export type ErrorCode = keyof typeof ERRORS;

/** The list of every error code, for iteration and documentation. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/**
 * Returns whether a string is a known Slotgate error code.
 *
 * @example
 * ```ts
 * if (isErrorCode(body.error)) console.log(ERRORS[body.error].status);
 * ```
 */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERRORS, value);
}

/** One field-level validation problem, as listed in {@link ErrorBody.details}. */
export interface ErrorDetail {
  /** Dotted path of the offending field, e.g. `redirect_uri` or `data.0.amount`. */
  path: string;
  /** What is wrong with it and what to send instead. */
  message: string;
}

/**
 * The one shape of every error response body of the service.
 *
 * `/oauth/token` additionally carries RFC 6749's `error_description`.
 */
export interface ErrorBody {
  success: false;
  /** Stable error code from {@link ERRORS}. */
  error: ErrorCode;
  /** What went wrong and what to fix. Never contains a secret. */
  message: string;
  /** RFC 6749 `error_description` (token endpoint); equals `message`. */
  error_description?: string;
  /** Field-level problems of a rejected request. */
  details?: ErrorDetail[];
}
