import { GRANT_TYPES, type MetaAuthorizeResponse, type MetaGetTokenResponse } from "@slotgate/protocol";
import { metaAuthorizeQuerySchema, metaGetTokenSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { contentSlotOf } from "../token/content-address.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput } from "../http/validate.js";
import { bearerFrom } from "../keys/tokens.js";
import { findEndUserById } from "../storage/end-users.js";
import { enqueue } from "../storage/outbox.js";
import { authenticateClient } from "../clients/client-auth.js";
import { exchangeCode } from "../token/code-exchange.js";
import { issueCode } from "../token/codes.js";
import { META_CALLBACK_TOPIC, sealedCallback } from "./callback-delivery.js";

const CALLBACK_MAX_ATTEMPTS = 6;

/** The backend SDK flow of spec 4.4: authorize with the user JWT, callback, then get_token. */
export function oauthMetaRoutes(services: Services): Router {
  const router = Router();

  router.get("/v1/oauth-meta/authorize", async (req: Request, res: Response) => {
    const query = parseInput(metaAuthorizeQuerySchema, { ...(req.query as object) });
    const claims = await services.tokens.verifyBearer(bearerFrom(req.headers.authorization));
    const client = await services.clients.get(query.client_id);
    if (!client) throw new SlotgateServerError("invalid_client");
    if (!client.redirect_uris.includes(query.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
    if (claims.client_id !== client.client_id) throw new SlotgateServerError("token_user_mismatch");
    const code = await issueCode(services, "meta", { clientId: client.client_id, userId: claims.sub, redirectUri: query.redirect_uri, codeChallenge: null });
    await enqueue(services.db, {
      topic: META_CALLBACK_TOPIC,
      // The code is sealed at rest; the worker opens it for the POST and the row drops it once delivered.
      ...sealedCallback(services.outboxSeal, query.redirect_uri, code, query.state),
      payload: { client_id: client.client_id },
      maxAttempts: CALLBACK_MAX_ATTEMPTS,
    });
    services.outbox.kick();
    const answer: MetaAuthorizeResponse = { success: true, message: "Authorized; the code is being sent to the registered redirect URI." };
    res.json(answer);
  });

  router.post(
    "/v1/oauth-meta/get_token",
    rateLimit("token", services.config.rateLimit.tokenPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix),
    jsonBody,
    async (req: Request, res: Response) => {
      const body = parseInput(metaGetTokenSchema, req.body);
      const client = await authenticateClient(services, { clientId: body.client_id, clientSecret: body.client_secret, method: "client_secret_post" });
      if (!client.redirect_uris.includes(body.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
      const result = await exchangeCode(services, {
        kind: "meta",
        code: body.code,
        clientId: client.client_id,
        redirectUri: body.redirect_uri,
        refresh: client.grant_types.includes(GRANT_TYPES.refreshToken),
      });
      const user = await findEndUserById(services.db, result.userId);
      const slot = await contentSlotOf(services, result.userId, client);
      const answer: MetaGetTokenResponse = {
        success: true,
        id: result.userId,
        access_token: result.accessToken,
        token_type: "Bearer",
        expires_in: result.expiresIn,
        // Slot info always carries the field (spec 2.3); empty without a blockchain address to give.
        content_address: slot?.content_address ?? "",
        token_nickname: user?.nickname ?? "",
        tr_cnt: slot?.tr_cnt ?? 0,
        code: body.code,
        ...(slot?.cu_id === undefined ? {} : { cu_id: slot.cu_id, meta_idx: slot.meta_idx }),
        ...(result.refreshToken ? { refresh_token: result.refreshToken } : {}),
      };
      res.setHeader("Cache-Control", "no-store");
      res.json(answer);
    },
  );
  return router;
}
