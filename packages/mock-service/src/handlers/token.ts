import { GRANT_TYPES, LIMITS, type TokenResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { deviceTokenRequestSchema, refreshTokenRequestSchema, tokenRequestSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { authenticateClient, identifyClient, requireGrant, requireRegisteredRedirectUri } from "../clients.js";
import { redeemCode } from "../codes.js";
import { type MockContext, endpointUrl } from "../context.js";
import { pollDevice } from "../devices.js";
import { basicCredentials } from "../http/auth.js";
import { readParams, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import { addAccessToken, redeemRefreshToken, startFamily } from "../refresh-tokens.js";
import { contentSlotOf } from "../slots.js";
import type { ClientRecord } from "../state.js";
import { issueAccessToken, issueUserJwt, issueUserJwtWithId } from "../tokens.js";

/** Headers of every token answer (RFC 6749 5.1). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

function answer(
  ctx: MockContext,
  client: ClientRecord,
  fields: { access_token: string; expires_in: number; user_id: string; refresh_token?: string },
): Response {
  const slot = contentSlotOf(ctx, client, fields.user_id);
  const body: TokenResponse = {
    success: true,
    access_token: fields.access_token,
    token_type: "Bearer",
    expires_in: fields.expires_in,
    user_id: fields.user_id,
    ...(slot ? { content_address: slot.content_address } : {}),
    ...(fields.refresh_token ? { refresh_token: fields.refresh_token } : {}),
  };
  return json(body, 200, NO_STORE);
}

/**
 * `POST /oauth/token` (JSON or form; client_secret_post or client_secret_basic): the
 * authorization-code exchange, the rotating refresh grant and the device grant's poll.
 */
export function tokenHandlers(ctx: MockContext) {
  return [
    http.post(endpointUrl(ctx, ENDPOINTS.token), ({ request }) =>
      guard(
        async () => {
          await ctx.ready();
          const body = await readParams(request, ctx.bodyLimit);
          const basic = basicCredentials(request);
          if (basic && body["client_secret"] !== undefined) {
            throw new HttpError("invalid_request", { message: "Send the client credentials either in HTTP Basic or in the body, not both." });
          }
          if (basic && body["client_id"] === undefined) body["client_id"] = basic.id;
          if (basic && basic.id !== body["client_id"]) throw new HttpError("invalid_client");
          const secret = basic ? basic.secret : typeof body["client_secret"] === "string" ? body["client_secret"] : undefined;
          const confidential = (clientId: string | undefined) => {
            if (secret === undefined || clientId === undefined) {
              throw new HttpError("invalid_client", { message: "Client authentication is required (client_id and client_secret, or HTTP Basic)." });
            }
            return authenticateClient(ctx, clientId, secret);
          };

          if (body["grant_type"] === GRANT_TYPES.refreshToken) {
            const params = validate(refreshTokenRequestSchema, body);
            const client = confidential(params.client_id);
            requireGrant(client, GRANT_TYPES.refreshToken);
            const redeemed = redeemRefreshToken(ctx, params.refresh_token, client.client_id);
            const { token, jti } = await issueAccessToken(ctx, redeemed.user_id, client.client_id);
            addAccessToken(ctx, redeemed.family_id, jti);
            return answer(ctx, client, {
              access_token: token,
              expires_in: LIMITS.accessTokenLifetimeSeconds,
              user_id: redeemed.user_id,
              refresh_token: redeemed.successor,
            });
          }
          if (body["grant_type"] === GRANT_TYPES.deviceCode) {
            const params = validate(deviceTokenRequestSchema, body);
            const client = identifyClient(ctx, params.client_id, secret);
            requireGrant(client, GRANT_TYPES.deviceCode);
            const userId = pollDevice(ctx, params.device_code, client.client_id);
            const jwt = await issueUserJwt(ctx, userId, client.client_id);
            return answer(ctx, client, { access_token: jwt, expires_in: LIMITS.userJwtLifetimeSeconds, user_id: userId });
          }
          if (body["grant_type"] !== undefined && body["grant_type"] !== GRANT_TYPES.authorizationCode) {
            throw new HttpError("unsupported_grant_type");
          }
          const params = validate(tokenRequestSchema, body);
          // No secret but a PKCE verifier: a public client's code, or a web client's browser login (the client
          // SDK's redirect mode). The code must carry a challenge, and the answer is the player's user JWT.
          const pkceOnly = secret === undefined && params.code_verifier !== undefined;
          if (secret === undefined && !pkceOnly && ctx.state.clients.get(params.client_id ?? "")?.token_endpoint_auth_method === "none") {
            throw new HttpError("invalid_request", {
              message: "code_verifier is required: this client is public (no secret), so it proves the code with its PKCE verifier (RFC 7636).",
            });
          }
          const client = pkceOnly ? identifyClient(ctx, params.client_id, undefined) : confidential(params.client_id);
          requireRegisteredRedirectUri(ctx, client, params.redirect_uri);
          const presented = ctx.state.codes.get(params.code);
          if (pkceOnly && presented && !presented.used && presented.code_challenge === undefined) {
            // A code made without a challenge is redeemed with the client's secret only; the attempt consumes it.
            presented.used = true;
            throw new HttpError("invalid_grant");
          }
          const code = await redeemCode(ctx, {
            code: params.code,
            client_id: client.client_id,
            redirect_uri: params.redirect_uri,
            ...(params.code_verifier !== undefined ? { code_verifier: params.code_verifier } : {}),
          });
          if (pkceOnly) {
            const { token, jti } = await issueUserJwtWithId(ctx, code.user_id, client.client_id);
            code.issued_jtis.push(jti);
            return answer(ctx, client, { access_token: token, expires_in: LIMITS.userJwtLifetimeSeconds, user_id: code.user_id });
          }
          const { token, jti } = await issueAccessToken(ctx, code.user_id, client.client_id);
          code.issued_jtis.push(jti);
          const refresh = client.grant_types.includes(GRANT_TYPES.refreshToken)
            ? startFamily(ctx, { client_id: client.client_id, user_id: code.user_id, jti })
            : undefined;
          return answer(ctx, client, {
            access_token: token,
            expires_in: LIMITS.accessTokenLifetimeSeconds,
            user_id: code.user_id,
            ...(refresh ? { refresh_token: refresh } : {}),
          });
        },
        { withDescription: true, headers: NO_STORE },
      ),
    ),
  ];
}
