import { randomBytes } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Request, Response } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { findEndUserById } from "../../identity/users/end-users-store.js";
import { insertFlow, takeFlow } from "./sign-in-flows-store.js";
import { csrfMatches } from "./csrf.js";
import { deliverApproval } from "./deliver.js";
import { browserBinding } from "./mailbox-step.js";
import type { AuthorizeRequest } from "./params.js";
import type { AuthorizeViews } from "./views.js";
import { shown } from "../../platform/i18n/translator.js";

/** How long a passkey ceremony may take. */
const CEREMONY_SECONDS = 5 * 60;
/** Largest WebAuthn response accepted (JSON text). */
const MAX_RESPONSE = 16 * 1024;

const newFlowId = () => randomBytes(24).toString("base64url");

function parseCredential<T>(text: string): T | null {
  if (text.length === 0 || text.length > MAX_RESPONSE) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as T) : null;
  } catch {
    return null;
  }
}

/**
 * `POST /oauth/authorize/passkey`: a sign-in challenge for the page's "Sign in with a passkey" button
 * (JSON `{ success, flow, options }`). The form's CSRF token must match its cookie; the challenge is
 * bound to this browser, single use, five minutes.
 */
export async function passkeyChallenge(services: Services, req: Request, res: Response): Promise<void> {
  if (!services.passkeys.enabled)
    throw new SlotgateServerError("not_found", { message: "Passkeys need a domain name origin (PUBLIC_URL); this server runs on an IP address." });
  if (!csrfMatches(req, (req.body as Record<string, unknown>)["csrf_token"])) throw new SlotgateServerError("csrf_failed");
  const options = await services.passkeys.authenticationOptions();
  const flow = newFlowId();
  await insertFlow(services.db, {
    id: flow,
    kind: "passkey_login",
    binding: browserBinding(req),
    payload: { challenge: options.challenge },
    lifetimeSeconds: CEREMONY_SECONDS,
  });
  res.setHeader("Cache-Control", "no-store");
  res.json({ success: true, flow, options });
}

/** The page posted a signed challenge: the passkey's account signs in. 401 page when it does not verify. */
export async function passkeySignIn(
  services: Services,
  req: Request,
  views: AuthorizeViews,
  fields: { flow: string; response: string },
): Promise<string | null> {
  const taken = /^[A-Za-z0-9_-]{32}$/.test(fields.flow) ? await takeFlow(services.db, fields.flow, "passkey_login") : null;
  const response = parseCredential<AuthenticationResponseJSON>(fields.response);
  const userId =
    taken && taken.binding === browserBinding(req) && response ? await services.passkeys.authenticate(String(taken.payload["challenge"]), response) : null;
  if (!userId) {
    views.signIn(401, { error: shown("error.passkeyNotVerified") });
    return null;
  }
  return userId;
}

/** After a sign-in that asked for it: the "Create a passkey" page for the user (bound to this browser). */
export async function offerPasskey(services: Services, req: Request, views: AuthorizeViews, userId: string): Promise<void> {
  const user = await findEndUserById(services.db, userId);
  if (!user) throw new SlotgateServerError("invalid_request");
  const creation = await services.passkeys.registrationOptions(user);
  const flow = newFlowId();
  await insertFlow(services.db, {
    id: flow,
    kind: "passkey_register",
    binding: browserBinding(req),
    payload: { challenge: creation.challenge, user_id: userId },
    lifetimeSeconds: CEREMONY_SECONDS,
  });
  views.passkey(200, { flow, creation });
}

/**
 * The "Create a passkey" page posted: with `passkey_registration` the credential is verified and
 * stored; with Skip nothing is stored. Either way the signed-in user (whom the flow names) is
 * approved. A credential that does not verify shows the page again.
 */
export async function completePasskeyRegistration(
  services: Services,
  req: Request,
  res: Response,
  request: AuthorizeRequest,
  views: AuthorizeViews,
  fields: { flow: string; registration: string; skip: boolean },
): Promise<void> {
  const taken = /^[A-Za-z0-9_-]{32}$/.test(fields.flow) ? await takeFlow(services.db, fields.flow, "passkey_register") : null;
  if (!taken || taken.binding !== browserBinding(req)) {
    return views.signIn(400, { error: shown("error.stepExpired") });
  }
  const userId = String(taken.payload["user_id"]);
  if (!fields.skip) {
    const response = parseCredential<RegistrationResponseJSON>(fields.registration);
    const stored = response ? await services.passkeys.register(userId, String(taken.payload["challenge"]), response) : false;
    if (!stored) {
      const user = await findEndUserById(services.db, userId);
      const creation = await services.passkeys.registrationOptions(user!);
      const flow = newFlowId();
      await insertFlow(services.db, {
        id: flow,
        kind: "passkey_register",
        binding: taken.binding,
        payload: { challenge: creation.challenge, user_id: userId },
        lifetimeSeconds: CEREMONY_SECONDS,
      });
      return views.passkey(400, { flow, creation, error: shown("error.passkeyNotRegistered") });
    }
  }
  await deliverApproval(services, res, request, userId);
}
