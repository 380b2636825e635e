import { GRANT_TYPES, PATHS } from "@slotgate/protocol";
import { http } from "msw";
import { type MockContext, urlOf } from "../context.js";
import { json } from "../http/respond.js";

/** JWKS, OAuth authorization-server metadata (RFC 8414) and the health check. */
export function wellKnownHandlers(ctx: MockContext) {
  return [
    http.get(urlOf(ctx, PATHS.jwks), async () => {
      const keys = await ctx.ready();
      return json({ keys: [keys.jwk] }, 200, { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" });
    }),
    http.get(urlOf(ctx, PATHS.metadata), () =>
      json(
        {
          issuer: ctx.baseUrl,
          authorization_endpoint: urlOf(ctx, PATHS.authorize),
          token_endpoint: urlOf(ctx, PATHS.token),
          device_authorization_endpoint: urlOf(ctx, PATHS.deviceAuthorization),
          jwks_uri: urlOf(ctx, PATHS.jwks),
          revocation_endpoint: urlOf(ctx, PATHS.revoke),
          response_types_supported: ["code"],
          grant_types_supported: [GRANT_TYPES.authorizationCode, GRANT_TYPES.refreshToken, GRANT_TYPES.deviceCode],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        },
        200,
        { "Access-Control-Allow-Origin": "*" },
      ),
    ),
    http.get(urlOf(ctx, PATHS.health), async () => {
      await ctx.ready();
      return json({ success: true, status: "ok" });
    }),
  ];
}
