import { type ErrorCode, LIMITS, loopbackJwtRedirect } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { authorizeQuerySchema, authorizeStateRequired, devUserCredentialsSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { browserLogoutHandler, silentRenewal, startBrowserSession } from "../browser-session.js";
import { activeClient, isPublicClient, requireClient, requireRegisteredRedirectUri } from "../clients.js";
import { issueCode } from "../codes.js";
import { type MockContext, endpointUrl } from "../context.js";
import { queryRecord, readParams, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { errorResponse } from "../http/respond.js";
import { AUTHORIZE_PARAMS, authorizePage, codePage, errorPage } from "../html/authorize-page.js";
import { html } from "../html/escape.js";
import { popupResultPage } from "../html/popup-result.js";
import { hashPassword } from "../passwords.js";
import { randomBase64url, randomHex, safeEqual } from "../random.js";
import type { ClientRecord, EndUserRecord } from "../state.js";
import { CSRF_COOKIE, checkCsrf, signInOrSignUp } from "../sign-in.js";
import { issueUserJwt } from "../tokens.js";

const REQUIRED = ["client_id", "redirect_uri", "response_type"] as const;

type AuthorizeParams = Record<(typeof AUTHORIZE_PARAMS)[number], string | undefined>;

function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").toLowerCase().includes("text/html");
}

function pick(record: Record<string, unknown>): AuthorizeParams {
  const out = {} as AuthorizeParams;
  for (const name of AUTHORIZE_PARAMS) {
    const value = record[name];
    out[name] = typeof value === "string" ? value : undefined;
  }
  return out;
}

/**
 * Whether the request ends in the loopback redirect with the user JWT: a confidential desktop or game client's
 * `http://127.0.0.1:{port}/callback` (spec 4.14). A web client's URI of that shape gets a code or the popup result.
 */
function jwtRedirect(client: ClientRecord | undefined, params: AuthorizeParams): boolean {
  return client !== undefined && loopbackJwtRedirect(client, params.redirect_uri ?? "");
}

/** The contract's checks of the authorize parameters, in order. */
function checkParams(ctx: MockContext, params: AuthorizeParams): ClientRecord {
  // `state` may be left out only when PKCE S256 guards a code redirect (the server's rule, one copy in the protocol).
  const missing: string[] = REQUIRED.filter((name) => !params[name]);
  const known = params.client_id ? activeClient(ctx, params.client_id) : undefined;
  if (!params.state && authorizeStateRequired(params, jwtRedirect(known, params))) missing.push("state");
  if (missing.length > 0) {
    throw new HttpError("ERR_MISSING_PARAMS", { message: `The login URL lacks ${missing.join(", ")}.` });
  }
  const client = requireClient(ctx, params.client_id!);
  requireRegisteredRedirectUri(ctx, client, params.redirect_uri!);
  if (params.response_type !== "code") throw new HttpError("unsupported_response_type");
  const defined = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== ""));
  validate(authorizeQuerySchema, defined);
  if (params.code_challenge && params.code_challenge_method !== "S256") {
    throw new HttpError("invalid_request", {
      message: "Invalid request: code_challenge_method must be S256 when code_challenge is sent",
      details: [{ path: "code_challenge_method", message: "must be S256" }],
    });
  }
  if (isPublicClient(client) && !params.code_challenge) {
    throw new HttpError("invalid_request", {
      message:
        "Invalid request: this client is public (no secret), so it must send PKCE: code_challenge = BASE64URL(SHA-256(code_verifier)) with code_challenge_method=S256 (RFC 7636), and the code_verifier when it redeems the code",
      details: [{ path: "code_challenge", message: "is required for a public client (PKCE S256)" }],
    });
  }
  if (params.prompt === "none" && (isPublicClient(client) || params.display !== "popup" || jwtRedirect(client, params))) {
    throw new HttpError("invalid_request", {
      message: "Invalid request: prompt=none (silent renewal) needs display=popup and a web client's redirect URI; the result is posted to the parent window",
      details: [{ path: "prompt", message: "needs display=popup and a confidential client's redirect URI other than a desktop or game loopback URI" }],
    });
  }
  return client;
}

