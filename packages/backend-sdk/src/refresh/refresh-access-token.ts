import { GRANT_TYPES, PATHS } from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";
import { buildUrl, outcomeError, requestJson } from "../http/request.js";
import type { FetchLike } from "../options.js";

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
  fetch: FetchLike;
  authServerUrl: string;
  clientId: string;
  clientSecret: string;
}

function isRefreshed(body: Record<string, unknown>): boolean {
  return (
    typeof body.access_token === "string" &&
    typeof body.refresh_token === "string" &&
    typeof body.expires_in === "number" &&
    typeof body.user_id === "string" &&
    (body.content_address === undefined || typeof body.content_address === "string")
  );
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
  const out = await requestJson(ctx.fetch, buildUrl(ctx.authServerUrl, PATHS.token), {
    method: "POST",
    json: { grant_type: GRANT_TYPES.refreshToken, refresh_token: refreshToken, client_id: ctx.clientId, client_secret: ctx.clientSecret },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (out.kind !== "ok") throw outcomeError(out, out.kind === "error" && out.error === "invalid_grant" ? "refresh_rejected" : "service_error");
  if (!isRefreshed(out.body)) throw new SlotgateBackendError("invalid_response", { detail: "the answer lacks a token field", serviceStatus: out.status });
  const b = out.body;
  return {
    access_token: b.access_token as string,
    refresh_token: b.refresh_token as string,
    token_type: "Bearer",
    expires_in: b.expires_in as number,
    user_id: b.user_id as string,
    ...(typeof b.content_address === "string" ? { content_address: b.content_address } : {}),
  };
}
