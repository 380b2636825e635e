import { devUserCredentialsSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { formOrJsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { sendHtml } from "../http/html.js";
import { rateLimit } from "../http/rate-limit.js";
import { issueCode } from "../token/codes.js";
import { type EndUserRow, findEndUserByEmail, insertEndUser } from "../storage/end-users.js";
import { dummyPasswordHash, hashPassword, verifyPassword } from "../users/passwords.js";
import { csrfMatches, issueCsrfToken } from "./csrf.js";
import { type AuthorizeRequest, validateAuthorize, withQuery } from "./params.js";
import { renderAuthorizeForm, renderPopupResult } from "./pages.js";

const DENIAL_DESCRIPTION = "The user denied the authorization request.";

function formField(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  return typeof v === "string" ? v : "";
}

/** `GET /oauth/authorize` and `POST /oauth/authorize`: end-user sign-in / sign-up and consent. */
export function authorizeRoutes(services: Services): Router {
  const router = Router();
  const secure = services.issuer.startsWith("https:");
  const formAction = (request: AuthorizeRequest) => [new URL(request.params.redirect_uri).origin];

  router.get("/oauth/authorize", async (req: Request, res: Response) => {
    const request = await validateAuthorize(services, req.query);
    const csrf = issueCsrfToken(req, res, secure);
    sendHtml(res, 200, (nonce) => renderAuthorizeForm(nonce, request, csrf), { formAction: formAction(request) });
  });

  router.post(
    "/oauth/authorize",
    rateLimit("sign-in", services.config.rateLimit.signInPerMinute, services.config.rateLimit.enabled),
    formOrJsonBody,
    async (req: Request, res: Response) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const request = await validateAuthorize(services, body);
      if (!csrfMatches(req, body["csrf_token"])) throw new SlotgateServerError("csrf_failed");
      const decision = formField(body, "decision");
      if (decision !== "approve" && decision !== "deny") {
        throw new SlotgateServerError("invalid_request", {
          message: "Invalid request: decision must be approve or deny",
          details: [{ path: "decision", message: "must be approve or deny" }],
        });
      }
      if (decision === "deny") return deliverDenial(services, res, request);

      const email = formField(body, "email").trim().toLowerCase();
      const password = formField(body, "password");
      const again = (status: number, error: string) => {
        const csrf = issueCsrfToken(req, res, secure);
        sendHtml(res, status, (nonce) => renderAuthorizeForm(nonce, request, csrf, { error, email }), { formAction: formAction(request) });
      };
      const creds = devUserCredentialsSchema.safeParse({ email, password });
      let user: EndUserRow | null = null;
      if (formField(body, "intent") === "signup") {
        if (!creds.success) return again(400, "Enter a valid email and a password of at least 8 characters.");
        user = await insertEndUser(services.db, {
          email,
          passwordHash: await hashPassword(password, services.scrypt),
          nickname: email.split("@")[0]!.slice(0, 64),
        });
        if (!user) return again(409, "An account with this email already exists. Sign in instead.");
      } else {
        const found = creds.success ? await findEndUserByEmail(services.db, email) : null;
        const ok = await verifyPassword(password, found?.password_hash ?? (await dummyPasswordHash(services.scrypt)));
        if (!found || !ok) return again(401, "Wrong email or password.");
        user = found;
      }
      await deliverApproval(services, res, request, user.id);
    },
  );
  return router;
}

async function deliverApproval(services: Services, res: Response, request: AuthorizeRequest, userId: string): Promise<void> {
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
  sendHtml(res, 200, (nonce) => renderPopupResult(nonce, params.redirect_uri, "success", jwt.token, params.state));
}

function deliverDenial(_services: Services, res: Response, request: AuthorizeRequest): void {
  const { params, mode } = request;
  if (mode === "popup") {
    sendHtml(res, 200, (nonce) => renderPopupResult(nonce, params.redirect_uri, "fail", "access_denied", params.state));
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  res.redirect(302, withQuery(params.redirect_uri, { error: "access_denied", error_description: DENIAL_DESCRIPTION, state: params.state }));
}
