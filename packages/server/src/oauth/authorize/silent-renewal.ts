import type { Request, Response } from "express";
import { findEndUserById } from "../../identity/users/end-users-store.js";
import type { Services } from "../../platform/app/services.js";
import { sendHtml } from "../../platform/http/html.js";
import { clearBrowserSession, readBrowserSession, setBrowserSession } from "./browser-session.js";
import { renderSilentResult } from "./pages.js";
import type { AuthorizeRequest } from "./params.js";

/**
 * `GET /oauth/authorize?…&display=popup&prompt=none` in the client SDK's hidden iframe: with a live browser
 * session for this client (and its user still there), a fresh user JWT posted to the parent and the session
 * extended; otherwise `login_required`. Nothing is shown and nothing is asked.
 */
export async function silentRenewal(services: Services, req: Request, res: Response, request: AuthorizeRequest): Promise<void> {
  const { params, client } = request;
  const session = readBrowserSession(services, req, client.client_id);
  const user = session ? await findEndUserById(services.db, session.userId) : null;
  let answer: ["success" | "fail", string] = ["fail", "login_required"];
  if (session && user) {
    const jwt = await services.tokens.signUserJwt(user.id, client.client_id);
    setBrowserSession(services, res, client.client_id, user.id, session.authTime);
    answer = ["success", jwt.token];
  } else if (session) {
    clearBrowserSession(services, res, client.client_id);
  }
  const origin = new URL(params.redirect_uri).origin;
  sendHtml(res, 200, (nonce) => renderSilentResult(nonce, params.redirect_uri, answer[0], answer[1], params.state ?? ""), { frameAncestors: [origin] });
}
