import { createHash } from "node:crypto";

/** Removes `?jwt=...&state=...` from the address bar and the history entry. */
const SCRUB_SCRIPT = 'history.replaceState(null, "", "/callback");';
const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1b1b1f}" +
  "h1{font-size:1.5rem}.ok{color:#0a7a3d}.fail{color:#b3261e}";

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
}

/** Headers of every page the listener serves: nothing cached, nothing loaded, no referrer. @internal */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy":
    `default-src 'none'; script-src ${sha256(SCRUB_SCRIPT)}; style-src ${sha256(STYLE)}; ` + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  Connection: "close",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, cls: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style><script>${SCRUB_SCRIPT}</script></head>` +
    `<body><h1 class="${cls}">${escapeHtml(title)}</h1>${body}</body></html>`
  );
}

/** Page shown to the player after a successful sign-in. @internal */
export function successPage(): string {
  return page("Signed in to Slotgate", "ok", "<p>You are signed in. You can close this tab and return to the game.</p>");
}

/** Page shown to the player when the sign-in failed; `message` is escaped. @internal */
export function failurePage(message: string): string {
  return page("Sign-in failed", "fail", `<p>${escapeHtml(message)}</p><p>Return to the game and try again.</p>`);
}

/** Page for any request that is not the sign-in redirect. @internal */
export function notFoundPage(): string {
  return page("Not found", "fail", "<p>This address only receives the Slotgate sign-in redirect.</p>");
}
