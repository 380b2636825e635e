import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderSignInForm } from "../../src/oauth/authorize/pages.js";
import { renderDeviceResult, renderUserCodeForm } from "../../src/oauth/device/pages.js";
import { renderErrorPage } from "../../src/platform/http/error-page.js";
import { SlotgateServerError } from "../../src/platform/http/errors.js";
import { Page, renderPage } from "../../src/platform/http/page.js";
import { shown, translator } from "../../src/platform/i18n/translator.js";

const en = translator("en");

/** Text or an attribute value as the browser reads it back. */
const decode = (value: string) =>
  value.replace(/&(lt|gt|amp|quot|#39|#x27|#(\d+));/g, (_, name: string, code?: string) =>
    code ? String.fromCharCode(Number(code)) : ({ lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'", "#x27": "'" } as Record<string, string>)[name]!,
  );

const HOSTILE = `</p><script>alert(1)</script><img src=x onerror="alert(2)">'"`;

describe("page templates escape by default", () => {
  it("any string put in text or an attribute stays that text or that attribute", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, attr) => {
        const html = renderPage(
          <Page nonce="n" title="t">
            <p title={attr}>{text}</p>
          </Page>,
        );
        const m = /<body><p title(?:="([^"]*)")?>([^<]*)<\/p><\/body>/.exec(html);
        expect(m, html).not.toBeNull();
        expect(decode(m![1] ?? "")).toBe(attr);
        expect(decode(m![2]!)).toBe(text);
      }),
    );
  });

  it("a hostile application name, email, error or user code adds no element, attribute or script to any page", () => {
    const pages = [
      renderSignInForm(
        "n0nce",
        en,
        { action: "/oauth/authorize", fields: { state: HOSTILE }, appName: HOSTILE, note: shown("device.note", { code: HOSTILE }) },
        HOSTILE,
        {
          error: shown("signIn.returnTo", { origin: HOSTILE }),
          email: HOSTILE,
          providers: [{ id: HOSTILE, name: HOSTILE }],
          passkeys: true,
        },
      ),
      renderUserCodeForm("n0nce", en, { error: shown("signIn.returnTo", { origin: HOSTILE }), userCode: HOSTILE, uiLocales: HOSTILE }),
      renderDeviceResult("n0nce", en, { approved: true, appName: HOSTILE, popup: true, openerOrigin: "https://a.example" }),
      renderErrorPage("n0nce", new SlotgateServerError("client_not_found", { message: HOSTILE })),
    ];
    for (const html of pages) {
      expect(html).not.toContain("<script>alert");
      expect(html).not.toContain("<img");
      expect(html, "no attribute broke out of its quotes").not.toContain('onerror="alert');
      for (const tag of html.matchAll(/<(script|style)\b([^>]*)>/g)) {
        if (/type="application\/json"/.test(tag[2]!)) continue;
        expect(tag[2], "every inline script and style carries the nonce").toContain('nonce="n0nce"');
      }
    }
  });
});
