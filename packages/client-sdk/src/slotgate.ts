import { CLOCK_SKEW_SECONDS, LOGIN_TIMEOUT_MS } from "./constants.js";
import { SlotgateError } from "./errors.js";
import { awaitLoginResult } from "./login/await-result.js";
import { authorizeUrl, openPopup } from "./login/popup.js";
import { randomState } from "./login/state.js";
import { type ResolvedOptions, type SlotgateOptions, resolveOptions } from "./options.js";
import { readExpiry } from "./session/jwt-expiry.js";
import { revokeToken } from "./session/revoke.js";
import { KEYS, type KeyValueStore, clearSession, migrateLegacyKeys, openStore } from "./session/storage.js";

/**
 * Options of {@link Slotgate.login}.
 *
 * @example
 * ```ts
 * await slotgate.login({ timeout: 60_000 }); // state: generated
 * ```
 */
export interface LoginOptions {
  /**
   * The OAuth `state` (CSRF token) sent to the service and required back in the answer.
   * @default 32 random bytes from `crypto.getRandomValues`, base64url
   */
  state?: string;
  /**
   * How long to wait for the popup's answer, in milliseconds, before rejecting with `Login timeout`.
   * @default 120000
   */
  timeout?: number;
}

/**
 * What {@link Slotgate.login} resolves to.
 *
 * @example
 * ```ts
 * const { jwt }: LoginResult = await slotgate.login();
 * ```
 */
export interface LoginResult {
  /** The user JWT (7 days) issued by the service; send it to your backend. */
  jwt: string;
}

/**
 * Options of {@link Slotgate.logout}.
 *
 * @example
 * ```ts
 * await slotgate.logout({ timeout: 2_000 });
 * ```
 */
export interface LogoutOptions {
  /**
   * How long to wait for the revoke call, in milliseconds; the local session is cleared first anyway.
   * @default 5000
   */
  timeout?: number;
}

/**
 * Options of the deprecated {@link Slotgate.refresh}.
 *
 * @deprecated Removed with `refresh()` in 4.0.0.
 *
 * @example
 * ```ts
 * // Do not: a client secret never belongs in a browser. Call login() again instead.
 * ```
 */
export interface RefreshOptions {
  /** Never send a client secret from a browser; this option exists only for v2 source compatibility. */
  clientSecret?: string;
}

let warnedRefresh = false;

/**
 * The Slotgate browser client (spec 4.12): popup login over postMessage, the stored session, logout.
 *
 * @example
 * ```ts
 * import { Slotgate } from "@slotgate/client-sdk";
 *
 * const slotgate = new Slotgate({
 *   slotgateUrl: "https://auth.slotgate.example",
 *   clientId: "sg_0123456789abcdefghijklmn",
 *   redirectUri: "https://game.example/slotgate-callback.html",
 * });
 * button.onclick = async () => {
 *   const { jwt } = await slotgate.login();
 *   await fetch("/api/session", { method: "POST", headers: { authorization: `Bearer ${jwt}` } });
 * };
 * ```
 */
export class Slotgate {
  readonly #options: ResolvedOptions;
  readonly #store: KeyValueStore;
  #pending: { popup: Window; promise: Promise<LoginResult> } | undefined;

