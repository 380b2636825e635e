import type { TokenResponse } from "@slotgate/protocol";
import { tokenRequestSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { formOrJsonBody, isPlainObject } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput, singleValued } from "../http/validate.js";
import { authenticateClient, presentedCredentials } from "./client-auth.js";
import { exchangeCode } from "./code-exchange.js";

const TOKEN_FIELDS = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier"] as const;

/** `POST /oauth/token`: the authorization-code exchange (spec 4.3, RFC 6749 4.1.3). */
export function tokenRoutes(services: Services): Router {
  const router = Router();
  router.post(
    "/oauth/token",
    rateLimit("token", services.config.rateLimit.tokenPerMinute, services.config.rateLimit.enabled),
    formOrJsonBody,
    async (req: Request, res: Response) => {
      if (!isPlainObject(req.body)) throw new SlotgateServerError("invalid_request", { message: "Invalid request: the body must be an object" });
      const body = singleValued(req.body, TOKEN_FIELDS);
      const creds = presentedCredentials(req.headers.authorization, body);
      if (!body.grant_type) {
        throw new SlotgateServerError("invalid_request", { message: "Invalid request: grant_type is required", details: [{ path: "grant_type", message: "is required" }] });
      }
      if (body.grant_type !== "authorization_code") throw new SlotgateServerError("unsupported_grant_type");
      const input = parseInput(tokenRequestSchema, { ...body, client_id: creds.clientId, client_secret: undefined });
      const client = await authenticateClient(services, creds);
      if (!client.redirect_uris.includes(input.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
      const result = await exchangeCode(services, {
        kind: "oauth",
        code: input.code,
        clientId: client.client_id,
        redirectUri: input.redirect_uri,
        codeVerifier: input.code_verifier,
      });
      const answer: TokenResponse = {
        success: true,
        access_token: result.accessToken,
        token_type: "Bearer",
        expires_in: result.expiresIn,
        user_id: result.userId,
      };
      if (client.blockchain) answer.content_address = await services.wallets.contentAddressFor(result.userId, client.client_id);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Pragma", "no-cache");
      res.json(answer);
    },
  );
  return router;
}
