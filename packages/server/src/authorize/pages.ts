import { BRAND, LIMITS, POPUP_RESULT_SCRIPT, popupResultPayload } from "@slotgate/protocol";
import { escapeHtml, jsonForScript, PAGE_STYLE } from "../http/html.js";
import type { AuthorizeRequest } from "./params.js";
import { PASSKEY_REGISTER_SCRIPT, PASSKEY_SIGN_IN_SCRIPT } from "./passkey-script.js";

/** What the sign-in page offers besides email and password. */
export interface SignInOptions {
  /** A message shown above the form. */
  error?: string;
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
  note: string;
}

/** Hidden fields and the CSRF token, as hidden inputs. */
function hiddenInputs(fields: Record<string, string | undefined>, csrfToken: string): string {
  return [
    ...Object.entries(fields)
      .filter(([, v]) => typeof v === "string" && v !== "")
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(String(v))}">`),
    `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">`,
  ].join("\n");
}

/** The authorize parameters and CSRF token, as hidden inputs of every form of the flow. */
function hiddenFields(request: AuthorizeRequest, csrfToken: string): string {
  return hiddenInputs({ ...request.params }, csrfToken);
}

function page(nonce: string, title: string, body: string, script = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} — ${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
${body}
${script ? `<script nonce="${nonce}">\n${script}\n</script>` : ""}
</body></html>`;
}

function errorLine(error: string | undefined): string {
  return error ? `<p class="error" role="alert" id="slotgate-error">${escapeHtml(error)}</p>` : "";
}

/**
 * The sign-in and consent page, shared by the authorize page and the device verification page. The
 * email form's field names are a stable interface (`email`,
 * `password`, `intent=signup`, `decision` = `approve` / `deny`, the only `decision` controls of the page);
 * identity providers and passkeys get forms of their own (choosing one is the approval) so that
 * Enter in the email form still means Approve.
 */
export function renderSignInForm(nonce: string, target: SignInFormTarget, csrfToken: string, options: SignInOptions = {}): string {
  const hidden = hiddenInputs(target.fields, csrfToken);
  const app = escapeHtml(target.appName);
  const providers = options.providers ?? [];
  const providerForm = providers.length
    ? `<form method="post" action="${escapeHtml(target.action)}" id="providers">
${hidden}
${providers.map((p) => `<button type="submit" name="provider" value="${escapeHtml(p.id)}">Continue with ${escapeHtml(p.name)}</button>`).join("\n")}
</form>`
    : "";
  const passkeyForm = options.passkeys
    ? `<form method="post" action="${escapeHtml(target.action)}" id="passkey-form">
${hidden}
<input type="hidden" name="passkey_flow" id="passkey_flow">
<input type="hidden" name="passkey_response" id="passkey_response">
<button type="button" id="passkey-sign-in">Sign in with a passkey</button>
<p class="error" role="alert" id="passkey-error"></p>
</form>`
    : "";
  const alternatives = providerForm || passkeyForm ? `${providerForm}\n${passkeyForm}\n<p class="muted">Or with your email:</p>` : "";
  return page(
    nonce,
    `Sign in to ${app}`,
    `<h1>Sign in</h1>
<p><strong>${app}</strong> asks to use your ${BRAND.name} account.</p>
${errorLine(options.error)}
${alternatives}
<form method="post" action="${escapeHtml(target.action)}" id="email-form">
${hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" value="${escapeHtml(options.email ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
${options.signup === false ? "" : `<label class="muted"><input type="checkbox" name="intent" value="signup"> Create a new account with this email (we email you a code)</label>`}
${options.passkeys ? `<label class="muted"><input type="checkbox" name="add_passkey" value="1"> Add a passkey to this account after signing in</label>` : ""}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="muted">${escapeHtml(target.note)}</p>`,
    options.passkeys ? PASSKEY_SIGN_IN_SCRIPT : "",
  );
}

/** The authorize page's sign-in and consent form. */
export function renderAuthorizeForm(nonce: string, request: AuthorizeRequest, csrfToken: string, options: SignInOptions = {}): string {
  const target: SignInFormTarget = {
    action: "/oauth/authorize",
    fields: { ...request.params },
    appName: request.client.name,
    note: `You will be returned to ${new URL(request.params.redirect_uri).origin}.`,
  };
  return renderSignInForm(nonce, target, csrfToken, options);
}

/**
 * The mailbox step: "we sent a code to p•••@example.com". The form posts the challenge id with the
 * code (`otp`) and the same authorize parameters; Approve finishes the sign-in once the code is right.
 */
export function renderCodeForm(
  nonce: string,
  request: AuthorizeRequest,
  csrfToken: string,
  options: { challenge: string; sentTo: string; reason: string; error?: string; devMailbox?: boolean },
): string {
  const app = escapeHtml(request.client.name);
  return page(
    nonce,
    "Check your email",
    `<h1>Check your email</h1>
<p id="slotgate-code-reason">${escapeHtml(options.reason)}</p>
<p>We sent a code to <strong id="slotgate-sent-to">${escapeHtml(options.sentTo)}</strong>. Enter it to continue to <strong>${app}</strong>.</p>
${errorLine(options.error)}
<form method="post" action="/oauth/authorize" id="code-form">
${hiddenFields(request, csrfToken)}
<input type="hidden" name="challenge" value="${escapeHtml(options.challenge)}">
<label for="otp">Code from the email</label>
<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{${LIMITS.otpDigits}}" maxlength="${LIMITS.otpDigits}" required autofocus>
<button type="submit" name="decision" value="approve">Continue</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>
<p class="muted">No email? Check the spam folder, or go back and start again for a new code.</p>
${options.devMailbox ? `<p class="muted" id="slotgate-dev-mailbox">DEVELOPMENT DEFAULT: this server keeps its mail in a development mailbox instead of sending it; read the code in the <a href="/developer" target="_blank" rel="noopener">developer center</a>.</p>` : ""}`,
  );
}

/**
 * "Create a passkey" after signing in: the WebAuthn options are embedded; the form posts the new
 * credential (`passkey_registration`) or, with Skip, nothing; either way the sign-in then completes.
 */
export function renderPasskeyRegistration(nonce: string, request: AuthorizeRequest, csrfToken: string, options: { flow: string; creation: unknown; error?: string }): string {
  return page(
    nonce,
    "Create a passkey",
    `<h1>Create a passkey</h1>
<p>Next time, sign in to ${BRAND.name} with your fingerprint, face or screen lock instead of a password.</p>
${errorLine(options.error)}
<form method="post" action="/oauth/authorize" id="passkey-register-form">
${hiddenFields(request, csrfToken)}
<input type="hidden" name="passkey_flow" value="${escapeHtml(options.flow)}">
<input type="hidden" name="passkey_registration" id="passkey_registration">
<button type="button" id="passkey-create">Create a passkey</button>
<button type="submit" name="passkey_skip" value="1">Skip</button>
<p class="error" role="alert" id="passkey-error"></p>
</form>
<script type="application/json" id="passkey-options">${jsonForScript(options.creation)}</script>`,
    PASSKEY_REGISTER_SCRIPT,
  );
}

/**
 * The identity provider vouched for no email address: ask for one (the mailbox step follows).
 */
export function renderEmailForm(nonce: string, request: AuthorizeRequest, csrfToken: string, options: { flow: string; provider: string; error?: string }): string {
  return page(
    nonce,
    "Your email address",
    `<h1>Your email address</h1>
<p>${escapeHtml(options.provider)} did not share a verified email address. ${BRAND.name} needs one to keep your account recoverable: we will email you a code.</p>
${errorLine(options.error)}
<form method="post" action="/oauth/authorize" id="idp-email-form">
${hiddenFields(request, csrfToken)}
<input type="hidden" name="idp_flow" value="${escapeHtml(options.flow)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit" name="decision" value="approve">Send the code</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`,
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
export function renderPopupResult(nonce: string, redirectUri: string, type: "success" | "fail", data: string, state: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${BRAND.name}</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>
<body>
<p id="slotgate-status">${type === "success" ? "Signed in. You can close this window." : "Sign-in was not completed. You can close this window."}</p>
<script type="application/json" id="slotgate-result">${jsonForScript(popupResultPayload(redirectUri, type, data, state))}</script>
<script nonce="${nonce}">
${POPUP_RESULT_SCRIPT}
</script>
</body></html>`;
}
