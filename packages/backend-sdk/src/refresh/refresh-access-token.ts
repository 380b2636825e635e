import { GRANT_TYPES } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { type ApiContext, callEndpoint } from "../api/call-endpoint.js";
import { SlotgateBackendError } from "../errors.js";
import { outcomeError } from "../http/request.js";

/** What {@link SlotgateBackend.refreshAccessToken} resolves to (the token endpoint's answer, spec 2.2). */
export interface RefreshedTokens {
  /** The new access token (`expires_in` seconds). */
  access_token: string;
  /** The NEW refresh token: store it in place of the one you sent, which is now used up. */
  refresh_token: string;
  token_type: "Bearer";
  /** Lifetime of `access_token` in seconds. */
  expires_in: number;
  user_id: string;
  /** Present for blockchain clients. */
  content_address?: string;
}

/** Options of {@link SlotgateBackend.refreshAccessToken}. */
export interface RefreshOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** What the refresh call needs. */
export interface RefreshContext {
  api: ApiContext;
  clientId: string;
  clientSecret: string;
}

/**
 * `POST /oauth/token` with `grant_type=refresh_token` (client_secret_post). The service rotates the
 * token on every use; a refused token (`invalid_grant`: expired, revoked, logged out or reused) is
 * `refresh_rejected`, and the user has to sign in again.
 */
export async function refreshAccessToken(ctx: RefreshContext, refreshToken: string, options: RefreshOptions = {}): Promise<RefreshedTokens> {
  if (typeof refreshToken !== "string" || refreshToken.trim() === "" || refreshToken.length > 256) {
    throw new SlotgateBackendError("invalid_argument", { detail: "refreshToken must be a non-empty string of at most 256 characters" });
  }
  const input = { grant_type: GRANT_TYPES.refreshToken, refresh_token: refreshToken, client_id: ctx.clientId, client_secret: ctx.clientSecret };
  const answer = await callEndpoint(ctx.api, ENDPOINTS.token, input, null, options.signal ? { signal: options.signal } : {}, (out) =>
    outcomeError(out, out.kind === "error" && out.error === "invalid_grant" ? "refresh_rejected" : "service_error"),
  );
  if (answer.refresh_token === undefined) throw new SlotgateBackendError("invalid_response", { detail: "the answer lacks a token field", serviceStatus: 200 });
  return {
    access_token: answer.access_token,
    refresh_token: answer.refresh_token,
    token_type: "Bearer",
    expires_in: answer.expires_in,
    user_id: answer.user_id,
    ...(answer.content_address === undefined ? {} : { content_address: answer.content_address }),
  };
}
