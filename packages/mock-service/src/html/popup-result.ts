import { BRAND, type LoginMessage } from "@slotgate/protocol";
import { scriptJson } from "./escape.js";

/** The popup result page: posts the login result to `window.opener` (both brands), with a BroadcastChannel fallback. */
export function popupResultPage(args: { targetOrigin: string; type: "success" | "fail"; data: string; state: string }): string {
  const messages: LoginMessage[] = [
    { from: BRAND.messageSource, type: args.type, data: args.data, state: args.state },
    { from: BRAND.legacyMessageSource, type: args.type, data: args.data, state: args.state },
  ];
  const payload = { targetOrigin: args.targetOrigin, messages };
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Slotgate — signing in</title></head>
<body>
<p>You can close this window.</p>
<script type="application/json" id="slotgate-result">${scriptJson(payload)}</script>
<script>
(function () {
  var result = JSON.parse(document.getElementById("slotgate-result").textContent);
  try {
    if (window.opener) {
      for (var i = 0; i < result.messages.length; i++) window.opener.postMessage(result.messages[i], result.targetOrigin);
    }
  } catch (e) {}
  try {
    var channel = new BroadcastChannel(${JSON.stringify(BRAND.broadcastChannel)});
    channel.postMessage(result.messages[0]);
    channel.close();
  } catch (e) {}
  setTimeout(function () { window.close(); }, 50);
})();
</script>
</body>
</html>`;
}
