import type { SlotgateError } from "../errors.js";

/** How often the popup is checked for being closed. @internal */
export const POLL_MS = 250;
/** After the popup is seen closed, how long a result already on its way may still arrive. @internal */
export const CLOSE_GRACE_MS = 1_000;
/**
 * A popup first seen on a cross-origin page and then closed within this time is taken as severed by
 * Cross-Origin-Opener-Policy, not closed by its user: Chromium can let the opener see the service's page for a
 * moment before it swaps the popup into another browsing context group (measured: 178 ms on a loaded two-core
 * machine). No person reads a service page and closes it that fast; if one does, the return of focus still ends
 * the wait. @internal
 */
export const SEVERANCE_MS = 1_500;

/**
 * What one popup waits for: where its answer may come from and how to read it. The login popup and the wallet
 * window differ only in this. @internal
 */
export interface PopupWait<T> {
  /** The service origin: a `message` event counts only from it (and from the popup itself). */
  origin: string;
  /** The same-origin `BroadcastChannel` the redirect page relays a COOP-severed result on. */
  channel: string;
  /** Milliseconds before the wait ends with {@link PopupWait.timeout}. */
  timeoutMs: number;
  /**
   * Reads one received message: `undefined` when it is not this popup's answer (another sender, type or
   * `state`: ignored, the wait goes on), a `SlotgateError` to reject with, anything else to resolve with.
   */
  read(value: unknown): T | SlotgateError | undefined;
  /** The error when the user closed the popup. */
  closed(): SlotgateError;
  /** The error when no answer came in time. */
  timeout(): SlotgateError;
}

/**
 * Waits for the answer of one popup and settles exactly once, removing every listener and timer and closing the
 * popup on every path. Two channels, first one wins:
 *
 * 1. `message` events on this window from the popup, only when `origin` is the service origin and `source` is
 *    that popup;
 * 2. the `BroadcastChannel` on this origin, fed by the redirect page (`handleLoginCallback`,
 *    `handleWalletCallback`) when a Cross-Origin-Opener-Policy severed `window.opener`.
 *
 * What counts as an answer (`from: "slotgate"`, the type, the expected `state`) is `wait.read`'s.
 *
 * Closing: once the popup has been seen open on the service page (`closed` false while its `location`
 * throws for at least {@link SEVERANCE_MS}, or reads a real URL when the service shares the app's origin),
 * `closed` is trusted. A popup that reads `closed` before that was severed by COOP (the opener's handle reports
 * closed at the first cross-origin navigation, sometimes a moment after it) or closed before loading; the SDK then
 * waits for the fallback channel and treats the return of focus to this window as the user closing the popup.
 * @internal
 */
export function awaitPopupResult<T>(popup: Window, wait: PopupWait<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let attached = false;
    let crossOriginSince: number | undefined;
    let settled = false;
    let closeTimer: ReturnType<typeof setTimeout> | undefined;
    let channel: BroadcastChannel | undefined;
    try {
      channel = new BroadcastChannel(wait.channel);
    } catch {
      // No BroadcastChannel (old browser, opaque origin): postMessage still works; only the COOP fallback is lost.
    }
    const listeners = new AbortController();
    const { signal } = listeners;

    const settle = (outcome: T | SlotgateError): void => {
      if (settled) return;
      settled = true;
      listeners.abort();
      channel?.close();
      clearInterval(poll);
      clearTimeout(timer);
      clearTimeout(closeTimer);
      try {
        if (!popup.closed) popup.close();
      } catch {}
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };

    const accept = (value: unknown): void => {
      const outcome = wait.read(value);
      if (outcome !== undefined) settle(outcome);
    };

    const closedSoon = (): void => {
      closeTimer ??= setTimeout(() => settle(wait.closed()), CLOSE_GRACE_MS);
    };

    const poll = setInterval(() => {
      if (!popup.closed) {
        if (!attached) {
          try {
            attached = popup.location.href !== "about:blank"; // same-origin service: readable once loaded
          } catch {
            crossOriginSince ??= Date.now(); // cross-origin service page: ours once it outlives a COOP swap
            attached = Date.now() - crossOriginSince >= SEVERANCE_MS;
          }
        }
        return;
      }
      clearInterval(poll);
      if (attached) closedSoon();
      else window.addEventListener("focus", closedSoon, { signal });
    }, POLL_MS);
    const timer = setTimeout(() => settle(wait.timeout()), wait.timeoutMs);

    window.addEventListener(
      "message",
      (event) => {
        if (event.origin === wait.origin && event.source === popup) accept(event.data);
      },
      { signal },
    );
    channel?.addEventListener("message", (event) => accept(event.data), { signal });
  });
}
