import { GRANT_TYPES, PATHS } from "@slotgate/protocol";

/**
 * RFC 8414 authorization-server metadata.
 *
 * @example
 * ```ts
 * authorizationServerMetadata("https://auth.example").token_endpoint; // "https://auth.example/oauth/token"
 * ```
 */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: issuer + PATHS.authorize,
    token_endpoint: issuer + PATHS.token,
    device_authorization_endpoint: issuer + PATHS.deviceAuthorization,
    jwks_uri: issuer + PATHS.jwks,
    revocation_endpoint: issuer + PATHS.revoke,
    // OpenID Connect Discovery 1.0 names it; the rest of this document is RFC 8414.
    userinfo_endpoint: issuer + PATHS.userinfo,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [GRANT_TYPES.authorizationCode, GRANT_TYPES.refreshToken, GRANT_TYPES.deviceCode],
    // "none": the device grant's public clients (consoles) send only client_id.
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_signing_alg_values_supported: ["ES256"],
    service_documentation: issuer + PATHS.openapi,
    authorization_response_iss_parameter_supported: false,
  };
}
