import { signInControls } from "./authorize-page.js";
import { escapeHtml, htmlPage } from "./escape.js";

/** The code-entry step of `GET /oauth/device`. */
export function userCodePage(args: { error?: string; userCode?: string }): string {
  return htmlPage(
    `Connect a device — Slotgate`,
    `
    <h1>Connect a device</h1>
    ${args.error ? `<p class="error" role="alert" id="slotgate-error">${escapeHtml(args.error)}</p>` : ""}
    <form method="get" action="/oauth/device">
      <label>Code <input id="user_code" name="user_code" value="${escapeHtml(args.userCode ?? "")}"></label>
      <button type="submit">Continue</button>
    </form>
`,
  );
}

/** The sign-in and consent step for a device (same field names as the authorize page). */
export function deviceSignInPage(args: { userCode: string; csrfToken: string; clientName: string; error?: string; email?: string }): string {
  return htmlPage(
    `Sign in to ${args.clientName} — Slotgate`,
    `
    <h1>Sign in to connect ${escapeHtml(args.clientName)}</h1>
    ${args.error ? `<p class="error" role="alert" id="slotgate-error">${escapeHtml(args.error)}</p>` : ""}
    <form method="post" action="/oauth/device">
      <input type="hidden" name="user_code" value="${escapeHtml(args.userCode)}">
      ${signInControls(args)}
    </form>
`,
  );
}

/** The result of the verification page. */
export function deviceResultPage(approved: boolean): string {
  const type = approved ? "device_approved" : "device_denied";
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Slotgate</title></head>
<body><main><p id="slotgate-device-result" data-result="${type}">${approved ? "Device connected." : "Access denied."}</p></main></body>
</html>`;
}
