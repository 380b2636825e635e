/**
 * Stable error codes of `@slotgate/game-sdk-bridge`. They appear as
 * `ErrorCode` in every failed {@link LoginResult} and in the CLI's JSON line,
 * so engines can branch on them without parsing messages.
 *
 * | code | meaning |
 * |---|---|
 * | `invalid_config` | a config value is missing or wrong (non-loopback redirect URI, a client secret, a bad port, a client Slotgate does not know as public, ...) |
 * | `port_in_use` | another program already listens on the loopback port |
 * | `listen_failed` | the loopback listener could not start for another reason |
 * | `browser_open_failed` | the system browser (or the injected opener) could not be started |
 * | `state_mismatch` | the redirect's `state` was missing or did not match this login attempt |
 * | `missing_jwt` | the redirect carried neither one well-formed `code` nor one `jwt`, or the token answer no JWT |
 * | `access_denied` | the player declined on the consent page |
 * | `authorization_error` | Slotgate redirected back with another OAuth error, or refused to redeem the code (`invalid_grant`) |
 * | `timeout` | no redirect arrived within the timeout |
 * | `code_expired` | device login: the player did not enter the code before it expired |
 * | `network_error` | the Slotgate service could not be reached or answered garbage (device login, code redemption) |
 * | `cancelled` | the caller aborted the login (AbortSignal, or SIGINT/SIGTERM for the CLI) |
 * | `internal_error` | an unexpected fault inside this package (please report it) |
 */
export type GameSdkBridgeErrorCode =
  | "invalid_config"
  | "port_in_use"
  | "listen_failed"
  | "browser_open_failed"
  | "state_mismatch"
  | "missing_jwt"
  | "access_denied"
  | "authorization_error"
  | "timeout"
  | "code_expired"
  | "network_error"
  | "cancelled"
  | "internal_error";

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
 *   if (error instanceof GameSdkBridgeError && error.code === "browser_open_failed") {
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
