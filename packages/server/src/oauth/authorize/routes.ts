import { PATHS } from "@slotgate/protocol";
import { browserLogoutSchema, devUserCredentialsSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { formOrJsonBody, parseInput, singleValued } from "../../platform/http/input.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { serviceRateLimit } from "../../platform/http/rate-limit.js";
import { findEndUserByEmail } from "../../identity/users/end-users-store.js";
import { dummyPasswordHash, hashPassword, verifyPassword } from "../../identity/users/passwords.js";
import { passwordAttempt } from "../../identity/users/sign-in-backoff.js";
import { clearBrowserSession } from "./browser-session.js";
import { csrfMatches } from "./csrf.js";
import { deliverApproval, deliverDenial } from "./deliver.js";
import { completePasskeyRegistration, passkeyChallenge, passkeySignIn } from "./passkey-sign-in.js";
import { finishSignIn } from "./finish.js";
import { askForCode, completeCode, type PendingSignIn } from "./mailbox-step.js";
import { startUpstream, upstreamCallback, upstreamEmail } from "./upstream-sign-in.js";
import { type AuthorizeRequest, validateAuthorize } from "./params.js";
import { silentRenewal } from "./silent-renewal.js";
import { consentDecision, formField, throttled } from "./sign-in.js";
import { authorizeViews, type AuthorizeViews } from "./views.js";
import { shown } from "../../platform/i18n/translator.js";

/**
 * `GET /oauth/authorize` and `POST /oauth/authorize`: end-user sign-in / sign-up and consent.
 *
 * One form endpoint serves every way in, told apart by the submitted fields: `challenge` + `otp`
 * (the mailbox step), `provider` (an upstream identity provider), `passkey_flow` (a passkey sign-in, or
 * the "Create a passkey" step after signing in), `idp_flow` (the email a provider did not vouch for),
 * else `email` + `password` (with `intent=signup` to create an account, which first mails a code).
 */
export function authorizeRoutes(services: Services): Router {
  const router = Router();
  const signInLimit = serviceRateLimit(services, "sign-in", services.config.rateLimit.signInPerMinute);

  router.get("/oauth/authorize", async (req: Request, res: Response) => {
    const request = await validateAuthorize(services, req.query);
    if (request.params.prompt === "none") return silentRenewal(services, req, res, request);
    authorizeViews(services, req, res, request).signIn(200);
  });

  // The client SDK's logout(): ends this browser's service session for the client (whether one existed or not).
  router.post(PATHS.browserLogout, formOrJsonBody, (req: Request, res: Response) => {
    const { client_id } = parseInput(browserLogoutSchema, singleValued(req.body ?? {}, ["client_id"]));
    clearBrowserSession(services, res, client_id);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true });
  });

  router.post(PATHS.passkeyOptions, signInLimit, formOrJsonBody, async (req: Request, res: Response) => {
    await passkeyChallenge(services, req, res);
  });

  router.get(PATHS.identityProviderCallback, async (req: Request, res: Response) => {
    await upstreamCallback(services, req, res);
  });

  router.post("/oauth/authorize", signInLimit, formOrJsonBody, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const request = await validateAuthorize(services, body);
    if (!csrfMatches(req, body["csrf_token"])) throw new SlotgateServerError("csrf_failed");
    // Choosing an identity provider or a passkey is the approval; the email form says it with its buttons.
    const decision = formField(body, "provider") || formField(body, "passkey_flow") ? "approve" : consentDecision(body);
    if (decision === "deny") return deliverDenial(res, request);
    const views = authorizeViews(services, req, res, request);
    const pending: PendingSignIn = formField(body, "add_passkey") === "1" ? { add_passkey: true } : {};

    if (formField(body, "challenge")) {
      const done = await completeCode(services, req, views, { challenge: formField(body, "challenge"), otp: formField(body, "otp").trim() });
      if (done) await finishSignIn(services, req, res, request, views, done.userId, done.pending);
      return;
    }
    if (formField(body, "passkey_flow") && (formField(body, "passkey_registration") || formField(body, "passkey_skip"))) {
      return completePasskeyRegistration(services, req, res, request, views, {
        flow: formField(body, "passkey_flow"),
        registration: formField(body, "passkey_registration"),
        skip: formField(body, "passkey_skip") === "1",
      });
    }
    if (formField(body, "passkey_flow")) {
      const userId = await passkeySignIn(services, req, views, { flow: formField(body, "passkey_flow"), response: formField(body, "passkey_response") });
      if (userId) await deliverApproval(services, res, request, userId);
      return;
    }
    if (formField(body, "provider")) return startUpstream(services, req, res, request, views, formField(body, "provider"), pending);
    if (formField(body, "idp_flow")) return upstreamEmail(services, req, views, formField(body, "idp_flow"), formField(body, "email"));
    await passwordSignIn(services, req, res, request, views, body, pending);
  });
  return router;
}

/** Email and password: sign-up mails a code first; an account whose mailbox is not verified is asked for one. */
async function passwordSignIn(
  services: Services,
  req: Request,
  res: Response,
  request: AuthorizeRequest,
  views: AuthorizeViews,
  body: Record<string, unknown>,
  pending: PendingSignIn,
): Promise<void> {
  const email = formField(body, "email").trim().toLowerCase();
  const password = formField(body, "password");
  const creds = devUserCredentialsSchema.safeParse({ email, password });
  if (formField(body, "intent") === "signup") {
    if (!creds.success) return views.signIn(400, { error: shown("error.signUpFields"), email });
    const existing = await findEndUserByEmail(services.db, email);
    if (existing?.email_verified_at) return views.signIn(409, { error: shown("error.accountExists"), email });
    const passwordHash = await hashPassword(password, services.scrypt);
    return askForCode(services, req, views, { purpose: "signup", email, userId: null, pending: { ...pending, password_hash: passwordHash } });
  }
  const found = creds.success ? await findEndUserByEmail(services.db, email) : null;
  const verify = async () =>
    (await verifyPassword(password, found?.password_hash ?? (await dummyPasswordHash(services.scrypt)))) && Boolean(found?.password_hash);
  // Per-account backoff (docs/decisions/brute-force.md); a malformed email matches no account and counts nothing.
  const attempt = creds.success ? await passwordAttempt(services, "end_user", email, verify) : { checked: true as const, ok: await verify() };
  if (!attempt.checked) return views.signIn(429, { error: throttled(attempt), email }, { "Retry-After": String(attempt.retryAfterSeconds) });
  if (!found?.password_hash || !attempt.ok) return views.signIn(401, { error: shown("error.invalid_credentials"), email });
  if (!found.email_verified_at) return askForCode(services, req, views, { purpose: "verify", email, userId: found.id, pending });
  await finishSignIn(services, req, res, request, views, found.id, pending);
}
