import { BRAND, type ErrorCode, LIMITS } from "@slotgate/protocol";
import { JsonData, Page, renderPage } from "../platform/http/page.js";
import { en } from "../platform/i18n/messages/en.js";
import { type MessageId, type Translator, translator } from "../platform/i18n/translator.js";
import type { PageScript } from "./page-script.js";

/** The page's own rules on top of the shared stylesheet. */
const STYLE =
  "body{max-width:52rem} .scroll{overflow-x:auto;position:relative} .scroll:focus-visible{outline:3px solid var(--focus);outline-offset:2px} table{border-collapse:collapse;width:100%} " +
  "td,th{border-bottom:1px solid var(--line);padding:.3rem;text-align:start;font-size:.9rem;vertical-align:top;word-break:keep-all} textarea{width:100%;box-sizing:border-box} " +
  ".hidden{display:none} .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap} " +
  "code{word-break:break-all} td{overflow-wrap:break-word} td button{white-space:nowrap;margin:0} " +
  "#notice,#error{position:sticky;bottom:0;background:var(--bg);margin:0;padding:.25rem 0} " +
  ".danger{color:var(--error);background:var(--bg);border:1px solid var(--error)} fieldset{border:1px solid var(--line);margin:1rem 0;padding:.5rem 1rem;min-width:0} " +
  "@media (max-width:40rem){body{margin:1rem auto} td,th{font-size:.8rem}}";

/**
 * The API errors the page script shows in the page's language (`error.<code>`, by the answer's `error`); any
 * other error shows the server's message (e.g. `invalid_request`, whose message names the field).
 */
const SCRIPT_ERRORS = [
  "invalid_credentials",
  "sign_in_throttled",
  "email_taken",
  "invalid_token",
  "client_not_found",
  "delivery_not_found",
  "delivery_not_retryable",
  "provider_not_registered",
  "cuid_taken",
  "rate_limited",
  "service_unavailable",
  "payload_too_large",
] as const satisfies readonly ErrorCode[];

/** The id of the JSON island holding the script's messages (`browser/messages.ts` reads it). */
export const SCRIPT_MESSAGES_ID = "dev-messages";

/**
 * The messages the page script writes, in the page's language: every `devScript.*` message and the
 * {@link SCRIPT_ERRORS}, each as the translator's template (text and argument names, alternating).
 */
export function scriptMessages(tr: Translator): Record<string, string[]> {
  const errors: MessageId[] = SCRIPT_ERRORS.map((code) => `error.${code}` as const);
  const ids = [...(Object.keys(en) as MessageId[]).filter((id) => id.startsWith("devScript.")), ...errors];
  return Object.fromEntries(ids.map((id) => [id, tr.template(id)]));
}

/**
 * The developer-center page: sign in or sign up, list client applications, register one (the
 * secret is shown once), manage one (edit, rotate the secret, disable, delete, its deliveries and audit list),
 * and on the embedded default the development mailbox (players' codes). It only calls the JSON API with
 * the developer token as `Authorization: Bearer` (kept in sessionStorage, never a cookie: no ambient
 * credential, so no cross-site request can act for the developer). Its script is `./browser/developer-center.ts`,
 * served as `script` under the response's CSP nonce; the page holds no inline script. The page is in `tr`'s
 * language (`?ui_locales=`, then `Accept-Language`, then English); the script's own texts come with it as
 * a JSON island ({@link scriptMessages}).
 *
 * @example
 * ```ts
 * const script = loadPageScript("developer-center", "/developer");
 * sendHtml(res, 200, (nonce) => renderDeveloperCenter(nonce, script, translator(negotiateLocale(req.query["ui_locales"], req))), { connectSelf: true });
 * ```
 */
