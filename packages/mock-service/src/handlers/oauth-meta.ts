import { GRANT_TYPES, LIMITS, type MetaAuthorizeResponse, type MetaGetTokenResponse } from "@slotgate/protocol";
import { metaAuthorizeQuerySchema, metaGetTokenSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { authenticateClient, requireClient, requireRegisteredRedirectUri } from "../clients.js";
import { issueCode, redeemCode } from "../codes.js";
import { type MockContext, urlOf } from "../context.js";
import { queryRecord, readJson, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import { startFamily } from "../refresh-tokens.js";
import { contentSlotOf } from "../slots.js";
import type { CallbackDelivery } from "../state.js";
import { authenticateUser, issueAccessToken } from "../tokens.js";
import { NO_STORE } from "./token.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs `{redirect_uri}?code&state&success=1` (no body), retrying on network error or 5xx. */
async function deliverCallback(ctx: MockContext, delivery: CallbackDelivery): Promise<void> {
  for (let attempt = 1; attempt <= ctx.callbackAttempts; attempt++) {
    await sleep(ctx.callbackDelayMs * 2 ** (attempt - 1));
    delivery.attempts = attempt;
    try {
      const response = await ctx.fetch()(delivery.url, { method: "POST" });
      delivery.status = response.status;
      delete delivery.error;
      if (response.status < 500) delivery.delivered = response.ok;
      // Drain without waiting: the answer's body is irrelevant (the backend answers 200 at once).
      response.arrayBuffer().catch(() => undefined);
      if (response.status < 500) return;
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
  }
}

/** `GET /v1/oauth-meta/authorize` (then the async callback POST) and `POST /v1/oauth-meta/get_token`. */
export function oauthMetaHandlers(ctx: MockContext) {
  return [
    http.get(urlOf(ctx, "/v1/oauth-meta/authorize"), ({ request }) =>
      guard(async () => {
        const query = validate(metaAuthorizeQuerySchema, queryRecord(new URL(request.url)));
        const claims = await authenticateUser(ctx, request);
        const client = requireClient(ctx, query.client_id);
        requireRegisteredRedirectUri(ctx, client, query.redirect_uri);
        if (claims.client_id !== client.client_id) throw new HttpError("token_user_mismatch");
        const code = issueCode(ctx, { client_id: client.client_id, redirect_uri: query.redirect_uri, user_id: claims.sub });
        const target = `${query.redirect_uri}${query.redirect_uri.includes("?") ? "&" : "?"}${new URLSearchParams({
          code: code.code,
          state: query.state,
          success: "1",
        })}`;
        const delivery: CallbackDelivery = { url: target, state: query.state, attempts: 0, delivered: false };
        ctx.state.callbacks.push(delivery);
        void deliverCallback(ctx, delivery);
        const answer: MetaAuthorizeResponse = { success: true, message: "Accepted; the authorize callback follows." };
        return json(answer);
      }),
    ),
    http.post(urlOf(ctx, "/v1/oauth-meta/get_token"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const body = await readJson(request, metaGetTokenSchema, ctx.bodyLimit);
        const client = authenticateClient(ctx, body.client_id, body.client_secret);
        requireRegisteredRedirectUri(ctx, client, body.redirect_uri);
        const code = await redeemCode(ctx, { code: body.code, client_id: client.client_id, redirect_uri: body.redirect_uri });
        const user = ctx.state.endUsers.get(code.user_id);
        if (!user) throw new HttpError("invalid_grant");
        const { token, jti } = await issueAccessToken(ctx, user.user_id, client.client_id);
        code.issued_jtis.push(jti);
        const slot = contentSlotOf(ctx, client, user.user_id);
        const answer: MetaGetTokenResponse = {
          success: true,
          id: user.user_id,
          access_token: token,
          token_type: "Bearer",
          expires_in: LIMITS.accessTokenLifetimeSeconds,
          content_address: slot?.content_address ?? "",
          token_nickname: user.nickname,
          tr_cnt: slot?.tr_cnt ?? 0,
          code: code.code,
          ...(slot?.cu_id === undefined ? {} : { cu_id: slot.cu_id, meta_idx: slot.meta_idx }),
        };
        if (client.grant_types.includes(GRANT_TYPES.refreshToken)) answer.refresh_token = startFamily(ctx, { client_id: client.client_id, user_id: user.user_id, jti });
        return json(answer, 200, NO_STORE);
      }),
    ),
  ];
}
