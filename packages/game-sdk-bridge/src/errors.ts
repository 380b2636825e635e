/**
 * Stable error codes of `@slotgate/game-sdk-bridge`. They appear as
 * `ErrorCode` in every failed {@link LoginResult} and in the CLI's JSON line,
 * so engines can branch on them without parsing messages.
 *
 * | code | meaning |
 * |---|---|
 * | `INVALID_CONFIG` | a config value is missing or wrong (non-loopback redirect URI, a client secret, a bad port, ...) |
 * | `PORT_IN_USE` | another program already listens on the loopback port |
 * | `LISTEN_FAILED` | the loopback listener could not start for another reason |
 * | `BROWSER_OPEN_FAILED` | the system browser (or the injected opener) could not be started |
 * | `STATE_MISMATCH` | the redirect's `state` was missing or did not match this login attempt |
 * | `MISSING_JWT` | the redirect carried no well-formed `jwt` |
 * | `ACCESS_DENIED` | the player declined on the consent page |
 * | `AUTHORIZATION_ERROR` | Slotgate redirected back with another OAuth error |
 * | `TIMEOUT` | no redirect arrived within the timeout |
 * | `CANCELLED` | the caller aborted the login (AbortSignal, or SIGINT/SIGTERM for the CLI) |
 * | `INTERNAL_ERROR` | an unexpected fault inside this package (please report it) |
 */
export type GameSdkBridgeErrorCode =
  | "INVALID_CONFIG"
  | "PORT_IN_USE"
  | "LISTEN_FAILED"
  | "BROWSER_OPEN_FAILED"
  | "STATE_MISMATCH"
  | "MISSING_JWT"
  | "ACCESS_DENIED"
  | "AUTHORIZATION_ERROR"
  | "TIMEOUT"
  | "CANCELLED"
  | "INTERNAL_ERROR";

/**
 * The one error class of this package. {@link login} never throws it (it
 * resolves a failed {@link LoginResult} instead); {@link openSystemBrowser}
 * and {@link createCommandOpener} reject with it.
 *
 * Messages never contain the JWT, the state or any secret.
 *
 * @example
 * ```ts
 * import { GameSdkBridgeError, openSystemBrowser } from "@slotgate/game-sdk-bridge";
 *
 * try {
 *   await openSystemBrowser("https://auth.slotgate.io/");
 * } catch (error) {
 *   if (error instanceof GameSdkBridgeError && error.code === "BROWSER_OPEN_FAILED") {
 *     console.error(error.message);
 *   }
 * }
 * ```
 */
export class GameSdkBridgeError extends Error {
  /** Stable code; see {@link GameSdkBridgeErrorCode}. */
  readonly code: GameSdkBridgeErrorCode;

  constructor(code: GameSdkBridgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GameSdkBridgeError";
    this.code = code;
  }
}
