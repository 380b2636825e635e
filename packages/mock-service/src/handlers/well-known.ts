import { GRANT_TYPES, PATHS } from "@slotgate/protocol";
import { ENDPOINTS, buildOpenApi } from "@slotgate/protocol/endpoints";
import { type MockContext, urlOf } from "../context.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";

/** JWKS, OAuth authorization-server metadata (RFC 8414), the OpenAPI document of the rows served, and the health check. */
export function wellKnownHandlers(ctx: MockContext) {
  return [
    ...mockEndpoint(
      ctx,
      ENDPOINTS.jwks,
      { headers: { "Cache-Control": "public, max-age=300" } },
      async (): Promise<Answer<"jwks">> => ({ keys: [{ ...(await ctx.ready()).jwk }] }),
    ),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.metadata,
      {},
      async (): Promise<Answer<"metadata">> => ({
        issuer: ctx.baseUrl,
        authorization_endpoint: urlOf(ctx, PATHS.authorize),
        token_endpoint: urlOf(ctx, PATHS.token),
        device_authorization_endpoint: urlOf(ctx, PATHS.deviceAuthorization),
        jwks_uri: urlOf(ctx, PATHS.jwks),
        revocation_endpoint: urlOf(ctx, PATHS.revoke),
        userinfo_endpoint: urlOf(ctx, PATHS.userinfo),
        response_types_supported: ["code"],
        grant_types_supported: [GRANT_TYPES.authorizationCode, GRANT_TYPES.refreshToken, GRANT_TYPES.deviceCode],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      }),
    ),
    // Read when asked: it lists every row the simulation serves, and the handlers made after this one too.
    ...mockEndpoint(
      ctx,
      ENDPOINTS.openapi,
      {},
      async (): Promise<Answer<"openapi">> => buildOpenApi(ctx.baseUrl, { endpoints: ctx.endpoints, title: "Slotgate simulated service" }),
    ),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.health,
      {},
      async (): Promise<Answer<"health">> => ({ success: true, status: "ok", database: "memory", chain: "simulated" }),
    ),
  ];
}
