import { type ErrorCode, ERRORS } from "@slotgate/protocol";
import { escapeHtml } from "./escape.js";

/** The authorize parameters carried through the form as hidden inputs. */
export const AUTHORIZE_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "display",
  "code_challenge",
  "code_challenge_method",
] as const;

/** The login / consent page of `GET /oauth/authorize`. */
export function authorizePage(args: {
  params: Record<string, string | undefined>;
  csrfToken: string;
  clientName: string;
  error?: ErrorCode;
  email?: string;
}): string {
  const hidden = AUTHORIZE_PARAMS.filter((name) => args.params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(args.params[name] ?? "")}">`)
    .join("\n      ");
  const error = args.error
    ? `<p class="error" role="alert" data-error="${args.error}">${escapeHtml(ERRORS[args.error].message)} (${args.error})</p>`
    : "";
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in to ${escapeHtml(args.clientName)} — Slotgate</title></head>
<body>
  <main>
    <h1>Sign in to continue to ${escapeHtml(args.clientName)}</h1>
    ${error}
    <form method="post" action="/oauth/authorize">
      ${hidden}
      <input type="hidden" name="csrf_token" value="${escapeHtml(args.csrfToken)}">
      <label>Email <input type="email" name="email" autocomplete="username" value="${escapeHtml(args.email ?? "")}"></label>
      <label>Password <input type="password" name="password" autocomplete="current-password"></label>
      <label><input type="checkbox" name="intent" value="signup"> Create an account</label>
      <button type="submit" name="decision" value="approve">Allow</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </form>
  </main>
</body>
</html>`;
}

/** An error page (same status as the JSON error) naming the error code. */
export function errorPage(code: ErrorCode): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Slotgate — ${code}</title></head>
<body>
  <main>
    <h1>This sign-in link cannot be used</h1>
    <p class="error" role="alert" data-error="${code}">${escapeHtml(ERRORS[code].message)}</p>
    <p>Error code: <code>${code}</code></p>
  </main>
</body>
</html>`;
}
