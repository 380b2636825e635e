import { CLOCK_SKEW_SECONDS, LOGIN_TIMEOUT_MS, RENEW_BEFORE_SECONDS, RENEW_TIMEOUT_MS } from "./constants.js";
import { SlotgateError } from "./errors.js";
import { awaitLoginResult } from "./login/await-result.js";
import { authorizeUrl } from "./login/popup.js";
import { openPopup } from "./popup/open.js";
import { finishRedirect, REDIRECT_PARAMS, startRedirect } from "./login/redirect.js";
import { renewInFrame } from "./login/silent.js";
import { randomState } from "./login/state.js";
import { type ResolvedOptions, type SlotgateOptions, resolveOptions } from "./options.js";
import { type Listener, Listeners, type SlotgateEvent } from "./session/events.js";
import { readExpiry } from "./session/jwt-expiry.js";
import { endServiceSession, revokeToken } from "./session/revoke.js";
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
 * Options of {@link Slotgate.loginWithRedirect}.
 *
 * @example
 * ```ts
 * await slotgate.loginWithRedirect({ state: crypto.randomUUID() });
 * ```
 */
export interface RedirectLoginOptions {
  /**
   * The OAuth `state` (CSRF token) sent to the service and required back on the redirect URI.
   * @default 32 random bytes from `crypto.getRandomValues`, base64url
   */
  state?: string;
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
  readonly #listeners = new Listeners();
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;
  #renewTimer: ReturnType<typeof setTimeout> | undefined;
  #renewing: Promise<LoginResult> | undefined;
  #watching = false;

  /**
   * Validates the options (throws `SlotgateError` with code `invalid_options` naming the field) and moves
   * any v1 `gameauth_*` storage keys to `slotgate_*`. Touches no `window` API, so it is safe during server
   * rendering.
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
    if (!this.#options.autoRenew || typeof window === "undefined") return;
    this.#watch();
    if (this.getToken() && !this.isLoggedIn()) this.renew().catch(() => {});
  }

  /**
   * Subscribes to login-state changes: `login`, `logout`, `expired` (see {@link SlotgateEvent}), in this tab
   * and, through the `storage` event, in other tabs of the same origin. Returns the unsubscribe function. The
   * first subscription starts the watch (a `storage` listener and one timer at the JWT's expiry); an instance
   * nobody subscribes to keeps no listener or timer.
   *
   * @example
   * ```ts
   * const off = slotgate.on("logout", () => showLoggedOut());
   * slotgate.on("expired", () => slotgate.loginWithRedirect());
   * off(); // stop listening
   * ```
   */
  on(type: SlotgateEvent, listener: Listener): () => void {
    this.#watch();
    return this.#listeners.on(type, listener);
  }

  #watch(): void {
    if (this.#watching || typeof window === "undefined") return;
    this.#watching = true;
    window.addEventListener("storage", (event) => {
      if (event.key === KEYS.accessToken || event.key === null) this.#changed(this.getToken() ? "login" : "logout");
    });
    this.#watchExpiry();
  }

