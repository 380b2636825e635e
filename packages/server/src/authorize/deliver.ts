import type { Response } from "express";
import type { Services } from "../app/services.js";
import { sendHtml } from "../http/html.js";
import { issueCode } from "../token/codes.js";
import { renderPopupResult } from "./pages.js";
import { type AuthorizeRequest, withQuery } from "./params.js";

const DENIAL_DESCRIPTION = "The user denied the authorization request.";

/**
 * Ends an approved authorize request for the signed-in user, however they signed in: page mode
 * redirects with `code` and `state` (no `state` when the request had none: PKCE S256 stood in for it); loopback mode redirects with the user JWT; popup mode answers
 * the result page that posts the JWT to the opener.
 */
export async function deliverApproval(services: Services, res: Response, request: AuthorizeRequest, userId: string): Promise<void> {
  const { params, client, mode } = request;
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
  sendHtml(res, 200, (nonce) => renderPopupResult(nonce, params.redirect_uri, "success", jwt.token, popupState(request)));
}

/** Ends a denied authorize request: `error=access_denied` to the redirect URI, or a `fail` popup result. */
export function deliverDenial(res: Response, request: AuthorizeRequest): void {
  const { params, mode } = request;
  if (mode === "popup") {
    sendHtml(res, 200, (nonce) => renderPopupResult(nonce, params.redirect_uri, "fail", "access_denied", popupState(request)));
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  res.redirect(302, withQuery(params.redirect_uri, { error: "access_denied", error_description: DENIAL_DESCRIPTION, state: params.state }));
}

/** The popup mode always has a `state`: validateAuthorize refuses a popup request without one (PKCE does not guard a JWT). */
function popupState(request: AuthorizeRequest): string {
  return request.params.state ?? "";
}
