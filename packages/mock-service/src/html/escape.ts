/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** JSON safe to embed inside a `<script>` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

/** An HTML response. */
export function html(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Frame-Options": "DENY",
      ...headers,
    },
  });
}

/**
 * A whole page of the simulated service: `title` (plain text, escaped here) and the `<main>` element's
 * contents (HTML, its interpolations escaped by the caller).
 *
 * @example
 * ```ts
 * res.type("html").send(htmlPage(`Sign in to ${clientName} — Slotgate`, `<h1>Sign in</h1>`));
 * ```
 */
export function htmlPage(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
  <main>${main}  </main>
</body>
</html>`;
}
