import { BROADCAST_CHANNEL } from "./constants.js";
import { readLoginMessage } from "./login/message.js";
import { relayFragment } from "./popup/relay-fragment.js";

/**
 * Options of {@link handleLoginCallback}.
 *
 * @example
 * ```ts
 * handleLoginCallback({ close: false }); // keep the window open, e.g. to show a message
 * ```
 */
export interface HandleLoginCallbackOptions {
  /**
   * Close this window after relaying the result.
   * @default true
   */
  close?: boolean;
}

/**
 * The COOP fallback, run on your `redirectUri` page. When your app page sends a
 * `Cross-Origin-Opener-Policy` that severs `window.opener` (e.g. `same-origin`), the service's popup result
 * page cannot post to your page; it navigates the popup to
 * `{redirectUri}#from=slotgate&type=…&data=…&state=…` instead. This function reads that fragment, removes it
 * from the address bar and history, relays the result to the waiting {@link Slotgate.login} over
 * `BroadcastChannel("slotgate_login")` (same origin only) and closes the popup.
 *
 * Safe to call on every load: it returns `false` and does nothing when the URL carries no login result.
 *
 * @returns whether a login result was found and relayed
 *
 * @example
 * ```html
 * <!-- https://game.example/slotgate-callback.html, registered as the redirect URI -->
 * <script type="module">
 *   import { handleLoginCallback } from "@slotgate/client-sdk";
 *   handleLoginCallback();
 * </script>
 * ```
 */
export function handleLoginCallback(options: HandleLoginCallbackOptions = {}): boolean {
  return relayFragment(
    (params) => {
      const m = readLoginMessage(params);
      return m && { from: m.from, type: m.type, data: m.data, state: m.state };
    },
    BROADCAST_CHANNEL,
    options.close,
  );
}
