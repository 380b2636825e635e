import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { renderDeveloperCenter, SCRIPT_MESSAGES_ID, scriptMessages } from "../../src/developer/page.js";
import { loadPageScript } from "../../src/developer/page-script.js";
import { en } from "../../src/platform/i18n/messages/en.js";
import { ja } from "../../src/platform/i18n/messages/ja.js";
import { LOCALES, translator } from "../../src/platform/i18n/translator.js";

const script = loadPageScript("developer-center", "/developer");
const browserDir = join(import.meta.dirname, "../../src/developer/browser");

/** An attribute value as the browser reads it (numeric references decoded). */
const decoded = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The JSON island of the script's messages in a rendered page. */
function island(html: string): Record<string, string[]> {
  const found = html.match(new RegExp(`<script type="application/json" id="${SCRIPT_MESSAGES_ID}">([\\s\\S]*?)</script>`));
  expect(found, "the page holds the script's messages").not.toBeNull();
  return JSON.parse(found![1]!) as Record<string, string[]>;
}

/** What a reader sees of a page: its text nodes and its alt, placeholder, title and aria-label values (scripts and styles left out). */
function visibleTexts(html: string): Set<string> {
  const body = html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, "");
  const texts = [...body.matchAll(/>([^<]+)</g)].map((m) => m[1]!);
  const attributes = [...body.matchAll(/\s(?:alt|placeholder|title|aria-label)="([^"]*)"/g)].map((m) => m[1]!);
  return new Set([...texts, ...attributes].map((text) => decoded(text).replace(/&amp;/g, "&").trim()).filter(Boolean));
}

describe("developer-center page", () => {
  it("loads its built script under the page's nonce, with its integrity, and labels every form control", () => {
    const html = renderDeveloperCenter("n0nce", script);
    const tags = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter((tag) => !tag[1]!.includes('type="application/json"'));
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

  it("stays small in every language: no external stylesheet or font, one same-origin script (HTML 13-16 KB with the script's messages, script 14 KB, 10 KB gzipped together)", () => {
    for (const locale of LOCALES) {
      const html = renderDeveloperCenter("n0nce", script, translator(locale));
      expect(Buffer.byteLength(html) + script.source.byteLength, locale).toBeLessThan(32_000);
      expect(gzipSync(html).byteLength + gzipSync(script.source).byteLength, locale).toBeLessThan(11_000);
      expect(html).not.toMatch(/<link[^>]+rel="stylesheet"|@import|url\(/);
    }
    expect(script.source.toString("utf8")).not.toMatch(/\bimport\(|importScripts|https?:\/\//);
  });

  it("speaks the asked language: lang and dir, and no English text left on the page in Japanese, Korean or Arabic", () => {
    // What stays as it is in every language: field names, API values and the separator.
    const untranslated = new Set([
      "client_id",
      "client_id:",
      "client_secret:",
      "aes_key:",
      "aes_iv:",
      "cuid",
      "release_per",
      "web",
      "desktop",
      "game",
      "·",
      "#7a1fa2",
    ]);
    const english = [...visibleTexts(renderDeveloperCenter("n0nce", script))].filter((text) => !untranslated.has(text));
    expect(english).toEqual(expect.arrayContaining(["Slotgate developer center", "Your client applications", "Rotate secret", "Current logo"]));
    for (const locale of ["ja", "ko", "ar"] as const) {
      const html = renderDeveloperCenter("n0nce", script, translator(locale));
      expect(html).toContain(`<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">`);
      const shown = visibleTexts(html);
      expect(
        english.filter((text) => shown.has(text)),
        `${locale}: English left on the page`,
      ).toEqual([]);
    }
    const japanese = renderDeveloperCenter("n0nce", script, translator("ja"));
    expect(japanese).toContain(`<title>${ja["dev.title"]} — Slotgate</title>`);
    expect(japanese).toContain(`<h2 id="manage-title" tabindex="-1"><span id="m-name"></span> の管理</h2>`);
  });

  it("gives the script its messages in the page's language: every devScript message and the API errors it translates, as text and argument names", () => {
    const messages = island(renderDeveloperCenter("n0nce", script, translator("ja")));
    expect(messages).toEqual(scriptMessages(translator("ja")));
    expect(messages["devScript.attempts"]).toEqual(["", "attempts", " / ", "max", " 回"]);
    expect(messages["devScript.confidential"]).toEqual([ja["devScript.confidential"]]);
    expect(messages["error.invalid_credentials"]).toEqual([ja["error.invalid_credentials"]]);
    expect(messages["error.invalid_request"], "its message names the field: the server's is shown").toBeUndefined();
    const ids = Object.keys(en).filter((id) => id.startsWith("devScript."));
    expect(Object.keys(messages)).toEqual(expect.arrayContaining(ids));
    // Every message the script's sources name is there, in every language (a plural or a tag would throw here).
    const sources = readdirSync(browserDir).map((name) => readFileSync(join(browserDir, name), "utf8"));
    const named = new Set(sources.flatMap((source) => [...source.matchAll(/"(devScript\.[A-Za-z]+)"/g)].map((m) => m[1]!)));
    expect(named.size).toBeGreaterThan(35);
    for (const locale of LOCALES) for (const id of named) expect(scriptMessages(translator(locale))[id], `${locale} ${id}`).toBeDefined();
  });
});
