import { BRAND, LIMITS } from "@slotgate/protocol";
import { Page, renderPage } from "../platform/http/page.js";
import type { PageScript } from "./page-script.js";

/** The page's own rules on top of the shared stylesheet. */
const STYLE =
  "body{max-width:52rem} .scroll{overflow-x:auto;position:relative} table{border-collapse:collapse;width:100%} " +
  "td,th{border-bottom:1px solid var(--line);padding:.3rem;text-align:start;font-size:.9rem;vertical-align:top} textarea{width:100%;box-sizing:border-box} " +
  ".hidden{display:none} .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap} " +
  "code{word-break:break-all} td{overflow-wrap:break-word} td button{white-space:nowrap;margin:0} " +
  "#notice,#error{position:sticky;bottom:0;background:var(--bg);margin:0;padding:.25rem 0} " +
  ".danger{color:var(--error)} fieldset{border:1px solid var(--line);margin:1rem 0;padding:.5rem 1rem;min-width:0} " +
  "@media (max-width:40rem){body{margin:1rem auto} td,th{font-size:.8rem}}";

/**
 * The developer-center page: sign in or sign up, list client applications, register one (the
 * secret is shown once), manage one (edit, rotate the secret, disable, delete, its deliveries and audit list),
 * and on the embedded default the development mailbox (players' codes). It only calls the JSON API with
 * the developer token as `Authorization: Bearer` (kept in sessionStorage, never a cookie: no ambient
 * credential, so no cross-site request can act for the developer). Its script is `./browser/developer-center.ts`,
 * served as `script` under the response's CSP nonce; the page holds no inline script.
 *
 * @example
 * ```ts
 * const script = loadPageScript("developer-center", "/developer");
 * sendHtml(res, 200, (nonce) => renderDeveloperCenter(nonce, script), { connectSelf: true });
 * ```
 */
