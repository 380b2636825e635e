import { BRAND } from "./brand.js";
import type { LoginMessage } from "./types/oauth.js";
import type { WalletResultData, WalletResultMessage } from "./types/wallet-window.js";

/**
 * The JSON a popup result page (the login's, or the wallet window's) embeds in
 * `<script type="application/json" id="slotgate-result">`.
 */
export interface PopupResultPayload {
  /** Origin of the registered redirect URI: the only origin the messages are posted to. */
  targetOrigin: string;
  /** The registered redirect URI: the COOP fallback hands the result to this page in the fragment. */
  redirectUri: string;
  /** The BroadcastChannel the first message also goes to. @default BRAND.broadcastChannel (`slotgate_login`) */
  channel?: string;
  /**
   * The login's dual broadcast (the `slotgate` message, then the legacy `gameauth` copy), or the wallet
   * window's one message.
   */
  messages: [LoginMessage, LoginMessage] | [WalletResultMessage];
}

/**
 * Builds the popup result page's payload for one login outcome.
 *
 * @example
 * ```ts
 * const payload = popupResultPayload("https://app.example/cb", "success", jwt, state);
 * html += `<script type="application/json" id="slotgate-result">${escape(JSON.stringify(payload))}</script>`;
 * ```
 */
export function popupResultPayload(redirectUri: string, type: LoginMessage["type"], data: string, state: string): PopupResultPayload {
  return {
    targetOrigin: new URL(redirectUri).origin,
    redirectUri,
    messages: [
      { from: BRAND.messageSource, type, data, state },
      { from: BRAND.legacyMessageSource, type, data, state },
    ],
  };
}

/**
 * Builds the wallet window's result payload: one `wallet_result` message for the redirect URI's origin,
 * on the `slotgate_wallet` BroadcastChannel too. `data` must never hold a key share, the words, a PIN or
 * a PIN hash (it reaches the integrator's page).
 *
 * @example
 * ```ts
 * const payload = walletResultPayload("https://app.example/cb", state, { action: "pin-setup", status: "approved", address });
 * ```
 */
export function walletResultPayload(redirectUri: string, state: string, data: WalletResultData): PopupResultPayload {
  return {
    targetOrigin: new URL(redirectUri).origin,
    redirectUri,
    channel: BRAND.walletBroadcastChannel,
    messages: [{ from: BRAND.messageSource, type: "wallet_result", state, data }],
  };
}

/**
 * The popup result page's script, one copy for the reference server, the simulated service and
 * test stand-ins. It reads `#slotgate-result` ({@link PopupResultPayload}) and:
 * - with an opener: posts both messages to `targetOrigin` (never `*`), also on the
 *   `slotgate_login` BroadcastChannel, then closes the popup;
 * - without one (a Cross-Origin-Opener-Policy severed it): replaces the page with the registered
 *   redirect URI carrying the `slotgate` message in the fragment (`from`, `type`, `state`, `data`; an
 *   object `data`, the wallet window's, as JSON), where the client SDK's callback handler relays it on
 *   a same-origin BroadcastChannel.
 * The BroadcastChannel is `payload.channel` (the wallet window's `slotgate_wallet`), else `slotgate_login`.
 *
 * @example
 * ```ts
 * html += `<script nonce="${nonce}">${POPUP_RESULT_SCRIPT}</script>`;
 * ```
 */
export const POPUP_RESULT_SCRIPT = `(function () {
  var result = JSON.parse(document.getElementById("slotgate-result").textContent);
  var first = result.messages[0];
  if (!window.opener) {
    var data = typeof first.data === "string" ? first.data : JSON.stringify(first.data);
    var p = new URLSearchParams({ from: first.from, type: first.type, data: data, state: first.state });
    location.replace(result.redirectUri + "#" + p.toString());
    return;
  }
  try {
    for (var i = 0; i < result.messages.length; i++) window.opener.postMessage(result.messages[i], result.targetOrigin);
  } catch (e) {}
  try {
    if (typeof BroadcastChannel === "function") {
      var channel = new BroadcastChannel(result.channel || ${JSON.stringify(BRAND.broadcastChannel)});
      channel.postMessage(first);
      channel.close();
    }
  } catch (e) {}
  setTimeout(function () { window.close(); }, 50);
})();`;

/**
 * The silent-renewal result page's script (`prompt=none`, in the client SDK's hidden iframe), one copy for the
 * reference server and the simulated service: posts `#slotgate-result`'s `message` to the parent frame at
 * `targetOrigin` only.
 *
 * @example
 * ```ts
 * html += `<script nonce="${nonce}">${SILENT_RESULT_SCRIPT}</script>`;
 * ```
 */
export const SILENT_RESULT_SCRIPT =
  'var r = JSON.parse(document.getElementById("slotgate-result").textContent);\nif (window.parent !== window) window.parent.postMessage(r.message, r.targetOrigin);';
