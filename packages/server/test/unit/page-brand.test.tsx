import { describe, expect, it } from "vitest";
import { renderSignInForm } from "../../src/oauth/authorize/pages.js";
import { clientPageBrand } from "../../src/oauth/clients/client-brand.js";
import { translator } from "../../src/platform/i18n/translator.js";

const NO_BRAND = { brand_display_name: null, brand_accent: null, brand_logo_sha256: null };
const target = (brand: ReturnType<typeof clientPageBrand>) => ({
  action: "/oauth/authorize",
  fields: {},
  appName: brand.name,
  note: { id: "signIn.heading" as const },
  brand,
});

describe("a client's brand on the sign-in page", () => {
  it("shows the display name, the logo from this origin and the accent on the primary button", () => {
    const brand = clientPageBrand(
      { client_id: "sg_1", name: "Star Quest", brand_display_name: "Star Quest Online", brand_accent: "#7a1fa2", brand_logo_sha256: "ab12" },
      "https://play.example",
    );
    const html = renderSignInForm("n", translator("en"), target(brand), "csrf");
    expect(html).toContain('<span id="slotgate-brand-name">Star Quest Online</span>');
    expect(html).toContain('<img id="slotgate-brand-logo" src="/v1/brand/sg_1/logo?v=ab12" alt width="40" height="40"/>');
    expect(html).toContain(":root{--accent:#7a1fa2}button.primary{background:var(--accent)");
    expect(html).toContain('<button type="submit" name="decision" value="approve" class="primary">');
  });

  it("always shows 'Secured by Slotgate' and the verified origin, branded or not, in the page's language", () => {
    for (const brand of [
      clientPageBrand({ ...NO_BRAND, client_id: "sg_1", name: "Plain" }, "https://plain.example"),
      clientPageBrand({ client_id: "sg_2", name: "X", brand_display_name: "Slotgate", brand_accent: "#000000", brand_logo_sha256: "cd" }, "https://x.example"),
    ]) {
      const html = renderSignInForm("n", translator("ja"), target(brand), "csrf");
      expect(html).toContain("<strong>Slotgate による保護</strong>");
      expect(html).toContain(`<code id="slotgate-origin" dir="ltr">${brand.origin}</code>`);
    }
  });

  it("no logo, no image (and no accent rule without an accent); a colour that is not #rrggbb never reaches the stylesheet", () => {
    const plain = renderSignInForm(
      "n",
      translator("en"),
      target(clientPageBrand({ ...NO_BRAND, client_id: "sg_1", name: "Plain" }, "https://p.example")),
      "csrf",
    );
    expect(plain).not.toContain("<img");
    expect(plain).not.toContain("--accent:");
    const hostile = clientPageBrand({ ...NO_BRAND, client_id: "sg_1", name: "P", brand_accent: "red}body{display:none" }, "https://p.example");
    expect(renderSignInForm("n", translator("en"), target(hostile), "csrf")).not.toContain("display:none");
  });
});
