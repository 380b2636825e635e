import type { ComponentChildren, VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { BRAND } from "@slotgate/protocol";
import { type Translator, translator } from "../i18n/translator.js";
import { jsonForScript, PAGE_STYLE } from "./html.js";
import { BRAND_LAYOUT_STYLE, BrandHeader, brandStyle, type PageBrand, SecuredFooter } from "./page-brand.js";

/** What every server page's `<html>` and `<head>` carry. */
export interface PageProps {
  /** The CSP nonce of this response (`sendHtml`), for the inline style and script. */
  nonce: string;
  /** The title before " — Slotgate". */
  title: string;
  /** The page's language (its `lang` and `dir`). @default English */
  tr?: Translator;
  /** Rules added after the shared stylesheet. */
  style?: string;
  /** An inline script, run under the nonce at the end of the body. */
  script?: string;
  /** A same-origin script file (a built page script), loaded under the nonce with its integrity. */
  scriptSrc?: { path: string; integrity: string };
  /** The client's brand: its header above the page, "Secured by Slotgate" and the verified origin below. */
  brand?: PageBrand | undefined;
  /** Whether the page has the mobile viewport tag. @default true */
  viewport?: boolean;
  children?: ComponentChildren;
}

/**
 * The document of every server page. Text and attributes are escaped by the renderer; only the
 * stylesheet and the inline script, both written by the server, are inserted as they are.
 *
 * @example
 * ```tsx
 * sendHtml(res, 200, (nonce) => renderPage(<Page nonce={nonce} title="Hello"><p>{userInput}</p></Page>));
 * ```
 */
export function Page(props: PageProps): VNode {
  const tr = props.tr ?? translator("en");
  return (
    <html lang={tr.locale} dir={tr.dir}>
      <head>
        <meta charset="utf-8" />
        {props.viewport === false ? null : <meta name="viewport" content="width=device-width,initial-scale=1" />}
        <title>{`${props.title} — ${BRAND.name}`}</title>
        <style
          nonce={props.nonce}
          dangerouslySetInnerHTML={{
            __html: [PAGE_STYLE, props.style, props.brand ? BRAND_LAYOUT_STYLE : "", brandStyle(props.brand)].filter(Boolean).join(" "),
          }}
        />
      </head>
      <body>
        {props.brand ? <BrandHeader brand={props.brand} /> : null}
        {props.brand ? <main>{props.children}</main> : props.children}
        {props.brand ? <SecuredFooter tr={tr} origin={props.brand.origin} /> : null}
        {props.script ? <script nonce={props.nonce} dangerouslySetInnerHTML={{ __html: `\n${props.script}\n` }} /> : null}
        {props.scriptSrc ? <script nonce={props.nonce} src={props.scriptSrc.path} integrity={props.scriptSrc.integrity} /> : null}
      </body>
    </html>
  );
}

/**
 * A `<script type="application/json">` holding `value` for a page script to read (see `jsonForScript`).
 *
 * @example
 * ```tsx
 * <JsonData id="passkey-options" value={creation} />
 * ```
 */
export function JsonData(props: { id: string; value: unknown }): VNode {
  return <script type="application/json" id={props.id} dangerouslySetInnerHTML={{ __html: jsonForScript(props.value) }} />;
}

/**
 * Renders a page element to the HTML document sent to the browser.
 *
 * @example
 * ```tsx
 * const html = renderPage(<Page nonce="n" title="Hi"><p>{name}</p></Page>);
 * ```
 */
export function renderPage(page: VNode): string {
  return `<!doctype html>\n${renderToString(page)}`;
}
