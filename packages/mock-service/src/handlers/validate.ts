import type { RevokeResponse, ValidateResponse } from "@slotgate/protocol";
import { http } from "msw";
import { type MockContext, urlOf } from "../context.js";
import { CORS_HEADERS, guard, json } from "../http/respond.js";
import { endFamilyOf } from "../refresh-tokens.js";
import { authenticateUser } from "../tokens.js";

/** `GET /v1/oauth/validate`, `POST /v1/oauth/revoke` and their CORS preflights. */
export function validateHandlers(ctx: MockContext) {
  const validateUrl = urlOf(ctx, "/v1/oauth/validate");
  const revokeUrl = urlOf(ctx, "/v1/oauth/revoke");
  const preflight = () => new Response(null, { status: 204, headers: CORS_HEADERS });
  return [
    http.options(validateUrl, preflight),
    http.options(revokeUrl, preflight),
    http.get(validateUrl, ({ request }) =>
      guard(
        async () => {
          const claims = await authenticateUser(ctx, request);
          const answer: ValidateResponse = {
            success: true,
            valid: true,
            user_id: claims.sub,
            token_use: claims.token_use === "access_token" ? "access_token" : "user_jwt",
            expires_at: new Date(claims.exp * 1000).toISOString(),
            ...(claims.client_id !== undefined ? { client_id: claims.client_id } : {}),
          };
          return json(answer, 200, { ...CORS_HEADERS, "Cache-Control": "no-store" });
        },
        { headers: CORS_HEADERS },
      ),
    ),
    http.post(revokeUrl, ({ request }) =>
      guard(
        async () => {
          const claims = await authenticateUser(ctx, request);
          ctx.state.revokedJtis.add(claims.jti);
          endFamilyOf(ctx, claims.jti, true);
          const answer: RevokeResponse = { success: true, revoked: true };
          return json(answer, 200, CORS_HEADERS);
        },
        { headers: CORS_HEADERS },
      ),
    ),
  ];
}
