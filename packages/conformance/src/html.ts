/** Minimal HTML reading for the authorize pages (attribute order independent). */

function decode(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Attributes of every tag with this name. */
export function tags(html: string, tag: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const re = new RegExp(`<${tag}\\b([^>]*)>`, "gi");
  for (const match of html.matchAll(re)) {
    const attrs: Record<string, string> = {};
    for (const a of (match[1] ?? "").matchAll(/([a-zA-Z_:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attrs[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? "");
    }
    out.push(attrs);
  }
  return out;
}

/** The value of the first input with this name, or undefined. */
export function inputValue(html: string, name: string): string | undefined {
  return tags(html, "input").find((t) => t["name"] === name)?.["value"];
}

/** The text content of the `<script>` with this id. */
export function scriptById(html: string, id: string): string | undefined {
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (new RegExp(`\\bid\\s*=\\s*["']?${id}["']?`).test(match[1] ?? "")) return match[2];
  }
  return undefined;
}
