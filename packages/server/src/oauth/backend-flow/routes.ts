import { GRANT_TYPES, type MetaAuthorizeResponse, type MetaGetTokenResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { contentSlotOf } from "../token/content-address.js";
import { checkActors } from "../../platform/http/endpoint-caller.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { serviceRateLimit } from "../../platform/http/rate-limit.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";
import { findEndUserById } from "../../identity/users/end-users-store.js";
import { enqueue } from "../../status/outbox/outbox-store.js";
import { exchangeCode, issueCode } from "../token/authorization-code.js";
import { META_CALLBACK_TOPIC, sealedCallback } from "./callback-delivery.js";

const CALLBACK_MAX_ATTEMPTS = 6;

/** The backend SDK flow of spec 4.4: authorize with the user JWT, callback, then get_token. */
export function oauthMetaRoutes(services: Services): Router {
  const router = Router();

  mountEndpoint(router, services, ENDPOINTS.metaAuthorize, {}, async (query, { claims }): Promise<MetaAuthorizeResponse> => {
    const client = await services.clients.get(query.client_id);
    if (!client) throw new SlotgateServerError("invalid_client");
    if (!client.redirect_uris.includes(query.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
    // The token's client is checked once the client named is known to exist (the row's actor rule, checked after).
    checkActors(ENDPOINTS.metaAuthorize, query, { client: null, claims }, { deferred: true });
    const code = await issueCode(services, "meta", { clientId: client.client_id, userId: claims!.sub, redirectUri: query.redirect_uri, codeChallenge: null });
    await enqueue(services.db, {
      topic: META_CALLBACK_TOPIC,
      // The code is sealed at rest; the worker opens it for the POST and the row drops it once delivered.
      ...sealedCallback(services.outboxSeal, query.redirect_uri, code, query.state),
      payload: { client_id: client.client_id },
      maxAttempts: CALLBACK_MAX_ATTEMPTS,
    });
    services.outbox.kick();
    return { success: true, message: "Authorized; the code is being sent to the registered redirect URI." };
  });

  const tokenLimit = serviceRateLimit(services, "token", services.config.rateLimit.tokenPerMinute);
  mountEndpoint(router, services, ENDPOINTS.metaGetToken, { before: [tokenLimit] }, async (body, { client }): Promise<MetaGetTokenResponse> => {
    if (!client!.redirect_uris.includes(body.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
    const result = await exchangeCode(services, {
      kind: "meta",
      code: body.code,
      clientId: client!.client_id,
      redirectUri: body.redirect_uri,
      refresh: client!.grant_types.includes(GRANT_TYPES.refreshToken),
    });
    const user = await findEndUserById(services.db, result.userId);
    const slot = await contentSlotOf(services, result.userId, client!);
    return {
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
  });
  return router;
}
