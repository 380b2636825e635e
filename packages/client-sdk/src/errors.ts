/**
 * Stable codes of {@link SlotgateError}. They are added, never renamed.
 *
 * | code | message |
 * |---|---|
 * | `popup_blocked` | `Popup blocked` |
 * | `popup_closed` | `User closed the login window` |
 * | `login_failed` | `Login failed: {reason}` |
 * | `login_timeout` | `Login timeout` |
 * | `invalid_options` | what to fix in the constructor or `login()` options |
 * | `refresh_unsupported` | `refresh()` always fails in the popup flow (removed in 4.0) |
 *
 * @example
 * ```ts
 * const retryable: SlotgateErrorCode[] = ["popup_closed", "login_timeout"];
 * ```
 */
export type SlotgateErrorCode = "popup_blocked" | "popup_closed" | "login_failed" | "login_timeout" | "invalid_options" | "refresh_unsupported";

const MESSAGES: Partial<Record<SlotgateErrorCode, string>> = {
  popup_blocked: "Popup blocked",
  popup_closed: "User closed the login window",
  login_timeout: "Login timeout",
};

/**
 * The one error class of `@slotgate/client-sdk`. Branch on {@link SlotgateError.code};
 * the message is the human text of spec section 7.
 *
 * @example
 * ```ts
 * try {
 *   await slotgate.login();
 * } catch (error) {
 *   if (error instanceof SlotgateError && error.code === "popup_blocked") showLoginButtonHint();
 * }
 * ```
 */
export class SlotgateError extends Error {
  override readonly name = "SlotgateError";
  /** Stable code; see {@link SlotgateErrorCode}. */
  readonly code: SlotgateErrorCode;
  /** For `login_failed`: the reason the service sent (e.g. `access_denied`). */
  readonly reason?: string;

  /**
   * @param code - stable error code
   * @param detail - the reason (`login_failed`) or the message (other codes without a fixed text)
   */
  constructor(code: SlotgateErrorCode, detail?: string) {
    super(code === "login_failed" ? `Login failed: ${detail}` : (MESSAGES[code] ?? detail ?? code));
    this.code = code;
    if (code === "login_failed") this.reason = detail;
  }
}
