import { BRAND, type LoginMessage } from "@slotgate/protocol";
import { escapeHtml, jsonForScript, PAGE_STYLE } from "../http/html.js";
import type { AuthorizeRequest } from "./params.js";

/** The sign-in and consent form (field names are a stable interface: email, password, decision). */
export function renderAuthorizeForm(
  nonce: string,
  request: AuthorizeRequest,
  csrfToken: string,
  options: { error?: string; email?: string } = {},
): string {
  const hidden = Object.entries(request.params)
    .filter(([, v]) => typeof v === "string" && v !== "")
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(String(v))}">`)
    .join("\n");
  const app = escapeHtml(request.client.name);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in to ${app} — ${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
<h1>Sign in</h1>
<p><strong>${app}</strong> asks to use your ${BRAND.name} account.</p>
${options.error ? `<p class="error" role="alert" id="slotgate-error">${escapeHtml(options.error)}</p>` : ""}
<form method="post" action="/oauth/authorize">
${hidden}
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(options.email ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<label class="muted"><input type="checkbox" name="intent" value="signup"> Create a new account with this email</label>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="muted">You will be returned to ${escapeHtml(new URL(request.params.redirect_uri).origin)}.</p>
</body></html>`;
}

/**
 * The popup result page: posts the dual broadcast (`slotgate` and legacy `gameauth`) to
 * `window.opener` targeted at the registered origin (never `*`) and on the `slotgate_login`
 * BroadcastChannel, then closes. When a Cross-Origin-Opener-Policy has severed the opener
 * (`window.opener` is null), it instead hands the first (`slotgate`) message to the app's own
 * registered redirect page in the URL fragment (`{redirect_uri}#from=…&type=…&data=…&state=…`,
 * never sent to a server), where the client SDK's `handleLoginCallback()` relays it over a
 * same-origin BroadcastChannel.
 */
export function renderPopupResult(nonce: string, redirectUri: string, type: "success" | "fail", data: string, state: string): string {
  const messages: LoginMessage[] = [
    { from: BRAND.messageSource, type, data, state },
    { from: BRAND.legacyMessageSource, type, data, state },
  ];
  const targetOrigin = new URL(redirectUri).origin;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
<p id="slotgate-status">${type === "success" ? "Signed in. You can close this window." : "Sign-in was not completed. You can close this window."}</p>
<script type="application/json" id="slotgate-result">${jsonForScript({ targetOrigin, redirectUri, messages })}</script>
<script nonce="${nonce}">
(function () {
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
})();
</script>
</body></html>`;
}
