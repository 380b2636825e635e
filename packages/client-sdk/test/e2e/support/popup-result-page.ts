/**
 * The popup result page of http-contract.md ("/oauth/authorize" popup mode), plus the COOP bridge step
 * the client SDK needs from the service (docs/decisions/client-sdk.md): when `window.opener` is null, the
 * page navigates to `{redirect_uri}#from=slotgate&type=…&data=…&state=…`, where `handleLoginCallback()`
 * relays it over BroadcastChannel on the app's own origin. The reference server is asked to serve exactly
 * this script; the contract stand-in uses it so the browser suite exercises the same bytes.
 */
export interface PopupResult {
  redirectUri: string;
  type: "success" | "fail";
  data: string;
  state: string;
}

export const POPUP_RESULT_SCRIPT = `(function () {
  var r = JSON.parse(document.getElementById("slotgate-result").textContent);
  var m = r.messages;
  if (window.opener) {
    for (var i = 0; i < m.length; i++) window.opener.postMessage(m[i], r.targetOrigin);
    try { var c = new BroadcastChannel("slotgate_login"); c.postMessage(m[0]); c.close(); } catch (e) {}
    window.close();
  } else {
    var p = new URLSearchParams({ from: m[0].from, type: m[0].type, data: m[0].data, state: m[0].state });
    location.replace(r.redirectUri + "#" + p.toString());
  }
})();`;

export function popupResultPage(result: PopupResult): string {
  const message = { type: result.type, data: result.data, state: result.state };
  const json = JSON.stringify({
    targetOrigin: new URL(result.redirectUri).origin,
    redirectUri: result.redirectUri,
    messages: [
      { from: "slotgate", ...message },
      { from: "gameauth", ...message },
    ],
  }).replace(/</g, "\\u003c");
  return `<!doctype html><meta charset="utf-8"><title>Slotgate</title>
<script type="application/json" id="slotgate-result">${json}</script>
<script>${POPUP_RESULT_SCRIPT}</script>`;
}
