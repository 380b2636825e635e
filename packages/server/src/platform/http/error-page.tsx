import { translator, type Translator } from "../i18n/translator.js";
import type { SlotgateServerError } from "./errors.js";
import { Page, renderPage } from "./page.js";

/**
 * The page a browser gets when a sign-in step fails before its own page can answer (a bad authorize
 * request, a CSRF failure): the stable error code (never translated) and its message in the page's language
 * (the English message when the code has no translation).
 *
 * @example
 * ```ts
 * sendHtml(res, 400, (nonce) => renderErrorPage(nonce, new SlotgateServerError("csrf_failed"), translator("ja")));
 * ```
 */
export function renderErrorPage(nonce: string, error: SlotgateServerError, tr: Translator = translator("en")): string {
  return renderPage(
    <Page nonce={nonce} tr={tr} title={tr.t("errorPage.title")} viewport={false}>
      <h1>{tr.t("errorPage.heading")}</h1>
      <p class="error" id="slotgate-error" data-code={error.code}>
        {error.code}
      </p>
      <p>{tr.error(error)}</p>
    </Page>,
  );
}