function failure(request: Request, error: unknown): Response {
  const httpError = error instanceof HttpError ? error : new HttpError("internal_error");
  if (wantsHtml(request)) return html(errorPage(httpError.code), errorStatus(httpError));
  return errorResponse(httpError);
}

function errorStatus(error: HttpError): number {
  return errorResponse(error).status;
}

function withQuery(uri: string, query: Record<string, string | undefined>): string {
  const defined = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined);
  return `${uri}${uri.includes("?") ? "&" : "?"}${new URLSearchParams(defined).toString()}`;
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store", ...headers } });
}

function formAgain(args: { params: AuthorizeParams; csrf: string; client: ClientRecord; error: ErrorCode; email?: string; status: number }): Response {
  return html(
    authorizePage({ params: args.params, csrfToken: args.csrf, clientName: args.client.name, error: args.error, ...(args.email ? { email: args.email } : {}) }),
    args.status,
  );
}

async function outcome(ctx: MockContext, params: AuthorizeParams, client: ClientRecord, user: EndUserRecord | null): Promise<Response> {
  const redirectUri = params.redirect_uri!;
  const loopbackJwt = jwtRedirect(client, params);
  // A web client's approval (page or popup) starts the browser session silent renewal reads; a public client's does not.
  const session: Record<string, string> = user && !isPublicClient(client) && !loopbackJwt ? startBrowserSession(ctx, client.client_id, user.user_id) : {};
  // Absent only on a PKCE S256 code redirect: the answer then carries no `state` at all.
  const state = params.state || undefined;
  const denied = { error: "access_denied", error_description: "The user denied the authorization request.", state };
  if (params.display === "popup" && !loopbackJwt && !isPublicClient(client)) {
    const data = user ? await issueUserJwt(ctx, user.user_id, params.client_id!) : "access_denied";
    const targetOrigin = ctx.faults.popupWildcardOrigin ? "*" : new URL(redirectUri).origin;
    return html(popupResultPage({ targetOrigin, redirectUri, type: user ? "success" : "fail", data, state: state ?? "" }), 200, session);
  }
  if (!user) return redirect(withQuery(redirectUri, denied));
  if (loopbackJwt) {
    return redirect(withQuery(redirectUri, { jwt: await issueUserJwt(ctx, user.user_id, params.client_id!), state }));
  }
  const code = issueCode(ctx, {
    client_id: params.client_id!,
    redirect_uri: redirectUri,
    user_id: user.user_id,
    ...(params.code_challenge !== undefined ? { code_challenge: params.code_challenge } : {}),
  });
  return redirect(withQuery(redirectUri, { code: code.code, state }), session);
}

/** Sign-up: mails a one-time code (kept in `state.mails`) and answers the code page; nothing is created yet. */
async function startSignup(ctx: MockContext, params: AuthorizeParams, client: ClientRecord, csrf: string, form: Record<string, unknown>): Promise<Response> {
  const email = typeof form["email"] === "string" ? form["email"].toLowerCase() : "";
  const password = typeof form["password"] === "string" ? form["password"] : "";
  if (!devUserCredentialsSchema.safeParse({ email, password }).success)
    return formAgain({ params, csrf, client, error: "invalid_request", email, status: 400 });
  if (ctx.state.findEndUserByEmail(email)) return formAgain({ params, csrf, client, error: "email_taken", email, status: 409 });
  const challenge = randomBase64url(24);
  const code = String(Number.parseInt(randomHex(4), 16) % 10 ** LIMITS.otpDigits).padStart(LIMITS.otpDigits, "0");
  ctx.state.signupChallenges.set(challenge, {
    email,
    password: await hashPassword(password),
    code,
    binding: csrf,
    attempts: 0,
    used: false,
    expiresAt: ctx.now() + LIMITS.otpLifetimeSeconds * 1000,
  });
  ctx.state.mails.push({ to: email, subject: "Confirm your email for Slotgate", text: `Your Slotgate sign-up code is ${code}\n` });
  return html(codePage({ params, csrfToken: csrf, clientName: client.name, challenge, sentTo: email }), 200);
}

