import { BRAND, POPUP_RESULT_SCRIPT, popupResultPayload } from "@slotgate/protocol";
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
 * The popup result page: `#slotgate-result` carries `{ targetOrigin, redirectUri, messages }` (the
 * `slotgate` message and the legacy `gameauth` copy) and the shared `POPUP_RESULT_SCRIPT` of
 * `@slotgate/protocol` posts both to `window.opener` at the registered origin only (never `*`) and on
 * the `slotgate_login` BroadcastChannel, then closes. When a Cross-Origin-Opener-Policy has severed the
 * opener it replaces the page with `{redirect_uri}#from=…&type=…&data=…&state=…` (never sent to a
 * server), where the client SDK's `handleLoginCallback()` relays it.
 */
export function renderPopupResult(nonce: string, redirectUri: string, type: "success" | "fail", data: string, state: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
<p id="slotgate-status">${type === "success" ? "Signed in. You can close this window." : "Sign-in was not completed. You can close this window."}</p>
<script type="application/json" id="slotgate-result">${jsonForScript(popupResultPayload(redirectUri, type, data, state))}</script>
<script nonce="${nonce}">
${POPUP_RESULT_SCRIPT}
</script>
</body></html>`;
}
