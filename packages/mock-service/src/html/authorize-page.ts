import { type ErrorCode, ERRORS } from "@slotgate/protocol";
import { escapeHtml, htmlPage } from "./escape.js";

/** The authorize parameters carried through the form as hidden inputs. */
export const AUTHORIZE_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "display",
  "prompt",
  "code_challenge",
  "code_challenge_method",
] as const;

/** The CSRF field, the sign-in fields and the consent buttons (stable names: email, password, intent, decision). */
export function signInControls(args: { csrfToken: string; email?: string }): string {
  return `<input type="hidden" name="csrf_token" value="${escapeHtml(args.csrfToken)}">
      <label>Email <input type="email" name="email" autocomplete="username" value="${escapeHtml(args.email ?? "")}"></label>
      <label>Password <input type="password" name="password" autocomplete="current-password"></label>
      <label><input type="checkbox" name="intent" value="signup"> Create an account</label>
      <button type="submit" name="decision" value="approve">Allow</button>
      <button type="submit" name="decision" value="deny">Deny</button>`;
}

/** The authorize parameters as hidden inputs. */
function hiddenParams(params: Record<string, string | undefined>): string {
  return AUTHORIZE_PARAMS.filter((name) => params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name] ?? "")}">`)
    .join("\n      ");
}

function errorLine(code: ErrorCode | undefined): string {
  return code ? `<p class="error" role="alert" data-error="${code}">${escapeHtml(ERRORS[code].message)} (${code})</p>` : "";
}

/** The mailbox step: the code mailed at sign-up goes into `otp`, with the `challenge` id. */
export function codePage(args: {
  params: Record<string, string | undefined>;
  csrfToken: string;
  clientName: string;
  challenge: string;
  sentTo: string;
  error?: ErrorCode;
}): string {
  return htmlPage(
    `Check your email — Slotgate`,
    `
    <h1>Check your email</h1>
    <p>We sent a code to ${escapeHtml(args.sentTo)}. Enter it to continue to ${escapeHtml(args.clientName)}.</p>
    ${errorLine(args.error)}
    <form method="post" action="/oauth/authorize">
      ${hiddenParams(args.params)}
      <input type="hidden" name="csrf_token" value="${escapeHtml(args.csrfToken)}">
      <input type="hidden" name="challenge" value="${escapeHtml(args.challenge)}">
      <label>Code <input type="text" name="otp" inputmode="numeric" autocomplete="one-time-code"></label>
      <button type="submit" name="decision" value="approve">Continue</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </form>
`,
  );
}

/** The login / consent page of `GET /oauth/authorize`. */
export function authorizePage(args: {
  params: Record<string, string | undefined>;
  csrfToken: string;
  clientName: string;
  error?: ErrorCode;
  email?: string;
}): string {
  const hidden = hiddenParams(args.params);
  const error = errorLine(args.error);
  return htmlPage(
    `Sign in to ${args.clientName} — Slotgate`,
    `
    <h1>Sign in to continue to ${escapeHtml(args.clientName)}</h1>
    ${error}
    <form method="post" action="/oauth/authorize">
      ${hidden}
      ${signInControls(args)}
    </form>
`,
  );
}

/** An error page (same status as the JSON error) naming the error code. */
export function errorPage(code: ErrorCode): string {
  return htmlPage(
    `Slotgate — ${code}`,
    `
    <h1>This sign-in link cannot be used</h1>
    <p class="error" role="alert" data-error="${code}">${escapeHtml(ERRORS[code].message)}</p>
    <p>Error code: <code>${code}</code></p>
`,
  );
}
