import { randomBytes } from "node:crypto";
import type { Response } from "express";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Serialises JSON for embedding inside `<script type="application/json">`. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Sends an HTML page with a strict CSP; `render` receives the nonce for its inline style and script. */
export function sendHtml(
  res: Response,
  status: number,
  render: (nonce: string) => string,
  options: { formAction?: string[]; connectSelf?: boolean } = {},
): void {
  const nonce = randomBytes(16).toString("base64");
  const formAction = ["'self'", ...(options.formAction ?? [])].join(" ");
  res.status(status);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${formAction}; ` +
      `${options.connectSelf ? "connect-src 'self'; " : ""}frame-ancestors 'none'; base-uri 'none'`,
  );
  res.send(render(nonce));
}

/** The shared stylesheet of the server's pages. */
export const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}" +
  "label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}input[type=checkbox]{width:auto;margin:0 .5rem 0 0}" +
  "button{margin:.75rem .5rem 0 0;padding:.5rem 1rem}.error{color:#b00020}.muted{color:#666;font-size:.9rem}";
