import type { GrantType } from "../grant-types.js";

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
  /** Exact redirect URIs; loopback URIs have the form `http://127.0.0.1:{port}/callback`. */
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
}

/** A registered client application, as the developer center lists it (never with its secret). */
export interface ClientApplication {
  client_id: string;
  name: string;
  redirect_uris: string[];
  download_url: string;
  web_url: string;
  platform: PlatformType;
  blockchain: boolean;
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
