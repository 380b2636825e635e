import { LIMITS, type TokenResponse } from "@slotgate/protocol";
import { tokenRequestSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { authenticateClient, requireRegisteredRedirectUri } from "../clients.js";
import { redeemCode } from "../codes.js";
import { type MockContext, urlOf } from "../context.js";
import { basicCredentials } from "../http/auth.js";
import { readParams, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import { issueAccessToken } from "../tokens.js";

/** Headers of every token answer (RFC 6749 5.1). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** `POST /oauth/token`: authorization-code exchange (JSON or form; client_secret_post or client_secret_basic). */
export function tokenHandlers(ctx: MockContext) {
  return [
    http.post(urlOf(ctx, "/oauth/token"), ({ request }) =>
      guard(
        async () => {
          await ctx.ready();
          const body = await readParams(request, ctx.bodyLimit);
          const basic = basicCredentials(request);
          if (basic && body["client_secret"] !== undefined) {
            throw new HttpError("invalid_request", { message: "Send the client credentials either in HTTP Basic or in the body, not both." });
          }
          if (basic && body["client_id"] === undefined) body["client_id"] = basic.id;
          if (body["grant_type"] !== undefined && body["grant_type"] !== "authorization_code") {
            throw new HttpError("unsupported_grant_type");
          }
          const params = validate(tokenRequestSchema, body);
          if (basic && basic.id !== params.client_id) throw new HttpError("invalid_client");
          const secret = basic ? basic.secret : params.client_secret;
          if (secret === undefined || params.client_id === undefined) {
            throw new HttpError("invalid_client", { message: "Client authentication is required (client_id and client_secret, or HTTP Basic)." });
          }
          const client = authenticateClient(ctx, params.client_id, secret);
          requireRegisteredRedirectUri(ctx, client, params.redirect_uri);
          const code = await redeemCode(ctx, {
            code: params.code,
            client_id: client.client_id,
            redirect_uri: params.redirect_uri,
            ...(params.code_verifier !== undefined ? { code_verifier: params.code_verifier } : {}),
          });
          const { token, jti } = await issueAccessToken(ctx, code.user_id, client.client_id);
          code.issued_jtis.push(jti);
          const answer: TokenResponse = {
            success: true,
            access_token: token,
            token_type: "Bearer",
            expires_in: LIMITS.accessTokenLifetimeSeconds,
            user_id: code.user_id,
            ...(client.blockchain ? { content_address: ctx.state.slotFor(client.client_id, code.user_id).address } : {}),
          };
          return json(answer, 200, NO_STORE);
        },
        { withDescription: true, headers: NO_STORE },
      ),
    ),
  ];
}
