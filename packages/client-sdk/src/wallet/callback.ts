import { WALLET_CHANNEL } from "../constants.js";
import { relayFragment } from "../popup/relay-fragment.js";
import { readWalletFragment } from "./message.js";

/**
 * Options of {@link handleWalletCallback}.
 *
 * @example
 * ```ts
 * handleWalletCallback({ close: false }); // keep the window open, e.g. to show a message
 * ```
 */
export interface HandleWalletCallbackOptions {
  /**
   * Close this window after relaying the result.
   * @default true
   */
  close?: boolean;
}

/**
 * The wallet window's COOP fallback, run on your `redirectUri` page (the same page as `handleLoginCallback`).
 * When your app page sends a `Cross-Origin-Opener-Policy` that severs `window.opener`, the wallet window
 * cannot post to your page; it navigates to
 * `{redirectUri}#from=slotgate&type=wallet_result&state=…&data=<json>` instead. This function reads that
 * fragment, removes it from the address bar and history, relays the result to the waiting
 * {@link SlotgateWallet} call over `BroadcastChannel("slotgate_wallet")` (same origin only) and closes the
 * window.
 *
 * Safe to call on every load: it returns `false` and does nothing when the URL carries no wallet result
 * (a login result is left to `handleLoginCallback`).
 *
 * @returns whether a wallet result was found and relayed
 *
 * @example
 * ```html
 * <!-- https://game.example/slotgate-callback.html, registered as the redirect URI -->
 * <script type="module">
 *   import { handleLoginCallback } from "@slotgate/client-sdk";
 *   import { handleWalletCallback } from "@slotgate/client-sdk/wallet";
 *   handleWalletCallback() || handleLoginCallback();
 * </script>
 * ```
 */
export function handleWalletCallback(options: HandleWalletCallbackOptions = {}): boolean {
  return relayFragment(readWalletFragment, WALLET_CHANNEL, options.close);
}