  #changed(type: SlotgateEvent): void {
    this.#watchExpiry();
    this.#listeners.emit(type);
  }

  /**
   * Fires `expired` once when the stored JWT's `exp` (plus skew) passes and, with `autoRenew`, renews 5 minutes
   * before `exp`; re-armed on every change.
   */
  #watchExpiry(): void {
    clearTimeout(this.#expiryTimer);
    clearTimeout(this.#renewTimer);
    const token = this.getToken();
    const exp = token ? readExpiry(token) : undefined;
    if (exp === undefined || !this.#watching) return;
    const at = (seconds: number, fire: () => void) => {
      const wait = seconds * 1000 - Date.now();
      return wait <= 0 ? undefined : setTimeout(() => (wait > 2 ** 31 - 1 ? this.#watchExpiry() : fire()), Math.min(wait, 2 ** 31 - 1));
    };
    this.#expiryTimer = at(exp + CLOCK_SKEW_SECONDS, () => this.#listeners.emit("expired"));
    if (this.#options.autoRenew) this.#renewTimer = at(exp - RENEW_BEFORE_SECONDS, () => this.renew().catch(() => {}));
  }

  /**
   * Renews the session without showing anything: a hidden iframe asks the service (`prompt=none`) for a fresh
   * JWT on the strength of the browser's service session, which the user's last interactive sign-in for this
   * client set (an HttpOnly cookie on the service's origin; no secret and no refresh token is in this page).
   * Stores the JWT and fires `login`. With the `autoRenew` option this runs by itself 5 minutes before the JWT
   * expires, and at construction when the stored JWT has already expired.
   *
   * Rejects with `login_failed` (`login_required`: no service session, e.g. after `logout()`, 30 days idle or
   * 90 days since the sign-in, or a browser that blocks the service's cookie in a third-party frame) or
   * `login_timeout` (10 s). Concurrent calls share one renewal.
   *
   * @example
   * ```ts
   * slotgate.on("expired", () => slotgate.renew().catch(() => showLoginButton()));
   * ```
   */
  renew(options: { timeout?: number } = {}): Promise<LoginResult> {
    this.#renewing ??= renewInFrame(this.#options, options?.timeout ?? RENEW_TIMEOUT_MS)
      .then((jwt) => this.#keep(jwt))
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  #keep(jwt: string): LoginResult {
    try {
      this.#store.setItem(KEYS.accessToken, jwt);
    } catch {
      // Storage full or revoked mid-session: the caller still gets the JWT.
    }
    this.#changed("login");
    return { jwt };
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
      .then((jwt) => this.#keep(jwt))
      .finally(() => {
        this.#pending = undefined;
      });
    this.#pending = { popup, promise };
    return promise;
  }

  /**
   * Logs in with a full-page redirect instead of a popup (mobile browsers and in-app webviews that block
   * popups): an authorization-code request with PKCE S256 and a `state`, both kept in this tab's
   * sessionStorage, then `location.assign` to the service. The service redirects back to `redirectUri` with
   * `code` and `state`; that page calls {@link Slotgate.handleRedirectCallback}. The returned promise settles
   * only if the navigation cannot start (it rejects with `invalid_options`).
   *
   * @example
   * ```ts
   * try {
   *   await slotgate.login();
   * } catch (error) {
   *   if (error instanceof SlotgateError && error.code === "popup_blocked") await slotgate.loginWithRedirect();
   * }
   * ```
   */
  async loginWithRedirect(options: RedirectLoginOptions = {}): Promise<void> {
    const { state = randomState() } = options ?? {};
    if (typeof state !== "string" || state.length === 0 || state.length > 1024) {
      throw new SlotgateError("invalid_options", "state must be a string of 1 to 1024 characters");
    }
    window.location.assign(await startRedirect(this.#options, state));
  }

  /**
   * Completes {@link Slotgate.loginWithRedirect} on the `redirectUri` page: checks the `state` against the one
   * this tab sent (once), redeems the `code` with the PKCE verifier at the service's token endpoint (no
   * secret), stores the JWT, fires `login`, and removes `code` and `state` from the address bar. Resolves null
   * when the URL carries no login result, so it is safe to call on every load.
   *
   * Rejects with `SlotgateError` `login_failed` like the popup, the reason being `access_denied` (the user
   * declined), `state_mismatch` (a result this tab did not ask for, or used twice), the token endpoint's error
   * (e.g. `invalid_grant`) or `network_error`.
   *
   * @param url - the URL the service redirected to
   * @default url location.href
   *
   * @example
   * ```ts
   * // on https://game.example/slotgate-callback
   * const result = await slotgate.handleRedirectCallback();
   * if (result) location.replace("/"); // logged in; result.jwt is stored
   * ```
   */
  async handleRedirectCallback(url: string = window.location.href): Promise<LoginResult | null> {
    const parsed = new URL(url);
    if (!parsed.searchParams.has("code") && !parsed.searchParams.has("error")) return null;
    if (typeof window !== "undefined" && url === window.location.href) {
      for (const name of REDIRECT_PARAMS) parsed.searchParams.delete(name);
      history.replaceState(history.state, "", parsed.pathname + parsed.search + parsed.hash);
    }
    const jwt = await finishRedirect(this.#options, new URL(url));
    return jwt === null ? null : this.#keep(jwt);
  }

  /**
   * Ends the session: clears every `slotgate_*` storage key, fires `logout`, then deactivates the JWT on the
   * service (`POST /v1/oauth/revoke` with the bearer token) and ends the browser's service session for this
   * client (`POST /oauth/logout`), so {@link Slotgate.renew} cannot sign the user back in. Never throws or rejects (v3): a failed revoke is
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
      this.#changed("logout");
      const timeout = options?.timeout && options.timeout > 0 ? options.timeout : 5000;
      const { baseUrl, clientId, fetch } = this.#options;
      if (token) await Promise.all([revokeToken(baseUrl, token, fetch, timeout), endServiceSession(baseUrl, clientId, fetch, timeout)]);
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
    return Promise.reject(new SlotgateError("refresh_unsupported", "refresh() is not supported in the popup flow; call login() again"));
  }
}
