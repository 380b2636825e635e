import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDeveloperCenter } from "../../src/developer/page.js";
import { loadPageScript } from "../../src/developer/page-script.js";

const script = loadPageScript("developer-center", "/developer");
const browserDir = join(import.meta.dirname, "../../src/developer/browser");

/** An attribute value as the browser reads it (numeric references decoded). */
const decoded = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

describe("developer-center page", () => {
  it("loads its built script under the page's nonce, with its integrity, and labels every form control", () => {
    const html = renderDeveloperCenter("n0nce", script);
    const tags = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(tags).toHaveLength(1);
    expect(decoded(tags[0]![1]!)).toBe(` nonce="n0nce" src="${script.path}" integrity="${script.integrity}"`);
    expect(tags[0]![2], "no inline script").toBe("");
    const ids = [...html.matchAll(/<(?:input|textarea|select) id="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(html, id).toMatch(new RegExp(`<label for="${id}"|<label><input type="checkbox" id="${id}"`));
  });

  it("names the script by its content: the path carries its hash, the integrity is its SHA-256, and it parses", () => {
    const digest = createHash("sha256").update(script.source).digest();
    expect(script.path).toBe(`/developer/developer-center.${digest.toString("hex").slice(0, 16)}.js`);
    expect(script.integrity).toBe(`sha256-${digest.toString("base64")}`);
    expect(() => new Function(script.source.toString("utf8"))).not.toThrow();
  });

  it("holds every element the script's sources look up by id", () => {
    const html = renderDeveloperCenter("n0nce", script);
    const sources = readdirSync(browserDir).map((name) => readFileSync(join(browserDir, name), "utf8"));
    const ids = new Set(sources.flatMap((source) => [...source.matchAll(/\b(?:byId|setHidden|fillRows|fieldValue|listOf)\("([^"]+)"/g)].map((m) => m[1]!)));
    expect(ids.size).toBeGreaterThan(40);
    for (const id of ids) expect(html, id).toContain(`id="${id}"`);
  });

  it("stays small: no external stylesheet or font, one same-origin script (HTML 8 KB, script 11 KB, 7 KB gzipped together)", () => {
    const html = renderDeveloperCenter("n0nce", script);
    expect(Buffer.byteLength(html) + script.source.byteLength).toBeLessThan(24_000);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"|@import|url\(/);
    expect(script.source.toString("utf8")).not.toMatch(/\bimport\(|importScripts|https?:\/\//);
  });
});
