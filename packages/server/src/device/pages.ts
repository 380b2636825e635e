import { BRAND } from "@slotgate/protocol";
import { escapeHtml, PAGE_STYLE } from "../http/html.js";

/**
 * The first step of the verification page: enter the code the device shows. A GET form, so the
 * next page is `/oauth/device?user_code=…` (the same URL a QR code opens).
 */
export function renderUserCodeForm(nonce: string, options: { error?: string; userCode?: string; display?: string } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Connect a device — ${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
<h1>Connect a device</h1>
<p>Enter the code shown on your console or TV.</p>
${options.error ? `<p class="error" role="alert" id="slotgate-error">${escapeHtml(options.error)}</p>` : ""}
<form method="get" action="/oauth/device">
${options.display === "popup" ? '<input type="hidden" name="display" value="popup">' : ""}
<label for="user_code">Code</label>
<input id="user_code" name="user_code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" placeholder="BDFH-JKLM" value="${escapeHtml(options.userCode ?? "")}">
<button type="submit">Continue</button>
</form>
</body></html>`;
}

/**
 * The last step: approved or denied. In a popup it tells the opener (at the client's registered web
 * URL origin only) `{ from: "slotgate", type: "device_approved" | "device_denied" }` and closes.
 */
export function renderDeviceResult(nonce: string, result: { approved: boolean; appName: string; popup: boolean; openerOrigin: string }): string {
  const type = result.approved ? "device_approved" : "device_denied";
  const text = result.approved
    ? `Your device is signed in to ${result.appName}. You can return to it now.`
    : `You denied ${result.appName} access. The device will not be signed in.`;
  const script = result.popup
    ? `<script nonce="${nonce}">
(function () {
  var origin = ${JSON.stringify(result.openerOrigin).replace(/</g, "\\u003c")};
  try { if (window.opener) window.opener.postMessage({ from: "slotgate", type: ${JSON.stringify(type)} }, origin); } catch (e) {}
  setTimeout(function () { window.close(); }, 1500);
})();
</script>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${result.approved ? "Device connected" : "Device not connected"} — ${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
<h1>${result.approved ? "Device connected" : "Access denied"}</h1>
<p id="slotgate-device-result" data-result="${type}">${escapeHtml(text)}</p>
${script}
</body></html>`;
}
