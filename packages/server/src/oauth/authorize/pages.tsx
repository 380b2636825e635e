import { BRAND, LIMITS, POPUP_RESULT_SCRIPT, popupResultPayload, SILENT_RESULT_SCRIPT } from "@slotgate/protocol";
import type { JSX, VNode } from "preact";
import type { SlotgateServerError } from "../../platform/http/errors.js";
import { JsonData, Page, renderPage } from "../../platform/http/page.js";
import type { PageBrand } from "../../platform/http/page-brand.js";
import { clientPageBrand } from "../clients/client-brand.js";
import type { MessageId, Shown, Translator } from "../../platform/i18n/translator.js";
import type { AuthorizeRequest } from "./params.js";
import { PASSKEY_REGISTER_SCRIPT, PASSKEY_SIGN_IN_SCRIPT } from "./passkey-script.js";

/** What the sign-in page offers besides email and password. */
export interface SignInOptions {
  /** A message shown above the form, in the page's language. */
  error?: Shown | SlotgateServerError;
  /** The email field's value. */
  email?: string;
  /** Upstream identity providers: one "Continue with {name}" button each. */
  providers?: ReadonlyArray<{ id: string; name: string }>;
  /** Whether the page offers "Sign in with a passkey" (and adding one after signing in). */
  passkeys?: boolean;
  /** Whether the page offers "Create a new account" (which mails a code). @default true */
  signup?: boolean;
}

/** Where a sign-in and consent form posts, and what it says about the asking application. */
export interface SignInFormTarget {
  /** Path the form posts to. */
  action: string;
  /** Hidden fields carried through the post (empty values are left out). */
  fields: Record<string, string | undefined>;
  /** Display name of the client application. */
  appName: string;
  /** The muted line under the form, e.g. where the user is returned to. */
  note: Shown;
  /** The client's brand and the origin the service verified. */
  brand?: PageBrand;
}

/** The brand of the request's client, beside the origin of its registered redirect URI. */
export function requestBrand(request: AuthorizeRequest): PageBrand {
  return clientPageBrand(request.client, new URL(request.params.redirect_uri).origin);
}

/** Hidden fields and the CSRF token, as hidden inputs. */
function HiddenInputs(props: { fields: Record<string, string | undefined>; csrfToken: string }): VNode {
  return (
    <>
      {Object.entries(props.fields)
        .filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "")
        .map(([k, v]) => (
          <input type="hidden" name={k} value={v} />
        ))}
      <input type="hidden" name="csrf_token" value={props.csrfToken} />
    </>
  );
}

/** The authorize parameters and CSRF token, as hidden inputs of every form of the flow. */
function HiddenFields(props: { request: AuthorizeRequest; csrfToken: string }): VNode {
  return <HiddenInputs fields={{ ...props.request.params }} csrfToken={props.csrfToken} />;
}

/**
 * A labelled field for a code the player reads elsewhere (the mailed sign-in code, a device's user code):
 * `name` is also the input's id, and the browser may fill it from a received code (`autocomplete`).
 *
 * @example
 * ```tsx
 * <CodeField name="user_code" label={tr.t("device.codeLabel")} autocapitalize="characters" />
 * ```
 */
export function CodeField(props: { name: string; label: string } & Omit<JSX.InputHTMLAttributes<HTMLInputElement>, "label">): VNode {
  const { name, label, ...input } = props;
  return (
    <>
      <label for={name}>{label}</label>
      <input id={name} name={name} autocomplete="one-time-code" {...input} />
    </>
  );
}

/** The page's error, in its language, announced to screen readers (`role="alert"`). */
export function ErrorLine(props: { tr: Translator; error: Shown | SlotgateServerError | undefined }): VNode | null {
  return props.error ? (
    <p class="error" role="alert" id="slotgate-error">
      {props.tr.error(props.error)}
    </p>
  ) : null;
}

/**
 * The form's two `decision` buttons: Approve (first, so Enter means it; in the brand's accent) and Deny
 * (which skips the browser's field checks when `skipChecks`).
 */
function DecisionButtons(props: { tr: Translator; approve: MessageId; skipChecks?: boolean }): VNode {
  return (
    <>
      <button type="submit" name="decision" value="approve" class="primary">
        {props.tr.t(props.approve)}
      </button>
      <button type="submit" name="decision" value="deny" formnovalidate={props.skipChecks === true}>
        {props.tr.t("action.deny")}
      </button>
    </>
  );
}

/**
 * The sign-in and consent page, shared by the authorize page and the device verification page. The
 * email form's field names are a stable interface (`email`,
 * `password`, `intent=signup`, `decision` = `approve` / `deny`, the only `decision` controls of the page);
 * identity providers and passkeys get forms of their own (choosing one is the approval) so that
 * Enter in the email form still means Approve.
 */
