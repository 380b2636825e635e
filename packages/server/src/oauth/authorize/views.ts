import type { Request, Response } from "express";
import type { Services } from "../../platform/app/services.js";
import { sendHtml } from "../../platform/http/html.js";
import type { SlotgateServerError } from "../../platform/http/errors.js";
import type { Shown } from "../../platform/i18n/translator.js";
import { issueCsrfToken } from "./csrf.js";
import { pageLanguage } from "./deliver.js";
import { requestBrand, renderAuthorizeForm, renderCodeForm, renderEmailForm, renderPasskeyRegistration, type SignInOptions } from "./pages.js";
import type { AuthorizeRequest } from "./params.js";

/** The pages of one authorize request, each with a fresh CSRF cookie and the redirect origin allowed as form action. */
export interface AuthorizeViews {
  /** The sign-in page (identity providers and passkeys as configured). */
  signIn(status: number, options?: Pick<SignInOptions, "error" | "email">, headers?: Record<string, string>): void;
  /** The "check your email" page of a mailed challenge. */
  code(status: number, options: { challenge: string; sentTo: string | Shown; reason: Shown; error?: Shown | SlotgateServerError }): void;
  /** "Your email address" after an identity provider that vouched for none. */
  email(status: number, options: { flow: string; provider: string | undefined; error?: Shown }): void;
  /** "Create a passkey" after signing in. */
  passkey(status: number, options: { flow: string; creation: unknown; error?: Shown }): void;
}

/** Renders the pages of `request` on `res`. */
export function authorizeViews(services: Services, req: Request, res: Response, request: AuthorizeRequest): AuthorizeViews {
  const secure = services.issuer.startsWith("https:");
  const formAction = [new URL(request.params.redirect_uri).origin];
  const tr = pageLanguage(res, request);
  // The client's logo is served from this origin: the only image source the pages allow.
  const imagesSelf = requestBrand(request).logoUrl !== undefined;
  return {
    signIn(status, options = {}, headers = {}) {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      const csrf = issueCsrfToken(req, res, secure);
      const providers = services.config.identityProviders.map((p) => ({ id: p.id, name: p.name }));
      // "Continue with …" posts here and is redirected to the provider: CSP form-action covers redirects.
      const upstream = services.config.identityProviders.map((p) => new URL(p.issuer).origin);
      sendHtml(res, status, (nonce) => renderAuthorizeForm(nonce, tr, request, csrf, { ...options, providers, passkeys: services.passkeys.enabled }), {
        formAction: [...new Set([...formAction, ...upstream])],
        connectSelf: true,
        imagesSelf,
      });
    },
    passkey(status, options) {
      const csrf = issueCsrfToken(req, res, secure);
      sendHtml(res, status, (nonce) => renderPasskeyRegistration(nonce, tr, request, csrf, options), { formAction, imagesSelf });
    },
    code(status, options) {
      const csrf = issueCsrfToken(req, res, secure);
      sendHtml(res, status, (nonce) => renderCodeForm(nonce, tr, request, csrf, { ...options, devMailbox: services.mailer.kind === "development" }), {
        formAction,
        imagesSelf,
      });
    },
    email(status, options) {
      const csrf = issueCsrfToken(req, res, secure);
      sendHtml(res, status, (nonce) => renderEmailForm(nonce, tr, request, csrf, options), { formAction, imagesSelf });
    },
  };
}
