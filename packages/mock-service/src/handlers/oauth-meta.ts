import { GRANT_TYPES, LIMITS, type MetaGetTokenResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { requireClient, requireRegisteredRedirectUri } from "../clients.js";
import { issueCode, redeemCode } from "../codes.js";
import type { MockContext } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";
import { startFamily } from "../refresh-tokens.js";
import { contentSlotOf } from "../slots.js";
import type { CallbackDelivery } from "../state.js";
import { issueAccessToken } from "../tokens.js";
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
    ...mockEndpoint(ctx, ENDPOINTS.metaAuthorize, {}, async (query, { claims }): Promise<Answer<"metaAuthorize">> => {
      const client = requireClient(ctx, query.client_id);
      requireRegisteredRedirectUri(ctx, client, query.redirect_uri);
      // The table's actor rule on client_id, checked after the client and its redirect URI.
      if (claims!.client_id !== client.client_id && !ctx.faults.skipTokenUserCheck) throw new HttpError("token_user_mismatch");
      const code = issueCode(ctx, { client_id: client.client_id, redirect_uri: query.redirect_uri, user_id: claims!.sub });
      const target = `${query.redirect_uri}${query.redirect_uri.includes("?") ? "&" : "?"}${new URLSearchParams({
        code: code.code,
        state: query.state,
        success: "1",
      })}`;
      const delivery: CallbackDelivery = { url: target, state: query.state, attempts: 0, delivered: false };
      ctx.state.callbacks.push(delivery);
      void deliverCallback(ctx, delivery);
      return { success: true, message: "Accepted; the authorize callback follows." };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.metaGetToken, { headers: NO_STORE }, async (body, caller): Promise<Answer<"metaGetToken">> => {
      const client = caller.client!;
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
      if (client.grant_types.includes(GRANT_TYPES.refreshToken))
        answer.refresh_token = startFamily(ctx, { client_id: client.client_id, user_id: user.user_id, jti });
      return answer;
    }),
  ];
}
