import type { Response } from "express";
import type { Services } from "../../platform/app/services.js";
import { sendHtml } from "../../platform/http/html.js";
import { isPublicClient } from "../clients/client-auth.js";
import { issueCode } from "../token/authorization-code.js";
import { setBrowserSession } from "./browser-session.js";
import { negotiateLocale, type Translator, translator } from "../../platform/i18n/translator.js";
import { renderPopupResult } from "./pages.js";
import { type AuthorizeRequest, withQuery } from "./params.js";

const DENIAL_DESCRIPTION = "The user denied the authorization request.";

/**
 * Ends an approved authorize request for the signed-in user, however they signed in: page mode
 * redirects with `code` and `state` (no `state` when the request had none: PKCE S256 stood in for it),
 * a public client's loopback redirect included (its code bound to the PKCE challenge); loopback mode
 * redirects a confidential client's loopback URI with the user JWT; popup mode answers
 * the result page that posts the JWT to the opener. A web client's approval (page or popup mode) also starts the
 * browser session that silent renewal (`prompt=none`) reads.
 */
export async function deliverApproval(services: Services, res: Response, request: AuthorizeRequest, userId: string): Promise<void> {
  const { params, client, mode } = request;
  if (!isPublicClient(client) && mode !== "loopback") setBrowserSession(services, res, client.client_id, userId);
  if (mode === "page") {
    const code = await issueCode(services, "oauth", {
      clientId: client.client_id,
      userId,
      redirectUri: params.redirect_uri,
      codeChallenge: params.code_challenge ?? null,
    });
    res.setHeader("Cache-Control", "no-store");
    res.redirect(302, withQuery(params.redirect_uri, { code, state: params.state }));
    return;
  }
  const jwt = await services.tokens.signUserJwt(userId, client.client_id);
  if (mode === "loopback") {
    res.setHeader("Cache-Control", "no-store");
    res.redirect(302, withQuery(params.redirect_uri, { jwt: jwt.token, state: params.state }));
    return;
  }
  sendHtml(res, 200, (nonce) => renderPopupResult(nonce, pageLanguage(res, request), params.redirect_uri, "success", jwt.token, popupState(request)));
}

/** Ends a denied authorize request: `error=access_denied` to the redirect URI, or a `fail` popup result. */
export function deliverDenial(res: Response, request: AuthorizeRequest): void {
  const { params, mode } = request;
  if (mode === "popup") {
    sendHtml(res, 200, (nonce) => renderPopupResult(nonce, pageLanguage(res, request), params.redirect_uri, "fail", "access_denied", popupState(request)));
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  res.redirect(302, withQuery(params.redirect_uri, { error: "access_denied", error_description: DENIAL_DESCRIPTION, state: params.state }));
}

/** The language of the request's pages: its `ui_locales`, then the browser's `Accept-Language`, then English. */
export function pageLanguage(res: Response, request: AuthorizeRequest): Translator {
  return translator(negotiateLocale(request.params.ui_locales, res.req));
}

/** The popup mode always has a `state`: validateAuthorize refuses a popup request without one (PKCE does not guard a JWT). */
function popupState(request: AuthorizeRequest): string {
  return request.params.state ?? "";
}