/** The code page posted: single use, 5 entries, this browser only; the right code creates the account. */
async function mailboxStep(ctx: MockContext, params: AuthorizeParams, client: ClientRecord, csrf: string, form: Record<string, unknown>): Promise<Response> {
  const id = String(form["challenge"]);
  const otp = typeof form["otp"] === "string" ? form["otp"].trim() : "";
  const pending = ctx.state.signupChallenges.get(id);
  if (!pending || pending.used || pending.expiresAt < ctx.now() || !safeEqual(pending.binding, csrf))
    return formAgain({ params, csrf, client, error: "otp_expired", status: 400 });
  pending.attempts += 1;
  if (pending.attempts > LIMITS.otpMaxAttempts) return formAgain({ params, csrf, client, error: "otp_locked", status: 423 });
  if (!safeEqual(pending.code, otp)) {
    if (pending.attempts >= LIMITS.otpMaxAttempts) return formAgain({ params, csrf, client, error: "otp_locked", status: 423 });
    return html(codePage({ params, csrfToken: csrf, clientName: client.name, challenge: id, sentTo: pending.email, error: "otp_invalid" }), 401);
  }
  pending.used = true;
  if (ctx.state.findEndUserByEmail(pending.email)) return formAgain({ params, csrf, client, error: "email_taken", email: pending.email, status: 409 });
  const user: EndUserRecord = {
    user_id: ctx.state.allocateUserId(),
    email: pending.email,
    nickname: pending.email.split("@")[0] ?? pending.email,
    password: pending.password,
  };
  ctx.state.endUsers.set(user.user_id, user);
  return outcome(ctx, params, client, user);
}

/** `GET` and `POST /oauth/authorize`: login / consent page, page redirect, loopback redirect and popup result. */
export function authorizeHandlers(ctx: MockContext) {
  const url = endpointUrl(ctx, ENDPOINTS.authorize);
  return [
    browserLogoutHandler(ctx),
    http.get(url, async ({ request }) => {
      await ctx.ready();
      const params = pick(queryRecord(new URL(request.url)));
      let client: ClientRecord;
      try {
        client = checkParams(ctx, params);
      } catch (error) {
        return failure(request, error);
      }
      if (params.prompt === "none") return silentRenewal(ctx, request, params, client);
      const csrf = randomBase64url(24);
      return html(authorizePage({ params, csrfToken: csrf, clientName: client.name }), 200, {
        "Set-Cookie": `${CSRF_COOKIE}=${csrf}; Path=/oauth; HttpOnly; SameSite=Lax`,
      });
    }),
    http.post(url, async ({ request }) => {
      await ctx.ready();
      let form: Record<string, unknown>;
      let params: AuthorizeParams;
      let client: ClientRecord;
      try {
        form = await readParams(request, ctx.bodyLimit);
        params = pick(form);
        client = checkParams(ctx, params);
        checkCsrf(ctx, request, form);
        if (form["decision"] !== "approve" && form["decision"] !== "deny") {
          throw new HttpError("invalid_request", { message: "decision must be approve or deny." });
        }
      } catch (error) {
        return failure(request, error);
      }
      if (form["decision"] === "deny") return outcome(ctx, params, client, null);
      const csrf = String(form["csrf_token"] ?? "");
      // The mailbox step, as the real service: sign-up mails a code; the account exists once it comes back.
      if (typeof form["challenge"] === "string" && form["challenge"] !== "") return mailboxStep(ctx, params, client, csrf, form);
      if (form["intent"] === "signup") return startSignup(ctx, params, client, csrf, form);
      const signedIn = await signInOrSignUp(ctx, form);
      if (!signedIn.user) return formAgain({ params, csrf, client, error: signedIn.error, email: signedIn.email, status: signedIn.status });
      const user = signedIn.user;
      return outcome(ctx, params, client, user);
    }),
  ];
}
