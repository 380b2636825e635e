/** Query of `GET /v1/oauth-meta/authorize` (spec 4.4 step 1; shape decided by Slotgate). The user JWT travels as a bearer token. */
export interface MetaAuthorizeQuery {
  client_id: string;
  /** The backend's registered callback URI (the backend SDK's `redirectUri`). */
  redirect_uri: string;
  /** Correlates the callback with the waiting `getSlotInfo` call. */
  state: string;
}

/** Answer of `GET /v1/oauth-meta/authorize`: accepted; the callback follows. */
export interface MetaAuthorizeResponse {
  success: true;
  message: string;
}

/** Query string of the service's server-to-server POST to the backend's redirectUri (spec 4.4 step 2). */
export interface AuthorizeCallbackQuery {
  code: string;
  state: string;
  /** `1` on success. */
  success: string;
  /** On failure: a stable error code. */
  error?: string;
}

/** Body of `POST /v1/oauth-meta/get_token` (spec 4.4 step 3). */
export interface MetaGetTokenRequest {
  client_id: string;
  client_secret: string;
  code: string;
  redirect_uri: string;
}

/** Slot info (spec 2.3). */
export interface SlotInfo {
  /** Unique user/slot id. */
  id: string;
  access_token: string;
  /** The slot wallet address (empty string when the client is not blockchain-enabled). */
  content_address: string;
  /** Display nickname of the slot. */
  token_nickname: string;
  /** Number of ownership transfers of the slot. */
  tr_cnt: number;
  /** The authorization code that was exchanged. */
  code: string;
  /**
   * The cuid of the slot behind `content_address` (Slotgate extension, issue 16): the first cuid the
   * client registered. Absent when the client registered none (then `content_address` is the user's
   * C_SALT wallet and `tr_cnt` is 0).
   */
  cu_id?: string;
  /** The number of that slot within `cu_id` (present exactly when `cu_id` is). */
  meta_idx?: number;
  /** For clients registered with the `refresh_token` grant: the refresh token (server-side refresh, spec 9). */
  refresh_token?: string;
}

/** Answer of `POST /v1/oauth-meta/get_token`. */
export interface MetaGetTokenResponse extends SlotInfo {
  success: true;
  token_type: "Bearer";
  expires_in: number;
}
