/**
 * The numeric limits of the Slotgate specification (section 8), in one place.
 *
 * Every SDK and the reference server read their defaults from here, so a
 * limit changes in exactly one file.
 *
 * @example
 * ```ts
 * import { LIMITS } from "@slotgate/protocol";
 * setTimeout(onTimeout, LIMITS.loginTimeoutMs);
 * ```
 */
export const LIMITS = {
  /** Backend SDK: how long `getSlotInfo` waits for the service callback. */
  getSlotInfoTimeoutMs: 15_000,
  /** Client SDK: how long `login()` waits for the popup's answer. */
  loginTimeoutMs: 120_000,
  /** Client SDK: default popup width in CSS pixels. */
  popupWidth: 600,
  /** Client SDK: default popup height in CSS pixels. */
  popupHeight: 500,
  /** Lifetime of the user JWT returned by the popup login: 7 days, in seconds. */
  userJwtLifetimeSeconds: 7 * 24 * 60 * 60,
  /** A browser session (silent renewal, the wallet window) lives this long after its last use (sign-in or renewal), in seconds… */
  browserSessionIdleSeconds: 30 * 86_400,
  /** …and at most this long after the interactive sign-in, in seconds; then the user signs in again. */
  browserSessionMaxSeconds: 90 * 86_400,
  /** Lifetime of an access token issued by the code exchange, in seconds (`expires_in`). */
  accessTokenLifetimeSeconds: 60 * 60,
  /** Lifetime of an authorization code, in seconds. Codes are also single-use. */
  authorizationCodeLifetimeSeconds: 60,
  /** Lifetime of one refresh token, in seconds: each rotation issues a new one valid this long. */
  refreshTokenLifetimeSeconds: 30 * 24 * 60 * 60,
  /** Longest life of a refresh-token family (one sign-in), in seconds; then the user signs in again. */
  refreshFamilyLifetimeSeconds: 90 * 24 * 60 * 60,
  /** Window after a refresh token's first use in which a concurrent use gets the same successor instead of revoking the family, in seconds. */
  refreshReuseGraceSeconds: 10,
  /** Lifetime of a device_code and its user_code (RFC 8628 `expires_in`), in seconds. */
  deviceCodeLifetimeSeconds: 10 * 60,
  /** Smallest polling interval of the device grant (RFC 8628 `interval`), in seconds. */
  devicePollIntervalSeconds: 5,
  /** Seconds added to the interval on each `slow_down` (RFC 8628 section 3.5). */
  deviceSlowDownSeconds: 5,
  /** Clock-skew tolerance applied when checking `exp` / `nbf`, in seconds. */
  clockSkewSeconds: 30,
  /** Validity of a paymaster signature (`validUntil - validAfter`), in seconds. */
  paymasterValiditySeconds: 5 * 60,
  /** Share of each purchase that goes to the platform treasury, in percent. */
  platformFeePercent: 15,
  /** Share of each purchase that goes to the provider's `owner_addr`, in percent. */
  providerSharePercent: 85,
  /** Smallest allowed `release_per`. */
  releasePerMin: 0,
  /** Largest allowed `release_per`. */
  releasePerMax: 100,
  /** AES-256-CTR key length in bytes (64 hex characters). */
  aesKeyBytes: 32,
  /** AES-256-CTR IV length in bytes (32 hex characters). */
  aesIvBytes: 16,
  /** Length of `pin_salt` in hex characters. */
  pinSaltHexLength: 64,
  /** Size of each key share in bytes. */
  keyShareBytes: 32,
  /** PBKDF2 iterations used to derive `share_pin`. */
  pbkdf2Iterations: 100_000,
  /** PBKDF2 digest used to derive `share_pin`. */
  pbkdf2Digest: "sha256",
  /** Recommended attempts for a status login/logout call. */
  statusRetryAttempts: 3,
  /** Digits of an emailed one-time code (sign-up, linking, recovery). */
  otpDigits: 6,
  /** Lifetime of an emailed one-time code, in seconds. Codes are also single-use. */
  otpLifetimeSeconds: 10 * 60,
  /** Wrong entries of one emailed code before it is locked (`otp_locked`). */
  otpMaxAttempts: 5,
  /** Emailed codes per address (or account) and purpose within an hour; more answer `rate_limited`. */
  otpPerHour: 5,
  /** Longest `Idempotency-Key` header, in characters. */
  idempotencyKeyMaxLength: 255,
  /**
   * How long an `Idempotency-Key` is remembered at least (a retry within it answers the first request's
   * outcome), in seconds: the key and its write's answer are kept this long after the write settled, or
   * longer when the server is configured so (`CHAIN_WRITE_RETENTION_SECONDS`), then deleted.
   */
  idempotencyKeyLifetimeSeconds: 24 * 60 * 60,
  /** How long a money endpoint waits for its chain write to land before it answers 202 with the write's id, in seconds. */
  chainWriteWaitSeconds: 30,
  /** Largest JSON request body the service accepts, in bytes. */
  maxJsonBodyBytes: 64 * 1024,
  /** Largest client logo, in bytes (its base64 fits a JSON body with room to spare). */
  brandLogoMaxBytes: 40 * 1024,
  /** Smallest and largest side of a client logo, in pixels. */
  brandLogoMinPixels: 16,
  brandLogoMaxPixels: 1024,
  /** Least WCAG contrast of white text on a client's accent colour (AA for normal text). */
  brandAccentMinContrast: 4.5,
} as const;

/** The type of {@link LIMITS}. */
export type Limits = typeof LIMITS;
