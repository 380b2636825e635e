import { GameSdkBridgeError, type GameSdkBridgeErrorCode } from "./errors.js";

/**
 * Outcome of {@link login}. Every field is present twice: PascalCase as in the
 * engine SDK (spec 4.14) and camelCase for JavaScript callers; both hold the same value.
 *
 * @example
 * ```ts
 * const result: LoginResult = await login(config);
 * if (result.success) sendToBackend(result.jwt);
 * else if (result.errorCode === "port_in_use") showMessage(result.errorMessage);
 * ```
 */
export interface LoginResult {
  /** `true` when the player signed in and `Jwt` is set. */
  readonly Success: boolean;
  /** The player's Slotgate JWT; `null` on failure. Send it to your game backend, which verifies it. */
  readonly Jwt: string | null;
  /** What went wrong, in words a player or developer can act on; `null` on success. Never contains a token or secret. */
  readonly ErrorMessage: string | null;
  /** Stable code of the failure; `null` on success. */
  readonly ErrorCode: GameSdkBridgeErrorCode | null;
  /** Same as `Success`. */
  readonly success: boolean;
  /** Same as `Jwt`. */
  readonly jwt: string | null;
  /** Same as `ErrorMessage`. */
  readonly errorMessage: string | null;
  /** Same as `ErrorCode`. */
  readonly errorCode: GameSdkBridgeErrorCode | null;
}

/** @internal */
export function successResult(jwt: string): LoginResult {
  return {
    Success: true,
    Jwt: jwt,
    ErrorMessage: null,
    ErrorCode: null,
    success: true,
    jwt,
    errorMessage: null,
    errorCode: null,
  };
}

/** @internal */
export function failureResult(error: unknown): LoginResult {
  const known =
    error instanceof GameSdkBridgeError ? error : new GameSdkBridgeError("internal_error", "Unexpected error in the loopback login.", { cause: error });
  return {
    Success: false,
    Jwt: null,
    ErrorMessage: known.message,
    ErrorCode: known.code,
    success: false,
    jwt: null,
    errorMessage: known.message,
    errorCode: known.code,
  };
}