export function renderDeveloperCenter(nonce: string, script: Pick<PageScript, "path" | "integrity">): string {
  return renderPage(
    <Page nonce={nonce} title="Developer center" style={STYLE} scriptSrc={script}>
      <h1>{BRAND.name} developer center</h1>
      <section id="auth">
        <h2>Sign in</h2>
        <form id="auth-form">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" minlength={8} required />
          <button type="submit" name="action" value="login">
            Sign in
          </button>
          <button type="submit" name="action" value="signup">
            Create account
          </button>
        </form>
      </section>
      <section id="center" class="hidden">
        <p>
          <button id="logout" type="button">
            Sign out
          </button>
        </p>
        <h2>Your client applications</h2>
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>client_id</th>
                <th>Redirect URIs</th>
                <th>Platform</th>
                <th>Blockchain</th>
                <th>Grants</th>
                <th>Client type</th>
                <th>State</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody id="clients"></tbody>
          </table>
        </div>
        <section id="manage" class="hidden" aria-labelledby="manage-title">
          <h2 id="manage-title" tabindex={-1}>
            Manage <span id="m-name"></span>
          </h2>
          <p class="muted">
            client_id: <code id="m-id"></code> · <span id="m-state"></span>
          </p>
          <form id="edit-form">
            <fieldset>
              <legend>Settings</legend>
              <label for="e-name">Name</label>
              <input id="e-name" name="name" required maxlength={100} />
              <label for="e-redirect_uris">Redirect URIs, one per line (exact match)</label>
              <textarea id="e-redirect_uris" name="redirect_uris" rows={3} required></textarea>
              <label for="e-download_url">Download URL</label>
              <input id="e-download_url" name="download_url" type="url" required />
              <label for="e-web_url">Web application URL</label>
              <input id="e-web_url" name="web_url" type="url" required />
              <button type="submit" id="save">
                Save changes
              </button>
            </fieldset>
          </form>
          <form id="brand-form">
            <fieldset>
              <legend>Brand on the sign-in pages</legend>
              <p class="muted">
                Players see these on your sign-in popup, above the form; "Secured by {BRAND.name}" and your verified address always stay below it.
              </p>
              <p id="b-preview" class="hidden">
                <img id="b-logo" alt="Current logo" width={40} height={40} />
              </p>
              <label for="b-display_name">Display name (empty: the application name)</label>
              <input id="b-display_name" name="display_name" maxlength={64} />
              <label for="b-accent_color">Accent colour, #rrggbb (empty: none; white text must stay readable on it)</label>
              <input id="b-accent_color" name="accent_color" pattern="#[0-9a-fA-F]{6}" placeholder="#7a1fa2" />
              <label for="b-logo_file">
                Logo: PNG, JPEG or WebP, {LIMITS.brandLogoMinPixels} to {LIMITS.brandLogoMaxPixels} pixels a side, at most {LIMITS.brandLogoMaxBytes / 1024} KB
                (SVG is refused)
              </label>
              <input id="b-logo_file" name="logo" type="file" accept="image/png,image/jpeg,image/webp" />
              <label>
                <input type="checkbox" id="b-logo_remove" name="logo_remove" /> Remove the logo
              </label>
              <button type="submit" id="b-save">
                Save brand
              </button>
            </fieldset>
          </form>
          <fieldset>
            <legend>Client secret</legend>
            <p class="muted" id="m-overlap"></p>
            <button type="button" id="rotate">
              Rotate secret
            </button>
            <div id="rotated" class="hidden" role="status">
              <p>
                New client_secret (shown only once): <code id="rotated-secret"></code>
              </p>
            </div>
          </fieldset>
          <fieldset id="provider" class="hidden">
            <legend>Content tokens (provider side)</legend>
            <p class="muted" id="p-state"></p>
            <button type="button" id="p-replay">
              Turn spend replay protection on
            </button>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>cuid</th>
                    <th>release_per</th>
                    <th>Release enabled</th>
                    <th>Owner address</th>
                  </tr>
                </thead>
                <tbody id="cuids"></tbody>
              </table>
            </div>
            <form id="cuid-form">
              <label for="p-cuid">cuid</label>
              <input id="p-cuid" name="cuid" required maxlength={64} />
              <label for="p-release_per">release_per (share of used balances you may release)</label>
              <input id="p-release_per" name="release_per" type="number" required min={0} step="1" />
              <label for="p-owner_addr">Owner address (0x…)</label>
              <input id="p-owner_addr" name="owner_addr" required pattern="0x[0-9a-fA-F]{40}" />
              <button type="submit">Register cuid</button>
            </form>
            <button type="button" id="p-rotate">
              Rotate AES key and IV
            </button>
            <div id="p-key" class="hidden" role="status">
              <p>Copy or download the key now — it is shown only once.</p>
              <p>
                aes_key: <code id="p-aes-key"></code>
              </p>
              <p>
                aes_iv: <code id="p-aes-iv"></code>
              </p>
              <p>
                {/* biome-ignore lint/a11y/useValidAnchor: the page script sets the key file's blob URL when the key is shown */}
                <a id="p-download" download="slotgate-provider-key.json" href="#">
                  Download the key file
                </a>
              </p>
            </div>
          </fieldset>
          <fieldset>
            <legend>Deliveries</legend>
            <p class="muted">
              Authorize callbacks and marketplace webhooks sent for this application, newest first.{" "}
              <button type="button" id="deliveries-refresh">
                Refresh
              </button>
            </p>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>Kind</th>
                    <th>Target</th>
                    <th>Status</th>
                    <th>Attempts</th>
                    <th>Last error</th>
                    <th>Next retry</th>
                    <th>
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody id="deliveries"></tbody>
              </table>
            </div>
          </fieldset>
          <fieldset>
            <legend>Switch off</legend>
            <p class="muted">
              Disabling stops sign-ins and client authentication and revokes every token issued so far; enabling again lets new sign-ins in. Deleting is final.
            </p>
            <button type="button" id="toggle-disabled">
              Disable
            </button>
            <button type="button" id="delete" class="danger">
              Delete application
            </button>
          </fieldset>
          <fieldset>
            <legend>Audit list</legend>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Who</th>
                    <th>What</th>
                  </tr>
                </thead>
                <tbody id="audit"></tbody>
              </table>
            </div>
          </fieldset>
        </section>
        <h2>Register a client application</h2>
        <form id="client-form">
          <label for="name">Name</label>
          <input id="name" name="name" required maxlength={100} />
          <label for="redirect_uris">Redirect URIs, one per line (exact match; public game clients: http://127.0.0.1/callback, any port)</label>
          <textarea id="redirect_uris" name="redirect_uris" rows={3} required></textarea>
          <label for="download_url">Download URL</label>
          <input id="download_url" name="download_url" type="url" required />
          <label for="web_url">Web application URL</label>
          <input id="web_url" name="web_url" type="url" required />
          <label for="platform">Platform</label>
          <select id="platform" name="platform">
            <option>web</option>
            <option>desktop</option>
            <option>game</option>
          </select>
          <label>
            <input type="checkbox" id="blockchain" name="blockchain" /> Content requires blockchain authorization
          </label>
          <label>
            <input type="checkbox" id="grant_refresh" name="grant_types" value="refresh_token" /> Refresh tokens for your backend (server-side refresh)
          </label>
          <label>
            <input type="checkbox" id="grant_device" name="grant_types" value="urn:ietf:params:oauth:grant-type:device_code" /> Device login for consoles and
            TVs (enter a code on another device)
          </label>
          <label>
            <input type="checkbox" id="public_client" name="token_endpoint_auth_method" value="none" /> Public client: a game or desktop build with no secret
            (loopback redirect URIs only, any port, PKCE S256)
          </label>
          <button type="submit">Register</button>
        </form>
        <section id="mailbox" class="hidden">
          <h2>Development mailbox</h2>
          <p class="error" id="mailbox-warning"></p>
          <p class="muted">
            Players' sign-up, link and recovery codes, newest last.{" "}
            <button id="mailbox-refresh" type="button">
              Refresh
            </button>
          </p>
          <table>
            <thead>
              <tr>
                <th>Sent</th>
                <th>To</th>
                <th>Subject</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody id="mails"></tbody>
          </table>
        </section>
        <div id="secret" class="hidden">
          <h3 id="new-heading">Copy the secret now — it is shown only once</h3>
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