export function renderSignInForm(nonce: string, tr: Translator, target: SignInFormTarget, csrfToken: string, options: SignInOptions = {}): string {
  const hidden = <HiddenInputs fields={target.fields} csrfToken={csrfToken} />;
  const providers = options.providers ?? [];
  return renderPage(
    <Page
      nonce={nonce}
      tr={tr}
      brand={target.brand}
      title={tr.t("signIn.title", { app: target.appName })}
      script={options.passkeys ? PASSKEY_SIGN_IN_SCRIPT : ""}
    >
      <h1>{tr.t("signIn.heading")}</h1>
      <p>{tr.rich<VNode>("signIn.asks", { app: target.appName, brand: BRAND.name, strong: (c) => <strong>{c}</strong> })}</p>
      <ErrorLine tr={tr} error={options.error} />
      {providers.length ? (
        <form method="post" action={target.action} id="providers">
          {hidden}
          {providers.map((p) => (
            <button type="submit" name="provider" value={p.id}>
              {tr.t("signIn.continueWith", { provider: p.name })}
            </button>
          ))}
        </form>
      ) : null}
      {options.passkeys ? (
        <form method="post" action={target.action} id="passkey-form">
          {hidden}
          <input type="hidden" name="passkey_flow" id="passkey_flow" />
          <input type="hidden" name="passkey_response" id="passkey_response" />
          <button type="button" id="passkey-sign-in" data-unsupported={tr.t("passkey.unsupported")}>
            {tr.t("signIn.passkey")}
          </button>
          <p class="error" role="alert" id="passkey-error" data-failed={tr.t("passkey.failed")} />
        </form>
      ) : null}
      {providers.length || options.passkeys ? <p class="muted">{tr.t("signIn.orEmail")}</p> : null}
      <form method="post" action={target.action} id="email-form">
        {hidden}
        <label for="email">{tr.t("signIn.email")}</label>
        <input id="email" name="email" type="email" autocomplete="username webauthn" value={options.email ?? ""} />
        <label for="password">{tr.t("signIn.password")}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" />
        {options.signup === false ? null : (
          <label class="muted">
            <input type="checkbox" name="intent" value="signup" /> {tr.t("signIn.createAccount")}
          </label>
        )}
        {options.passkeys ? (
          <label class="muted">
            <input type="checkbox" name="add_passkey" value="1" /> {tr.t("signIn.addPasskey")}
          </label>
        ) : null}
        <DecisionButtons tr={tr} approve="action.approve" />
      </form>
      <p class="muted">{tr.error(target.note)}</p>
    </Page>,
  );
}

/** The authorize page's sign-in and consent form. */
export function renderAuthorizeForm(nonce: string, tr: Translator, request: AuthorizeRequest, csrfToken: string, options: SignInOptions = {}): string {
  const target: SignInFormTarget = {
    action: "/oauth/authorize",
    fields: { ...request.params },
    appName: requestBrand(request).name,
    note: { id: "signIn.returnTo", values: { origin: new URL(request.params.redirect_uri).origin } },
    brand: requestBrand(request),
  };
  return renderSignInForm(nonce, tr, target, csrfToken, options);
}

/**
 * The mailbox step: "we sent a code to p•••@example.com". The form posts the challenge id with the
 * code (`otp`) and the same authorize parameters; Approve finishes the sign-in once the code is right.
 */
export function renderCodeForm(
  nonce: string,
  tr: Translator,
  request: AuthorizeRequest,
  csrfToken: string,
  options: { challenge: string; sentTo: string | Shown; reason: Shown; error?: Shown | SlotgateServerError; devMailbox?: boolean },
): string {
  return renderPage(
    <Page nonce={nonce} tr={tr} brand={requestBrand(request)} title={tr.t("code.title")}>
      <h1>{tr.t("code.title")}</h1>
      <p id="slotgate-code-reason">{tr.error(options.reason)}</p>
      <p>
        {tr.rich<VNode>("code.sentTo", {
          email: typeof options.sentTo === "string" ? options.sentTo : tr.error(options.sentTo),
          app: requestBrand(request).name,
          sentTo: (c) => <strong id="slotgate-sent-to">{c}</strong>,
          strong: (c) => <strong>{c}</strong>,
        })}
      </p>
      <ErrorLine tr={tr} error={options.error} />
      <form method="post" action="/oauth/authorize" id="code-form">
        <HiddenFields request={request} csrfToken={csrfToken} />
        <input type="hidden" name="challenge" value={options.challenge} />
        <CodeField
          name="otp"
          label={tr.t("code.label")}
          type="text"
          inputmode="numeric"
          pattern={`[0-9]{${LIMITS.otpDigits}}`}
          maxlength={LIMITS.otpDigits}
          required
          autofocus
        />
        <DecisionButtons tr={tr} approve="action.continue" skipChecks />
      </form>
      <p class="muted">{tr.t("code.noEmail")}</p>
      {options.devMailbox ? (
        <p class="muted" id="slotgate-dev-mailbox">
          {tr.rich<VNode>("code.devMailbox", {
            link: (c) => (
              <a href="/developer" target="_blank" rel="noopener">
                {c}
              </a>
            ),
          })}
        </p>
      ) : null}
    </Page>,
  );
}

