import { randomBytes } from "node:crypto";
import { PATHS } from "@slotgate/protocol";
import { authorizeQuerySchema, primitives } from "@slotgate/protocol/schemas";
import type { Request, Response } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { singleValued } from "../../platform/http/input.js";
import type { UpstreamIdentity } from "../../identity/identity-providers/upstream.js";
import { findEndUserByEmail, upsertVerifiedEndUser } from "../../identity/users/end-users-store.js";
import { findLinkedUser, linkIdentity } from "../../identity/identity-providers/identity-links-store.js";
import { insertFlow, takeFlow } from "./sign-in-flows-store.js";
import { deliverDenial } from "./deliver.js";
import { finishSignIn } from "./finish.js";
import { askForCode, browserBinding, type PendingSignIn } from "./mailbox-step.js";
import { type AuthorizeRequest, validateAuthorize } from "./params.js";
import { authorizeViews, type AuthorizeViews } from "./views.js";
import { shown } from "../../platform/i18n/translator.js";

/** How long the browser may stay at the identity provider. */
const FLOW_SECONDS = 10 * 60;

/** Payload of an `oidc` flow: everything needed when the browser comes back. */
interface UpstreamFlow {
  provider_id: string;
  params: Record<string, string>;
  nonce: string;
  code_verifier: string;
  pending: PendingSignIn;
}

/** Payload of an `oidc_email` flow: the identity waiting for a mailbox. */
interface EmailFlow {
  identity: UpstreamIdentity;
  params: Record<string, string>;
  pending: PendingSignIn;
}

/** "Continue with {provider}": stores the flow under its `state` and sends the browser to the provider (303). */
export async function startUpstream(
  services: Services,
  req: Request,
  res: Response,
  request: AuthorizeRequest,
  views: AuthorizeViews,
  providerId: string,
  pending: PendingSignIn,
): Promise<void> {
  const provider = services.identityProviders.get(providerId);
  if (!provider) {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: provider is not a configured identity provider",
      details: [{ path: "provider", message: "unknown identity provider" }],
    });
  }
  const checks = await services.identityProviders.newChecks();
  let url: string;
  try {
    url = await services.identityProviders.authorizationUrl(provider, checks, services.issuer + PATHS.identityProviderCallback);
  } catch (error) {
    if (error instanceof SlotgateServerError) return views.signIn(error.status, { error });
    throw error;
  }
  const flow: UpstreamFlow = {
    provider_id: provider.id,
    params: request.params as unknown as Record<string, string>,
    nonce: checks.nonce,
    code_verifier: checks.codeVerifier,
    pending,
  };
  await insertFlow(services.db, {
    id: checks.state,
    kind: "oidc",
    binding: browserBinding(req),
    payload: flow as unknown as Record<string, unknown>,
    lifetimeSeconds: FLOW_SECONDS,
  });
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, url);
}

const expiredFlow = () =>
  new SlotgateServerError("invalid_request", {
    message: "This sign-in expired, was already completed, or was started in another browser; go back to the app and sign in again.",
  });

/**
 * `GET /oauth/idp/callback`: the provider sends the browser back. The flow is found by `state`, used
 * once, and must belong to this browser; then the code is redeemed and the identity resolved.
 */
export async function upstreamCallback(services: Services, req: Request, res: Response): Promise<void> {
  const query = singleValued(req.query, ["state", "error"]);
  const state = authorizeQuerySchema.shape.state.unwrap().safeParse(query["state"]);
  const taken = state.success ? await takeFlow(services.db, state.data, "oidc") : null;
  if (!taken || taken.binding !== browserBinding(req)) throw expiredFlow();
  const flow = taken.payload as unknown as UpstreamFlow;
  const request = await validateAuthorize(services, flow.params);
  if (query["error"] === "access_denied") return deliverDenial(res, request);
  const views = authorizeViews(services, req, res, request);
  const provider = services.identityProviders.get(flow.provider_id);
  if (!provider) throw expiredFlow();
  let identity: UpstreamIdentity;
  try {
    const callbackUrl = new URL(PATHS.identityProviderCallback + req.originalUrl.slice(req.originalUrl.indexOf("?")), services.issuer);
    identity = await services.identityProviders.complete(provider, callbackUrl, { state: state.data!, nonce: flow.nonce, codeVerifier: flow.code_verifier });
  } catch (error) {
    if (error instanceof SlotgateServerError) return views.signIn(error.status, { error });
    throw error;
  }
  const linked = await findLinkedUser(services.db, identity.issuer, identity.subject);
  if (linked) return finishSignIn(services, req, res, request, views, linked, flow.pending);
  if (!identity.verifiedEmail) {
    const id = randomBytes(24).toString("base64url");
    const emailFlow: EmailFlow = { identity, params: flow.params, pending: flow.pending };
    await insertFlow(services.db, {
      id,
      kind: "oidc_email",
      binding: browserBinding(req),
      payload: emailFlow as unknown as Record<string, unknown>,
      lifetimeSeconds: FLOW_SECONDS,
    });
    return views.email(200, { flow: id, provider: provider.name });
  }
  await linkOrCreate(services, req, res, request, views, identity, identity.verifiedEmail, flow.pending, provider.name);
}

/** The email page of a provider that vouched for no address: the mailbox step for the address typed. */
export async function upstreamEmail(services: Services, req: Request, views: AuthorizeViews, flowId: string, emailInput: string): Promise<void> {
  const taken = /^[A-Za-z0-9_-]{32}$/.test(flowId) ? await takeFlow(services.db, flowId, "oidc_email") : null;
  if (!taken || taken.binding !== browserBinding(req)) throw expiredFlow();
  const flow = taken.payload as unknown as EmailFlow;
  const provider = services.identityProviders.get(flow.identity.provider_id);
  const email = primitives.email.safeParse(emailInput.trim().toLowerCase());
  if (!email.success) {
    const id = randomBytes(24).toString("base64url");
    await insertFlow(services.db, { id, kind: "oidc_email", binding: taken.binding, payload: taken.payload, lifetimeSeconds: FLOW_SECONDS });
    return views.email(400, { flow: id, provider: provider?.name, error: shown("error.invalidEmail") });
  }
  const existing = await findEndUserByEmail(services.db, email.data);
  await askForCode(services, req, views, {
    purpose: "link",
    email: email.data,
    userId: existing?.id ?? null,
    pending: { ...flow.pending, link: { provider_id: flow.identity.provider_id, issuer: flow.identity.issuer, subject: flow.identity.subject } },
    ...(provider ? { detail: provider.name } : {}),
  });
}

/**
 * First sign-in with a provider that vouches for `email`: a new account when no account holds the
 * address; linking to an existing account needs that account's proof too (a code to its mailbox).
 */
async function linkOrCreate(
  services: Services,
  req: Request,
  res: Response,
  request: AuthorizeRequest,
  views: AuthorizeViews,
  identity: UpstreamIdentity,
  email: string,
  pending: PendingSignIn,
  providerName: string,
): Promise<void> {
  const link = { provider_id: identity.provider_id, issuer: identity.issuer, subject: identity.subject };
  const existing = await findEndUserByEmail(services.db, email);
  if (!existing) {
    const created = await upsertVerifiedEndUser(services.db, { email, passwordHash: null });
    if (created) {
      await linkIdentity(services.db, { ...link, userId: created.id });
      return finishSignIn(services, req, res, request, views, created.id, pending);
    }
  }
  await askForCode(services, req, views, { purpose: "link", email, userId: existing?.id ?? null, pending: { ...pending, link }, detail: providerName });
}
