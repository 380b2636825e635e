import { BRAND } from "@slotgate/protocol";
import type { VNode } from "preact";
import type { Translator } from "../i18n/translator.js";

/** A client's brand on the sign-in pages, and the origin the service verified for it. */
export interface PageBrand {
  /** The name the studio shows players (its display name, else its application name). */
  name: string;
  /** Its accent colour, `#rrggbb` (checked against white text when set); anything else is ignored. */
  accent?: string | undefined;
  /** Its logo, served from the service's own origin (`/v1/brand/{client_id}/logo?v={sha256}`). */
  logoUrl?: string | undefined;
  /** The origin the service verified (a registered redirect URI's or web URL's), always shown. */
  origin: string;
}

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * The page rules a brand adds: its accent as `--accent` on the primary buttons and the header rule. Only
 * a `#rrggbb` value reaches the stylesheet.
 *
 * @example
 * ```ts
 * brandStyle({ name: "Star Quest", accent: "#7a1fa2", origin: "https://play.example" });
 * ```
 */
export function brandStyle(brand: PageBrand | undefined): string {
  if (!brand?.accent || !HEX_COLOUR.test(brand.accent)) return "";
  return `:root{--accent:${brand.accent}}button.primary{background:var(--accent);border:1px solid var(--accent);color:#fff}.brand{border-bottom-color:var(--accent)}`;
}

/** The studio's logo and name above the page. The logo is decorative next to the name (empty `alt`). */
export function BrandHeader(props: { brand: PageBrand }): VNode {
  return (
    <header class="brand" id="slotgate-brand">
      {props.brand.logoUrl ? <img id="slotgate-brand-logo" src={props.brand.logoUrl} alt="" width={40} height={40} /> : null}
      <span id="slotgate-brand-name">{props.brand.name}</span>
    </header>
  );
}

/**
 * What a brand can never hide or imitate: "Secured by Slotgate" and the verified origin, under every
 * branded page, drawn by the service in its own colours.
 */
export function SecuredFooter(props: { tr: Translator; origin: string }): VNode {
  return (
    <footer class="secured" id="slotgate-secured">
      <p>
        <strong>{props.tr.t("page.securedBy", { brand: BRAND.name })}</strong>
      </p>
      <p>
        {props.tr.rich<VNode>("page.verifiedOrigin", {
          origin: props.origin,
          code: (c) => (
            <code id="slotgate-origin" dir="ltr">
              {c}
            </code>
          ),
        })}
      </p>
    </footer>
  );
}

/** The rules of the brand header and the footer (service colours only). */
export const BRAND_LAYOUT_STYLE =
  ".brand{display:flex;align-items:center;gap:.75rem;padding-bottom:.75rem;border-bottom:3px solid var(--line);font-weight:600;font-size:1.1rem}" +
  ".brand img{width:40px;height:40px;object-fit:contain}" +
  ".secured{margin-top:2rem;padding-top:.75rem;border-top:1px solid var(--line);color:var(--muted);font-size:.85rem}.secured p{margin:.25rem 0}" +
  ".secured code{color:var(--fg)}";