/**
 * "Create a passkey" after signing in: the WebAuthn options are embedded; the form posts the new
 * credential (`passkey_registration`) or, with Skip, nothing; either way the sign-in then completes.
 */
export function renderPasskeyRegistration(
  nonce: string,
  tr: Translator,
  request: AuthorizeRequest,
  csrfToken: string,
  options: { flow: string; creation: unknown; error?: Shown },
): string {
  return renderPage(
    <Page nonce={nonce} tr={tr} brand={requestBrand(request)} title={tr.t("passkey.title")} script={PASSKEY_REGISTER_SCRIPT}>
      <h1>{tr.t("passkey.title")}</h1>
      <p>{tr.t("passkey.intro", { brand: BRAND.name })}</p>
      <ErrorLine tr={tr} error={options.error} />
      <form method="post" action="/oauth/authorize" id="passkey-register-form">
        <HiddenFields request={request} csrfToken={csrfToken} />
        <input type="hidden" name="passkey_flow" value={options.flow} />
        <input type="hidden" name="passkey_registration" id="passkey_registration" />
        <button type="button" id="passkey-create" class="primary" data-unsupported={tr.t("passkey.unsupported")}>
          {tr.t("passkey.title")}
        </button>
        <button type="submit" name="passkey_skip" value="1">
          {tr.t("action.skip")}
        </button>
        <p class="error" role="alert" id="passkey-error" data-failed={tr.t("passkey.failed")} />
      </form>
      <JsonData id="passkey-options" value={options.creation} />
    </Page>,
  );
}

/**
 * The identity provider vouched for no email address: ask for one (the mailbox step follows).
 */
export function renderEmailForm(
  nonce: string,
  tr: Translator,
  request: AuthorizeRequest,
  csrfToken: string,
  options: { flow: string; provider: string | undefined; error?: Shown },
): string {
  return renderPage(
    <Page nonce={nonce} tr={tr} brand={requestBrand(request)} title={tr.t("email.title")}>
      <h1>{tr.t("email.title")}</h1>
      <p>{tr.t("email.intro", { provider: options.provider ?? tr.t("email.someProvider"), brand: BRAND.name })}</p>
      <ErrorLine tr={tr} error={options.error} />
      <form method="post" action="/oauth/authorize" id="idp-email-form">
        <HiddenFields request={request} csrfToken={csrfToken} />
        <input type="hidden" name="idp_flow" value={options.flow} />
        <label for="email">{tr.t("signIn.email")}</label>
        <input id="email" name="email" type="email" autocomplete="email" required />
        <DecisionButtons tr={tr} approve="action.sendCode" skipChecks />
      </form>
    </Page>,
  );
}

/**
 * The popup result page: `#slotgate-result` carries `{ targetOrigin, redirectUri, messages }` (the
 * `slotgate` message and the legacy `gameauth` copy) and the shared `POPUP_RESULT_SCRIPT` of
 * `@slotgate/protocol` posts both to `window.opener` at the registered origin only (never `*`) and on
 * the `slotgate_login` BroadcastChannel, then closes. When a Cross-Origin-Opener-Policy has severed the
 * opener it replaces the page with `{redirect_uri}#from=…&type=…&data=…&state=…` (never sent to a
 * server), where the client SDK's `handleLoginCallback()` relays it.
 */
export function renderPopupResult(nonce: string, tr: Translator, redirectUri: string, type: "success" | "fail", data: string, state: string): string {
  return renderPage(
    <Page
      nonce={nonce}
      tr={tr}
      title={tr.t(type === "success" ? "popup.signedIn.title" : "popup.notSignedIn.title")}
      viewport={false}
      script={POPUP_RESULT_SCRIPT}
    >
      <p id="slotgate-status">{tr.t(type === "success" ? "popup.signedIn" : "popup.notSignedIn")}</p>
      <JsonData id="slotgate-result" value={popupResultPayload(redirectUri, type, data, state)} />
    </Page>,
  );
}

/**
 * The silent-renewal result (`prompt=none`), loaded in the client SDK's hidden iframe: posts
 * `{ from: "slotgate", type, data, state }` (the user JWT, or `login_required`) to `window.parent` at the
 * redirect URI's origin only, like the popup result posts to its opener. No text, no form: framing it (its CSP
 * allows that one origin as frame ancestor) can show or trick nothing.
 */
export function renderSilentResult(nonce: string, redirectUri: string, type: "success" | "fail", data: string, state: string): string {
  const result = { targetOrigin: new URL(redirectUri).origin, message: { from: BRAND.messageSource, type, data, state } };
  return renderPage(
    <Page nonce={nonce} title="Signing in" viewport={false} script={SILENT_RESULT_SCRIPT}>
      <JsonData id="slotgate-result" value={result} />
    </Page>,
  );
}
