import type { SlotgateServerError } from "../../platform/http/errors.js";
import { Page, renderPage } from "../../platform/http/page.js";
import { CodeField, ErrorLine } from "../authorize/pages.js";
import type { PageBrand } from "../../platform/http/page-brand.js";
import type { Shown, Translator } from "../../platform/i18n/translator.js";

/**
 * The first step of the verification page: enter the code the device shows. A GET form, so the
 * next page is `/oauth/device?user_code=…` (the same URL a QR code opens).
 */
export function renderUserCodeForm(
  nonce: string,
  tr: Translator,
  options: { error?: Shown | SlotgateServerError; userCode?: string; display?: string; uiLocales?: string } = {},
): string {
  return renderPage(
    <Page nonce={nonce} tr={tr} title={tr.t("device.title")}>
      <h1>{tr.t("device.title")}</h1>
      <p>{tr.t("device.intro")}</p>
      <ErrorLine tr={tr} error={options.error} />
      <form method="get" action="/oauth/device">
        {options.display === "popup" ? <input type="hidden" name="display" value="popup" /> : null}
        {options.uiLocales ? <input type="hidden" name="ui_locales" value={options.uiLocales} /> : null}
        <CodeField
          name="user_code"
          label={tr.t("device.codeLabel")}
          autocapitalize="characters"
          spellcheck={false}
          placeholder="BDFH-JKLM"
          value={options.userCode ?? ""}
        />
        <button type="submit" class="primary">
          {tr.t("action.continue")}
        </button>
      </form>
    </Page>,
  );
}

/** The popup's script: tells the opener (at `origin` only) the result, then closes. */
function deviceResultScript(origin: string, type: string): string {
  return `(function () {
  var origin = ${JSON.stringify(origin).replace(/</g, "\\u003c")};
  try { if (window.opener) window.opener.postMessage({ from: "slotgate", type: ${JSON.stringify(type)} }, origin); } catch (e) {}
  setTimeout(function () { window.close(); }, 1500);
})();`;
}

/**
 * The last step: approved or denied. In a popup it tells the opener (at the client's registered web
 * URL origin only) `{ from: "slotgate", type: "device_approved" | "device_denied" }` and closes.
 */
export function renderDeviceResult(
  nonce: string,
  tr: Translator,
  result: { brand?: PageBrand; approved: boolean; appName: string; popup: boolean; openerOrigin: string },
): string {
  const type = result.approved ? "device_approved" : "device_denied";
  return renderPage(
    <Page
      nonce={nonce}
      tr={tr}
      brand={result.brand}
      title={tr.t(result.approved ? "device.connected.title" : "device.denied.title")}
      script={result.popup ? deviceResultScript(result.openerOrigin, type) : ""}
    >
      <h1>{tr.t(result.approved ? "device.connected.title" : "device.denied.heading")}</h1>
      <p id="slotgate-device-result" data-result={type}>
        {tr.t(result.approved ? "device.connected" : "device.denied", { app: result.appName })}
      </p>
    </Page>,
  );
}