  /**
   * Validates the options (throws `SlotgateError` with code `invalid_options` naming the field) and moves
   * any v1 `gameauth_*` storage keys to `slotgate_*`.
   *
   * @example
   * ```ts
   * const slotgate = new Slotgate({ slotgateUrl, clientId, redirectUri, popupWidth: 480 });
   * ```
   */
  constructor(options: SlotgateOptions) {
    this.#options = resolveOptions(options);
    this.#store = openStore();
    migrateLegacyKeys(this.#store);
  }

  /**
   * Opens the Slotgate login popup and resolves with the user JWT, which is also stored (see
   * {@link Slotgate.getToken}). Call it directly in a click handler: the popup is opened synchronously,
   * before any `await`, so popup blockers allow it.
   *
   * Rejects with a {@link SlotgateError}: `popup_blocked` (`Popup blocked`), `popup_closed`
   * (`User closed the login window`), `login_failed` (`Login failed: {reason}`, e.g. `access_denied`),
   * `login_timeout` (`Login timeout`) or `invalid_options`.
   *
   * While a login is in progress, calling `login()` again focuses the open popup and returns the same
   * promise (a double click does not open a second popup); its options are ignored.
   *
   * @example
   * ```ts
   * loginButton.addEventListener("click", async () => {
   *   try {
   *     const { jwt } = await slotgate.login({ timeout: 60_000 });
   *     await sendToBackend(jwt);
   *   } catch (error) {
   *     if (error instanceof SlotgateError && error.code === "popup_closed") return;
   *     showError(error.message);
   *   }
   * });
   * ```
   */
  login(options: LoginOptions = {}): Promise<LoginResult> {
    if (this.#pending) {
      try {
        this.#pending.popup.focus();
      } catch {}
      return this.#pending.promise;
    }
    const { state = randomState(), timeout = LOGIN_TIMEOUT_MS } = options ?? {};
    if (typeof state !== "string" || state.length === 0 || state.length > 1024) {
      return Promise.reject(new SlotgateError("invalid_options", "state must be a string of 1 to 1024 characters"));
    }
    if (!Number.isInteger(timeout) || timeout <= 0 || timeout > 2_147_483_647) {
      return Promise.reject(new SlotgateError("invalid_options", "timeout must be a positive integer of milliseconds"));
    }
    const o = this.#options;
    const popup = openPopup(authorizeUrl(o, state), o.width, o.height);
    if (!popup) return Promise.reject(new SlotgateError("popup_blocked"));
    const promise = awaitLoginResult(popup, state, o.origin, timeout)
      .then((jwt) => {
        try {
          this.#store.setItem(KEYS.accessToken, jwt);
        } catch {
          // Storage full or revoked mid-session: the caller still gets the JWT.
        }
        return { jwt };
      })
      .finally(() => {
        this.#pending = undefined;
      });
    this.#pending = { popup, promise };
    return promise;
  }

  /**
   * Ends the session: clears every `slotgate_*` storage key, then deactivates the JWT on the service
   * (`POST /v1/oauth/revoke` with the bearer token). Never throws or rejects (v3): a failed revoke is
   * swallowed, and the local session is gone either way.
   *
   * @example
   * ```ts
   * await slotgate.logout();
   * showLoggedOut();
   * ```
   */
  async logout(options: LogoutOptions = {}): Promise<void> {
    try {
      const token = this.getToken();
      clearSession(this.#store);
      const timeout = options?.timeout;
      if (token) await revokeToken(this.#options.baseUrl, token, this.#options.fetch, timeout && timeout > 0 ? timeout : 5000);
    } catch {
      // logout never throws (v3)
    }
  }

  /**
   * The stored access token (the user JWT from {@link Slotgate.login}), or null.
   *
   * @example
   * ```ts
   * const jwt = slotgate.getToken();
   * if (jwt) headers.authorization = `Bearer ${jwt}`;
   * ```
   */
  getToken(): string | null {
    return this.#store.getItem(KEYS.accessToken);
  }

  /**
   * The stored refresh token, or null. The popup flow never stores one; a value can only come from a
   * migrated v1 session.
   *
   * @example
   * ```ts
   * slotgate.getRefreshToken(); // null in the popup flow
   * ```
   */
  getRefreshToken(): string | null {
    return this.#store.getItem(KEYS.refreshToken);
  }

  /**
   * The stored authorization code, or null. The popup flow never stores one; a value can only come from a
   * migrated v1 session.
   *
   * @example
   * ```ts
   * slotgate.getCode(); // null in the popup flow
   * ```
   */
  getCode(): string | null {
    return this.#store.getItem(KEYS.code);
  }

  /**
   * Whether a stored access token exists whose `exp` claim has not passed, allowing 30 seconds of clock
   * skew (the service's own tolerance). The signature is not checked here; the service checks it on
   * every call. A token without a readable `exp` counts as logged out.
   *
   * @example
   * ```ts
   * if (!slotgate.isLoggedIn()) showLoginButton();
   * ```
   */
  isLoggedIn(): boolean {
    const token = this.getToken();
    const exp = token ? readExpiry(token) : undefined;
    return exp !== undefined && Date.now() < (exp + CLOCK_SKEW_SECONDS) * 1000;
  }

  /**
   * Always rejects with `refresh_unsupported`: the popup flow has no refresh token, and refreshing needs
   * the client secret, which never belongs in a browser. Log in again, or refresh on your backend.
   *
   * @deprecated Since 3.0.0; removed in 4.0.0. Call {@link Slotgate.login} again, or refresh server-side.
   *
   * @example
   * ```ts
   * // before (v2): await slotgate.refresh({ clientSecret });
   * const { jwt } = await slotgate.login();
   * ```
   */
  refresh(_options?: RefreshOptions): Promise<never> {
    if (!warnedRefresh) {
      warnedRefresh = true;
      console.warn("[slotgate] refresh() is deprecated, always fails in the popup flow and is removed in 4.0.0.");
    }
    return Promise.reject(
      new SlotgateError("refresh_unsupported", "refresh() is not supported in the popup flow; call login() again"),
    );
  }
}
