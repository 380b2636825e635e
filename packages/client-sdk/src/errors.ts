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
 * | `confirmation_denied` | wallet window: `The user denied the wallet request` |
 * | `confirmation_failed` | wallet window: `Wallet request failed: {reason}` (`reason`: the service's error code) |
 * | `wallet_timeout` | wallet window: `Wallet timeout` |
 *
 * The wallet window (`@slotgate/client-sdk/wallet`) also rejects with `popup_blocked` and `popup_closed`
 * (`User closed the wallet window`) and `invalid_options`.
 *
 * @example
 * ```ts
 * const retryable: SlotgateErrorCode[] = ["popup_closed", "login_timeout"];
 * ```
 */
export type SlotgateErrorCode =
  | "popup_blocked"
  | "popup_closed"
  | "login_failed"
  | "login_timeout"
  | "invalid_options"
  | "refresh_unsupported"
  | "confirmation_denied"
  | "confirmation_failed"
  | "wallet_timeout";

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
  /**
   * For `login_failed`: the reason the service sent (e.g. `access_denied`). For `confirmation_failed`: the
   * wallet window's error code (e.g. `pin_locked`).
   */
  readonly reason?: string;

  /**
   * @param code - stable error code
   * @param detail - the reason (`login_failed`), else the message (the code's fixed text when left out)
   * @param reason - {@link SlotgateError.reason} for the codes other than `login_failed`
   */
  constructor(code: SlotgateErrorCode, detail?: string, reason?: string) {
    super(code === "login_failed" ? `Login failed: ${detail}` : (detail ?? MESSAGES[code] ?? code));
    this.code = code;
    this.reason = code === "login_failed" ? detail : reason;
  }
}
