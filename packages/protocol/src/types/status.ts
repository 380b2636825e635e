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
