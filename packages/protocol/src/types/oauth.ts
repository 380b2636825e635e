/** Query of `GET /oauth/authorize` (spec 4.2). */
export interface AuthorizeQuery {
  client_id: string;
  /**
   * Must equal a registered redirect URI exactly, trailing slash included; a public client's loopback IP
   * URI may carry any port (RFC 8252 section 7.3).
   */
  redirect_uri: string;
  response_type: "code";
  /**
   * CSRF token, echoed back (and left out of the answer when absent). Optional only when the request
   * carries PKCE S256 and ends in a code redirect (a public client's loopback redirect included);
   * required for the popup mode, the loopback (JWT) redirect of a confidential desktop or game client
   * (`loopbackJwtRedirect`) and without PKCE (ERR_MISSING_PARAMS without it). The Slotgate SDKs always send it.
   */
  state?: string;
  /** `popup`: the result is posted to `window.opener` instead of a redirect (client SDK). */
  display?: "page" | "popup";
  /**
   * `none`: silent renewal (OpenID Connect's name): no page is shown; with `display=popup` in a hidden iframe,
   * the result (the user JWT, or `login_required` when the browser has no service session for this client) is
   * posted to `window.parent` at the redirect URI's origin (docs/decisions/client-sdk.md, "Sessions that
   * outlive a JWT"). Other values (`login`, `consent` …) are ignored, as unknown parameters are.
   */
  prompt?: string;
  /** PKCE (RFC 7636) challenge; only `S256` is accepted. */
  code_challenge?: string;
  code_challenge_method?: "S256";
  /**
   * OpenID Connect `ui_locales`: the player's preferred languages for the sign-in pages, space-separated
   * BCP 47 tags in order (e.g. `"ja en"`). The first the service ships wins (English, Japanese, Korean,
   * Arabic); otherwise the browser's `Accept-Language`, then English.
   */
  ui_locales?: string;
}

/** Body of `POST /oauth/token` (spec 4.3). Client credentials may instead travel in HTTP Basic auth. */
export interface TokenRequest {
  grant_type: "authorization_code";
  code: string;
  redirect_uri: string;
  /** Required unless the client authenticates with HTTP Basic (client_secret_basic). */
  client_id?: string;
  client_secret?: string;
  /** PKCE verifier; required when the authorize request carried a code_challenge (always, for a public client). */
  code_verifier?: string;
}

/** Body of `POST /oauth/token` with `grant_type=refresh_token` (RFC 6749 section 6). */
export interface RefreshTokenRequest {
  grant_type: "refresh_token";
  refresh_token: string;
  /** Required unless the client authenticates with HTTP Basic. */
  client_id?: string;
  client_secret?: string;
}

/** Body of `POST /oauth/token` with the device grant (RFC 8628 section 3.4): the device's poll. */
export interface DeviceTokenRequest {
  grant_type: "urn:ietf:params:oauth:grant-type:device_code";
  device_code: string;
  client_id?: string;
  /** Optional: a device is a public client; a secret, when sent, is checked. */
  client_secret?: string;
}

/** Body of `POST /oauth/device_authorization` (RFC 8628 section 3.1). */
export interface DeviceAuthorizationRequest {
  client_id?: string;
  client_secret?: string;
  /** Ignored: Slotgate has no scopes. */
  scope?: string;
}

/** Answer of `POST /oauth/device_authorization` (RFC 8628 section 3.2). */
export interface DeviceAuthorizationResponse {
  /** Secret the device polls `/oauth/token` with; never shown to the user. */
  device_code: string;
  /** What the user types on the verification page, e.g. `BDFH-JKLM`. */
  user_code: string;
  /** The verification page. */
  verification_uri: string;
  /** The verification page with the user code filled in (for a QR code or a link). */
  verification_uri_complete: string;
  /** Seconds until device_code and user_code expire. */
  expires_in: number;
  /** Seconds the device must wait between polls. */
  interval: number;
}

/** Token response (spec 2.2). */
export interface TokenResponse {
  success: true;
  /**
   * An access token (1 h) for a confidential client's code exchange and refresh; the player's user JWT
   * (7 days, `token_use: user_jwt`) for a public client's code exchange and the device grant.
   */
  access_token: string;
  token_type: "Bearer";
  /** Lifetime of access_token in seconds. */
  expires_in: number;
  user_id: string;
  /** Present when the client's content requires blockchain authorization. */
  content_address?: string;
  /**
   * Present for clients registered with the `refresh_token` grant: redeem it at `/oauth/token`
   * with `grant_type=refresh_token`; every use returns a new one (rotation).
   */
  refresh_token?: string;
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
