import { randomBytes } from "node:crypto";
import type { Response } from "express";
import { THEME_STYLE } from "./theme.js";

/** Serialises JSON for embedding inside `<script type="application/json">`. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Sends an HTML page with a strict CSP; `render` receives the nonce for its inline style and script. No page may
 * be framed (`frame-ancestors 'none'`) unless it names `frameAncestors` (the silent-renewal result only).
 */
export function sendHtml(
  res: Response,
  status: number,
  render: (nonce: string) => string,
  options: { formAction?: string[]; connectSelf?: boolean; imagesSelf?: boolean; frameAncestors?: string[] } = {},
): void {
  const nonce = randomBytes(16).toString("base64");
  const formAction = ["'self'", ...(options.formAction ?? [])].join(" ");
  res.status(status);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${formAction}; ` +
      `${options.connectSelf ? "connect-src 'self'; " : ""}${options.imagesSelf ? "img-src 'self'; " : ""}frame-ancestors ${options.frameAncestors?.join(" ") || "'none'"}; base-uri 'none'`,
  );
  res.send(render(nonce));
}

/** The shared stylesheet of the server's pages (light and dark, `./theme.ts`). */
export const PAGE_STYLE =
  THEME_STYLE +
  "body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:var(--fg);background:var(--bg)}" +
  "a{color:var(--link)}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}input[type=checkbox]{width:auto;margin:0;margin-inline-end:.5rem}" +
  "button{margin:.75rem 0 0;margin-inline-end:.5rem;padding:.5rem 1rem}.error{color:var(--error)}.muted{color:var(--muted);font-size:.9rem}" +
  "button:focus-visible,input:focus-visible,textarea:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}";
