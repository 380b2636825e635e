import { BRAND, type LoginMessage } from "@slotgate/protocol";
import { scriptJson } from "./escape.js";

/**
 * The popup result page: posts the login result to `window.opener` (both brands). When a
 * Cross-Origin-Opener-Policy has severed the opener, it hands the result to the app's own
 * registered redirect page in the URL fragment (never sent to a server), where the client SDK's
 * `handleLoginCallback()` relays it over a same-origin BroadcastChannel.
 */
export function popupResultPage(args: { targetOrigin: string; redirectUri: string; type: "success" | "fail"; data: string; state: string }): string {
  const messages: LoginMessage[] = [
    { from: BRAND.messageSource, type: args.type, data: args.data, state: args.state },
    { from: BRAND.legacyMessageSource, type: args.type, data: args.data, state: args.state },
  ];
  const payload = { targetOrigin: args.targetOrigin, redirectUri: args.redirectUri, messages };
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Slotgate — signing in</title></head>
<body>
<p>You can close this window.</p>
<script type="application/json" id="slotgate-result">${scriptJson(payload)}</script>
<script>
(function () {
  var result = JSON.parse(document.getElementById("slotgate-result").textContent);
  var m = result.messages[0];
  if (!window.opener) {
    var p = new URLSearchParams({ from: m.from, type: m.type, data: m.data, state: m.state });
    location.replace(result.redirectUri + "#" + p.toString());
    return;
  }
  try {
    for (var i = 0; i < result.messages.length; i++) window.opener.postMessage(result.messages[i], result.targetOrigin);
  } catch (e) {}
  try {
    var channel = new BroadcastChannel(${JSON.stringify(BRAND.broadcastChannel)});
    channel.postMessage(m);
    channel.close();
  } catch (e) {}
  setTimeout(function () { window.close(); }, 50);
})();
</script>
</body>
</html>`;
}
