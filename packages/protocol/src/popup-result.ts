import { BRAND } from "./brand.js";
import type { LoginMessage } from "./types/oauth.js";

/**
 * The JSON the popup result page embeds in `<script type="application/json" id="slotgate-result">`.
 */
export interface PopupResultPayload {
  /** Origin of the registered redirect URI: the only origin the messages are posted to. */
  targetOrigin: string;
  /** The registered redirect URI: the COOP fallback hands the result to this page in the fragment. */
  redirectUri: string;
  /** The dual broadcast: the `slotgate` message, then the legacy `gameauth` copy. */
  messages: [LoginMessage, LoginMessage];
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
 * The popup result page's script, one copy for the reference server, the simulated service and
 * test stand-ins. It reads `#slotgate-result` ({@link PopupResultPayload}) and:
 * - with an opener: posts both messages to `targetOrigin` (never `*`), also on the
 *   `slotgate_login` BroadcastChannel, then closes the popup;
 * - without one (a Cross-Origin-Opener-Policy severed it): replaces the page with the registered
 *   redirect URI carrying the `slotgate` message in the fragment, where the client SDK's
 *   `handleLoginCallback()` relays it on a same-origin BroadcastChannel.
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
    var p = new URLSearchParams({ from: first.from, type: first.type, data: first.data, state: first.state });
    location.replace(result.redirectUri + "#" + p.toString());
    return;
  }
  try {
    for (var i = 0; i < result.messages.length; i++) window.opener.postMessage(result.messages[i], result.targetOrigin);
  } catch (e) {}
  try {
    if (typeof BroadcastChannel === "function") {
      var channel = new BroadcastChannel(${JSON.stringify(BRAND.broadcastChannel)});
      channel.postMessage(first);
      channel.close();
    }
  } catch (e) {}
  setTimeout(function () { window.close(); }, 50);
})();`;
