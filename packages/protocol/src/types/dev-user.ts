import type { GrantType } from "../grant-types.js";
import type { TokenEndpointAuthMethod } from "../redirect-uris.js";

/** Body of `POST /v1/dev-user/login_devuser` and `POST /v1/dev-user/signup` (spec 4.1). */
export interface DevUserCredentials {
  email: string;
  password: string;
}

/** Developer-user login result (spec 2.1). */
export interface DevUserLoginResponse {
  success: true;
  /** JWT for later developer-center requests (`Authorization: Bearer`). */
  token: string;
  /** Developer user identifier. */
  uuid: string;
}

/** Platform type of a client application (spec 5.2). */
export type PlatformType = "web" | "desktop" | "game";

/** Body of `POST /v1/dev-user/clients`: registers a client application. */
export interface ClientRegistrationRequest {
  name: string;
  /**
   * Exact redirect URIs. A public client (`token_endpoint_auth_method: "none"`) registers loopback IP URIs
   * only, best without a port (`http://127.0.0.1/callback`): any port is then accepted (RFC 8252 section 7.3).
   */
  redirect_uris: string[];
  /** Download URL of the app (required by validation, spec 5.2). */
  download_url: string;
  /** Web application URL (required by validation, spec 5.2). */
  web_url: string;
  platform: PlatformType;
  /** Whether the content needs blockchain authorization (adds `content_address`). */
  blockchain: boolean;
  /**
   * Grants the client may use (RFC 7591 naming): `authorization_code` always, plus opt-in
   * `refresh_token` (refresh tokens from the code exchange) and
   * `urn:ietf:params:oauth:grant-type:device_code` (device login, RFC 8628).
   * @default ["authorization_code"]
   */
  grant_types?: GrantType[];
  /**
   * `none` registers a public native client (a game or desktop build): no secret is issued, its redirect
   * URIs must be loopback IP URIs, it may not use `refresh_token`, and it redeems its codes at
   * `/oauth/token` with a PKCE S256 `code_verifier` instead of a secret (RFC 8252, RFC 7636).
   * @default "client_secret_basic"
   */
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
}

/** A registered client application, as the developer center lists it (never with its secret): what was registered, and its state. */
export interface ClientApplication extends Omit<ClientRegistrationRequest, "grant_types"> {
  client_id: string;
  /** Grants the client may use; always contains `authorization_code`. */
  grant_types: GrantType[];
  created_at: string;
  /** Whether the client is switched off (no sign-ins, no client authentication). Absent on older services. */
  disabled?: boolean;
  /** Until when the secret before the last rotation still works; null when it no longer does. */
  previous_secret_valid_until?: string | null;
}

/** Answer to a registration: the only time `client_secret` is ever shown. */
export interface ClientRegistrationResponse extends ClientApplication {
  success: true;
  client_secret: string;
}

/** Answer to the registration of a public client (`token_endpoint_auth_method: "none"`): no secret exists (RFC 7591 section 3.2.1). */
export interface PublicClientRegistrationResponse extends ClientApplication {
  success: true;
  token_endpoint_auth_method: "none";
}

/**
 * Body of `PATCH /v1/dev-user/clients/{client_id}`: the fields to change (at least one). Redirect URIs
 * replace the whole list and are checked as at registration (exact match later).
 */
export interface ClientUpdateRequest {
  name?: string;
  redirect_uris?: string[];
  download_url?: string;
  web_url?: string;
}

/** Answer to `POST /v1/dev-user/clients/{client_id}/secret`: the new secret, shown once. */
export interface ClientSecretRotationResponse extends ClientApplication {
  success: true;
  client_secret: string;
}

/** One entry of a client's audit list (`GET /v1/dev-user/clients/{client_id}/audit`). */
export interface ClientAuditEntry {
  /** Who made the change: the developer's email, or `cli` for the operator's command line. */
  actor: string;
  /** What happened, e.g. `client.registered`, `client.updated`, `secret.rotated`, `client.disabled`. */
  action: string;
  /** The change (e.g. old and new redirect URIs); never a secret. */
  detail: Record<string, unknown>;
  /** When (ISO 8601). */
  at: string;
}

/** Kind of a message the service sends on an application's behalf. */
export type DeliveryKind = "authorize_callback" | "marketplace_webhook";

/** One delivery of the service to an application's endpoints (`GET /v1/dev-user/clients/{client_id}/deliveries`). */
export interface Delivery {
  id: string;
  kind: DeliveryKind;
  /** Where it goes, without query string (a callback's query carries the one-time code). */
  target: string | null;
  /** `pending` (waiting or retrying), `delivered`, or `failed` (given up). */
  status: "pending" | "delivered" | "failed";
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  created_at: string;
}
