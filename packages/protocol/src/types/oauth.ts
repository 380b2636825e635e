/** Query of `GET /oauth/authorize` (spec 4.2). */
export interface AuthorizeQuery {
  client_id: string;
  /** Must equal a registered redirect URI exactly, trailing slash included. */
  redirect_uri: string;
  response_type: "code";
  /** CSRF token, echoed back. Required by Slotgate (ERR_MISSING_PARAMS without it). */
  state: string;
  /** `popup`: the result is posted to `window.opener` instead of a redirect (client SDK). */
  display?: "page" | "popup";
  /** PKCE (RFC 7636) challenge; only `S256` is accepted. */
  code_challenge?: string;
  code_challenge_method?: "S256";
}

/** Body of `POST /oauth/token` (spec 4.3). Client credentials may instead travel in HTTP Basic auth. */
export interface TokenRequest {
  grant_type: "authorization_code";
  code: string;
  redirect_uri: string;
  /** Required unless the client authenticates with HTTP Basic (client_secret_basic). */
  client_id?: string;
  client_secret?: string;
  /** PKCE verifier; required when the authorize request carried a code_challenge. */
  code_verifier?: string;
}

/** Token response (spec 2.2). */
export interface TokenResponse {
  success: true;
  access_token: string;
  token_type: "Bearer";
  /** Lifetime of access_token in seconds. */
  expires_in: number;
  user_id: string;
  /** Present when the client's content requires blockchain authorization. */
  content_address?: string;
}

/** Answer of `GET /v1/oauth/validate` (spec 4.6a; body decided by Slotgate). */
export interface ValidateResponse {
  success: true;
  valid: true;
  user_id: string;
  /** Client the token was issued to; absent for a user JWT from the popup login. */
  client_id?: string;
  /** `access_token` (code exchange) or `user_jwt` (popup / loopback login). */
  token_use: "access_token" | "user_jwt";
  /** ISO 8601 expiry. */
  expires_at: string;
}

/** Answer of `POST /v1/oauth/revoke`: the bearer token is deactivated. */
export interface RevokeResponse {
  success: true;
  revoked: true;
}

/** The popup's postMessage to its opener (spec 4.12, 6). */
export interface LoginMessage {
  /** `slotgate`, or `gameauth` for the legacy copy of the dual broadcast. */
  from: "slotgate" | "gameauth";
  type: "success" | "fail";
  /** The user JWT on success, an error message on failure. */
  data: string;
  /** The `state` of the authorize request this message answers. */
  state: string;
}
