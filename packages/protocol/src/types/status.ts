/** Authorization status of a user's authorization (spec 3.1). */
export type AuthorizationStatus = "logged_in" | "logged_out";

/** Body of `POST /v1/oauth/status/login` and `/logout` (spec 4.6). */
export interface StatusUpdateRequest {
  user_id: string;
  client_id: string;
}

/** Answer of `POST /v1/oauth/status/login`. */
export interface StatusLoginResponse {
  success: true;
  message: string;
  user_id: string;
  status: "logged_in";
  /** ISO 8601 UTC time of the update. */
  timestamp: string;
}

/** Answer of `POST /v1/oauth/status/logout`. */
export interface StatusLogoutResponse {
  success: true;
  message: string;
  user_id: string;
  status: "logged_out";
  /** Always true after logout: listing on the marketplace becomes possible. */
  transfer_enabled: boolean;
  timestamp: string;
}

/** Query of `GET /v1/oauth/status/check` (method and shape decided by Slotgate). */
export interface StatusCheckQuery {
  user_id: string;
  client_id: string;
}

/** Answer of `GET /v1/oauth/status/check` (spec 2.4). */
export interface StatusCheckResponse {
  success: true;
  user_id: string;
  client_id: string;
  /** `logged_out` when no status was ever recorded. */
  status: AuthorizationStatus;
  /** True exactly when `status` is `logged_out`. */
  transfer_enabled: boolean;
  /** ISO 8601 time of the last update, or null when none was recorded. */
  timestamp: string | null;
}

/**
 * The body of a login-status webhook (`POST` to the marketplace's `MARKETPLACE_URL`), signed in the
 * `Slotgate-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`).
 * Deliveries are at least once and may arrive late or out of order: deduplicate by `id` and keep, per
 * (`user_id`, `client_id`), the event with the latest `timestamp`.
 */
export interface LoginStatusWebhookEvent {
  /** The event's id (also in the `Slotgate-Event-Id` header): the same for every delivery of one change. */
  id: string;
  type: "login_status.changed";
  user_id: string;
  client_id: string;
  status: AuthorizationStatus;
  /** True exactly when `status` is `logged_out`: the slot may be listed. */
  transfer_enabled: boolean;
  /** ISO 8601 UTC time of the change (not of the delivery). */
  timestamp: string;
}
