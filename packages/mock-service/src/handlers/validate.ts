import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import type { MockContext } from "../context.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";
import { HttpError } from "../http/http-error.js";
import { endFamilyOf } from "../refresh-tokens.js";

/** `GET /v1/oauth/validate`, `GET /v1/oauth/userinfo` and `POST /v1/oauth/revoke` (open to any origin: CORS and preflights from the table). */
export function validateHandlers(ctx: MockContext) {
  return [
    ...mockEndpoint(
      ctx,
      ENDPOINTS.validate,
      {},
      async (_input, { claims }): Promise<Answer<"validate">> => ({
        success: true,
        valid: true,
        user_id: claims!.sub,
        token_use: claims!.token_use === "access_token" ? "access_token" : "user_jwt",
        expires_at: new Date(claims!.exp * 1000).toISOString(),
        ...(claims!.client_id !== undefined ? { client_id: claims!.client_id } : {}),
      }),
    ),
    ...mockEndpoint(ctx, ENDPOINTS.userinfo, {}, async (_input, { claims }): Promise<Answer<"userinfo">> => {
      const user = ctx.state.endUsers.get(claims!.sub);
      if (!user) throw new HttpError("invalid_token");
      return { success: true, sub: user.user_id, nickname: user.nickname };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.revoke, {}, async (_input, { claims }): Promise<Answer<"revoke">> => {
      ctx.state.revokedJtis.add(claims!.jti);
      endFamilyOf(ctx, claims!.jti, true);
      return { success: true, revoked: true };
    }),
  ];
}
