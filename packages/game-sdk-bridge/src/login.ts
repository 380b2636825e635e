import { buildAuthorizeUrl, createPkce, createState, loopbackRedirectUri } from "./authorize-url.js";
import { type OpenBrowser, openSystemBrowser } from "./browser.js";
import { DEFAULT_LOGIN_TIMEOUT_MS, type LoginConfig, resolveLoginConfig } from "./config.js";
import { GameSdkBridgeError } from "./errors.js";
import type { CallbackOutcome } from "./loopback/callback.js";
import { redeemCode } from "./loopback/code-exchange.js";
import { startCallbackListener } from "./loopback/listener.js";
import { cancelled } from "./post-form.js";
import { failureResult, type LoginResult, successResult } from "./result.js";

/**
 * How {@link login} runs in this JavaScript process.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * cancelButton.onclick = () => controller.abort();
 * const result = await login(config, { timeoutMs: 300_000, signal: controller.signal });
 * ```
 */
export interface LoginOptions {
  /**
   * How long to wait for the redirect after the listener starts, in milliseconds.
   * @default 120000
   */
  timeoutMs?: number;
  /** Aborting it ends the login with `cancelled` and closes the listener. */
  signal?: AbortSignal;
  /**
   * Shows the authorize URL to the player. Tests and automation inject their own.
   * @default openSystemBrowser
   */
  openBrowser?: OpenBrowser;
  /**
   * `fetch` used to redeem the redirect's code at `/oauth/token`.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
}

const MAX_TIMEOUT_MS = 2_147_483_647;

function readTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_LOGIN_TIMEOUT_MS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new GameSdkBridgeError("invalid_config", `timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS}.`);
  }
  return value;
}

function browserFailure(error: unknown): GameSdkBridgeError {
  if (error instanceof GameSdkBridgeError) {
    return new GameSdkBridgeError("browser_open_failed", error.message, { cause: error });
  }
  // The opener's own message is not repeated: it may quote the URL, which carries the state.
  return new GameSdkBridgeError("browser_open_failed", "The browser could not be opened for sign-in.", { cause: error });
}

/** Waits for the redirect, the timeout or the abort, whichever comes first. */
function waitForRedirect(
  outcome: Promise<CallbackOutcome>,
  open: () => Promise<void>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CallbackOutcome> {
  let cleanup = () => {};
  return new Promise<CallbackOutcome>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new GameSdkBridgeError("timeout", `No sign-in arrived within ${timeoutMs / 1000} s. Start the login again.`));
    }, timeoutMs);
    const onAbort = () => reject(cancelled());
    signal?.addEventListener("abort", onAbort, { once: true });
    cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    outcome.then(resolve);
    open().catch((error: unknown) => reject(browserFailure(error)));
  }).finally(() => cleanup());
}

async function runLogin(config: LoginConfig, options: LoginOptions): Promise<string> {
  const resolved = resolveLoginConfig(config);
  const timeoutMs = readTimeout(options.timeoutMs);
  const openBrowser = options.openBrowser ?? openSystemBrowser;
  if (typeof openBrowser !== "function") {
    throw new GameSdkBridgeError("invalid_config", "openBrowser must be a function that takes the URL.");
  }
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const signal = options.signal;
  if (signal?.aborted) throw cancelled();

  const state = createState();
  const pkce = createPkce();
  // Ends a code redemption still in flight when the login ends first (timeout, cancel).
  const ended = new AbortController();
  let redirectUri = "";
  const redeem = (code: string) =>
    redeemCode({
      fetch: fetchFn,
      slotgateUrl: resolved.slotgateUrl,
      clientId: resolved.clientId,
      code,
      redirectUri,
      verifier: pkce.verifier,
      signal: ended.signal,
    });
  const listener = await startCallbackListener(resolved.port, state, redeem);
  try {
    redirectUri = loopbackRedirectUri(listener.port);
    const authorizeUrl = buildAuthorizeUrl({
      slotgateUrl: resolved.slotgateUrl,
      clientId: resolved.clientId,
      redirectUri,
      state,
      codeChallenge: pkce.challenge,
    });
    const outcome = await waitForRedirect(listener.outcome, async () => openBrowser(authorizeUrl), timeoutMs, signal);
    if (!outcome.ok) throw outcome.error;
    return outcome.jwt;
  } finally {
    ended.abort();
    await listener.close();
  }
}

/**
 * Signs a player in from a desktop or editor build through the system browser
 * and a loopback redirect (RFC 8252, spec 4.14).
 *
 * It listens on `127.0.0.1` only (on the port the operating system picks when `RedirectUri`
 * names none), opens `{SlotgateUrl}/oauth/authorize` with a fresh CSPRNG `state` and a PKCE S256
 * challenge (RFC 7636), waits for `http://127.0.0.1:<port>/callback?code=..&state=..`, checks the
 * state, redeems the code at `/oauth/token` with the verifier (a public client: no secret), shows the
 * player a success or failure page, and closes the listener on every path. A confidential client's
 * loopback redirect (`?jwt=..&state=..`, spec 4.14) is accepted as before. No client secret is accepted.
 *
 * It never rejects: every failure (bad config, port in use, wrong state,
 * denial, timeout, cancel) resolves a result with `Success: false`, an
 * `ErrorMessage` and a stable `ErrorCode`.
 *
 * @param config - `ClientId`, `RedirectUri`, optional `SlotgateUrl` and `LoopbackPort` (or their camelCase names).
 * @param options - timeout, AbortSignal, browser opener and fetch.
 * @example
 * ```ts
 * import { login } from "@slotgate/game-sdk-bridge";
 *
 * // A public client registered with the loopback URI http://127.0.0.1/callback: any port.
 * const result = await login({
 *   ClientId: "my-game",
 *   RedirectUri: "http://127.0.0.1/callback",
 *   SlotgateUrl: "https://auth.slotgate.io",
 * });
 * if (result.Success) await sendToGameBackend(result.Jwt);
 * else console.error(result.ErrorCode, result.ErrorMessage);
 * ```
 */
export async function login(config: LoginConfig, options: LoginOptions = {}): Promise<LoginResult> {
  try {
    return successResult(await runLogin(config, options ?? {}));
  } catch (error) {
    return failureResult(error);
  }
}
