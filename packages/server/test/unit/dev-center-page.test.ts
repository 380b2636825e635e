import { describe, expect, it } from "vitest";
import { renderDeveloperCenter } from "../../src/dev-center/page.js";

describe("developer-center page", () => {
  it("ships an inline script that parses, under the page's nonce, with every form control labelled", () => {
    const html = renderDeveloperCenter("n0nce");
    const scripts = [...html.matchAll(/<script nonce="n0nce">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(() => new Function(scripts[0]!)).not.toThrow();
    expect(scripts[0]).toContain('.split(/\\s+/)');
    expect(scripts[0]).toContain('.join("\\n")');
    const ids = [...html.matchAll(/<(?:input|textarea|select) id="([^"]+)"/g)].map((m) => m[1]!);
    for (const id of ids) expect(html, id).toMatch(new RegExp(`<label for="${id}"|<label><input type="checkbox" id="${id}"`));
  });

  it("stays small: one document, no external script, style or font (18.5 KB today, 5.3 KB gzipped)", () => {
    const html = renderDeveloperCenter("n0nce");
    expect(Buffer.byteLength(html)).toBeLessThan(24_000);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+rel="stylesheet"|@import|url\(/);
  });
});