export function renderDeveloperCenter(nonce: string, script: Pick<PageScript, "path" | "integrity">, tr: Translator = translator("en")): string {
  const t = tr.t;
  return renderPage(
    <Page nonce={nonce} title={t("dev.title")} tr={tr} style={STYLE} scriptSrc={script}>
      <JsonData id={SCRIPT_MESSAGES_ID} value={scriptMessages(tr)} />
      <h1>{t("dev.heading", { brand: BRAND.name })}</h1>
      <section id="auth">
        <h2>{t("signIn.heading")}</h2>
        <form id="auth-form">
          <label for="email">{t("signIn.email")}</label>
          <input id="email" name="email" type="email" autocomplete="username" required />
          <label for="password">{t("signIn.password")}</label>
          <input id="password" name="password" type="password" autocomplete="current-password" minlength={8} required />
          <button type="submit" name="action" value="login">
            {t("signIn.heading")}
          </button>
          <button type="submit" name="action" value="signup">
            {t("dev.createAccount")}
          </button>
        </form>
      </section>
      <section id="center" class="hidden">
        <p>
          <button id="logout" type="button">
            {t("dev.signOut")}
          </button>
        </p>
        <h2>{t("dev.clients")}</h2>
        <section class="scroll" aria-label={t("dev.clients")} tabindex={0}>
          <table>
            <thead>
              <tr>
                <th>{t("dev.name")}</th>
                <th>client_id</th>
                <th>{t("dev.redirectUris")}</th>
                <th>{t("dev.platform")}</th>
                <th>{t("dev.blockchain")}</th>
                <th>{t("dev.grants")}</th>
                <th>{t("dev.clientType")}</th>
                <th>{t("dev.state")}</th>
                <th>
                  <span class="sr-only">{t("dev.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody id="clients"></tbody>
          </table>
        </section>
        <section id="manage" class="hidden" aria-labelledby="manage-title">
          <h2 id="manage-title" tabindex={-1}>
            {tr.rich("dev.manage", { name: () => <span id="m-name"></span> })}
          </h2>
          <p class="muted">
            client_id: <code id="m-id"></code> · <span id="m-state"></span>
          </p>
          <form id="edit-form">
            <fieldset>
              <legend>{t("dev.settings")}</legend>
              <label for="e-name">{t("dev.name")}</label>
              <input id="e-name" name="name" required maxlength={100} />
              <label for="e-redirect_uris">{t("dev.redirectUrisField")}</label>
              <textarea id="e-redirect_uris" name="redirect_uris" rows={3} required></textarea>
              <label for="e-download_url">{t("dev.downloadUrl")}</label>
              <input id="e-download_url" name="download_url" type="url" required />
              <label for="e-web_url">{t("dev.webUrl")}</label>
              <input id="e-web_url" name="web_url" type="url" required />
              <button type="submit" id="save">
                {t("dev.saveChanges")}
              </button>
            </fieldset>
          </form>
          <form id="brand-form">
            <fieldset>
              <legend>{t("dev.brand")}</legend>
              <p class="muted">{t("dev.brand.intro", { brand: BRAND.name })}</p>
              <p id="b-preview" class="hidden">
                <img id="b-logo" alt={t("dev.brand.currentLogo")} width={40} height={40} />
              </p>
              <label for="b-display_name">{t("dev.brand.displayName")}</label>
              <input id="b-display_name" name="display_name" maxlength={64} />
              <label for="b-accent_color">{t("dev.brand.accentColor")}</label>
              <input id="b-accent_color" name="accent_color" pattern="#[0-9a-fA-F]{6}" placeholder="#7a1fa2" />
              <label for="b-logo_file">
                {t("dev.brand.logo", { min: LIMITS.brandLogoMinPixels, max: LIMITS.brandLogoMaxPixels, kb: LIMITS.brandLogoMaxBytes / 1024 })}
              </label>
              <input id="b-logo_file" name="logo" type="file" accept="image/png,image/jpeg,image/webp" />
              <label>
                <input type="checkbox" id="b-logo_remove" name="logo_remove" /> {t("dev.brand.removeLogo")}
              </label>
              <button type="submit" id="b-save">
                {t("dev.brand.save")}
              </button>
            </fieldset>
          </form>
          <fieldset>
            <legend>{t("dev.secret")}</legend>
            <p class="muted" id="m-overlap"></p>
            <button type="button" id="rotate">
              {t("dev.secret.rotate")}
            </button>
            <div id="rotated" class="hidden" role="status">
              <p>
                {t("dev.secret.new")} <code id="rotated-secret"></code>
              </p>
            </div>
          </fieldset>
          <fieldset id="provider" class="hidden">
            <legend>{t("dev.provider")}</legend>
            <p class="muted" id="p-state"></p>
            <button type="button" id="p-replay">
              {t("devScript.turnReplayOn")}
            </button>
            <section class="scroll" aria-label={t("dev.provider")} tabindex={0}>
              <table>
                <thead>
                  <tr>
                    <th>cuid</th>
                    <th>release_per</th>
                    <th>{t("dev.provider.releaseEnabled")}</th>
                    <th>{t("dev.provider.owner")}</th>
                  </tr>
                </thead>
                <tbody id="cuids"></tbody>
              </table>
            </section>
            <form id="cuid-form">
              <label for="p-cuid">cuid</label>
              <input id="p-cuid" name="cuid" required maxlength={64} />
              <label for="p-release_per">{t("dev.provider.releasePerField")}</label>
              <input id="p-release_per" name="release_per" type="number" required min={0} step="1" />
              <label for="p-owner_addr">{t("dev.provider.ownerField")}</label>
              <input id="p-owner_addr" name="owner_addr" required pattern="0x[0-9a-fA-F]{40}" />
              <button type="submit">{t("dev.provider.register")}</button>
            </form>
            <button type="button" id="p-rotate">
              {t("dev.provider.rotate")}
            </button>
            <div id="p-key" class="hidden" role="status">
              <p>{t("dev.provider.keyOnce")}</p>
              <p>
                aes_key: <code id="p-aes-key"></code>
              </p>
              <p>
                aes_iv: <code id="p-aes-iv"></code>
              </p>
              <p>
                {/* biome-ignore lint/a11y/useValidAnchor: the page script sets the key file's blob URL when the key is shown */}
                <a id="p-download" download="slotgate-provider-key.json" href="#">
                  {t("dev.provider.download")}
                </a>
              </p>
            </div>
          </fieldset>
          <fieldset>
            <legend>{t("dev.deliveries")}</legend>
            <p class="muted">
              {t("dev.deliveries.intro")}{" "}
              <button type="button" id="deliveries-refresh">
                {t("dev.refresh")}
              </button>
            </p>
            <section class="scroll" aria-label={t("dev.deliveries")} tabindex={0}>
              <table>
                <thead>
                  <tr>
                    <th>{t("dev.deliveries.kind")}</th>
                    <th>{t("dev.deliveries.target")}</th>
                    <th>{t("dev.deliveries.status")}</th>
                    <th>{t("dev.deliveries.attempts")}</th>
                    <th>{t("dev.deliveries.lastError")}</th>
                    <th>{t("dev.deliveries.nextRetry")}</th>
                    <th>
                      <span class="sr-only">{t("dev.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody id="deliveries"></tbody>
              </table>
            </section>
          </fieldset>
          <fieldset>
            <legend>{t("dev.switchOff")}</legend>
            <p class="muted">{t("dev.switchOff.intro")}</p>
            <button type="button" id="toggle-disabled">
              {t("devScript.disable")}
            </button>
            <button type="button" id="delete" class="danger">
              {t("dev.delete")}
            </button>
          </fieldset>
          <fieldset>
            <legend>{t("dev.audit")}</legend>
            <section class="scroll" aria-label={t("dev.audit")} tabindex={0}>
              <table>
                <thead>
                  <tr>
                    <th>{t("dev.audit.when")}</th>
                    <th>{t("dev.audit.who")}</th>
                    <th>{t("dev.audit.what")}</th>
                  </tr>
                </thead>
                <tbody id="audit"></tbody>
              </table>
            </section>
          </fieldset>
        </section>
        <h2>{t("dev.register")}</h2>
        <form id="client-form">
          <label for="name">{t("dev.name")}</label>
          <input id="name" name="name" required maxlength={100} />
          <label for="redirect_uris">{t("dev.register.redirectUris")}</label>
          <textarea id="redirect_uris" name="redirect_uris" rows={3} required></textarea>
          <label for="download_url">{t("dev.downloadUrl")}</label>
          <input id="download_url" name="download_url" type="url" required />
          <label for="web_url">{t("dev.webUrl")}</label>
          <input id="web_url" name="web_url" type="url" required />
          <label for="platform">{t("dev.platform")}</label>
          <select id="platform" name="platform">
            <option>web</option>
            <option>desktop</option>
            <option>game</option>
          </select>
          <label>
            <input type="checkbox" id="blockchain" name="blockchain" /> {t("dev.register.blockchain")}
          </label>
          <label>
            <input type="checkbox" id="grant_refresh" name="grant_types" value="refresh_token" /> {t("dev.register.refreshTokens")}
          </label>
          <label>
            <input type="checkbox" id="grant_device" name="grant_types" value="urn:ietf:params:oauth:grant-type:device_code" /> {t("dev.register.deviceLogin")}
          </label>
          <label>
            <input type="checkbox" id="public_client" name="token_endpoint_auth_method" value="none" /> {t("dev.register.publicClient")}
          </label>
          <button type="submit">{t("dev.register.submit")}</button>
        </form>
        <section id="mailbox" class="hidden">
          <h2>{t("dev.mailbox")}</h2>
          <p class="error" id="mailbox-warning">
            {t("dev.mailbox.warning")}
          </p>
          <p class="muted">
            {t("dev.mailbox.intro")}{" "}
            <button id="mailbox-refresh" type="button">
              {t("dev.refresh")}
            </button>
          </p>
          <table>
            <thead>
              <tr>
                <th>{t("dev.mailbox.sent")}</th>
                <th>{t("dev.mailbox.to")}</th>
                <th>{t("dev.mailbox.subject")}</th>
                <th>{t("dev.mailbox.message")}</th>
              </tr>
            </thead>
            <tbody id="mails"></tbody>
          </table>
        </section>
        <div id="secret" class="hidden">
          <h3 id="new-heading">{t("devScript.secretOnce")}</h3>
          <p>
            client_id: <code id="new-id"></code>
          </p>
          <p id="new-secret-line">
            client_secret: <code id="new-secret"></code>
          </p>
        </div>
      </section>
      <p class="muted" id="notice" role="status"></p>
      <p class="error" id="error" role="alert"></p>
    </Page>,
  );
}
