import type { AuthorizationStatus, RevokeResponse, StatusCheckResponse, StatusLoginResponse, StatusLogoutResponse, ValidateResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../platform/app/services.js";
import { mountEndpoint } from "../platform/http/mount-endpoint.js";
import { serviceRateLimit } from "../platform/http/rate-limit.js";
import type { BearerClaims } from "../oauth/keys/tokens.js";
import { getLoginStatus } from "./login-status-store.js";
import { endRefreshFamily } from "../oauth/token/refresh-tokens.js";
import { settleTransferHold, transferInProgress } from "./listing-lock.js";
import { StatusBatcher } from "./status-batcher.js";
import { findEndUserById } from "../identity/users/end-users-store.js";
import { SlotgateServerError } from "../platform/http/errors.js";

const MARKETPLACE_MAX_ATTEMPTS = 15;

/**
 * Token validation and revocation, the login-status sync (spec 4.6, 4.6a) and the marketplace's
 * listing check.
 */
export function statusRoutes(services: Services): Router {
  const router = Router();
  const limit = serviceRateLimit(services, "status", services.config.rateLimit.statusPerMinute);
  const statuses = new StatusBatcher(services.db, { marketplaceUrl: services.config.marketplaceUrl, maxAttempts: MARKETPLACE_MAX_ATTEMPTS });

  mountEndpoint(
    router,
    services,
    ENDPOINTS.validate,
    {},
    async (_input, { claims }): Promise<ValidateResponse> => ({
      success: true,
      valid: true,
      user_id: claims!.sub,
      client_id: claims!.client_id,
      token_use: claims!.token_use,
      expires_at: new Date(claims!.exp * 1000).toISOString(),
    }),
  );

  mountEndpoint(router, services, ENDPOINTS.userinfo, {}, async (_input, { claims }) => {
    const user = await findEndUserById(services.db, claims!.sub);
    // A verified token of an account that no longer exists names nobody: the token is as good as revoked.
    if (!user) throw new SlotgateServerError("invalid_token");
    return { success: true as const, sub: user.id, nickname: user.nickname };
  });

  mountEndpoint(router, services, ENDPOINTS.revoke, { before: [limit] }, async (_input, { claims }): Promise<RevokeResponse> => {
    await services.revocations.revoke(claims!.jti, new Date(claims!.exp * 1000), "revoked_by_holder");
    if (claims!.sid) await endRefreshFamily(services, claims!.sid, "revoked_by_holder", true);
    return { success: true, revoked: true };
  });

  /** Records a login or logout of the bearer token's user at its client. */
  const update = async (status: AuthorizationStatus, input: { user_id: string; client_id: string }, claims: BearerClaims): Promise<Date> => {
    const change = { userId: input.user_id, clientId: input.client_id, status };
    let write = await statuses.set(change);
    // The listing lock: a login meets the hold of a sale in flight. Ended when that sale settled, else 409.
    if (!write.stored && (await settleTransferHold(services, change, write.hold))) write = await statuses.set(change);
    if (!write.stored) throw transferInProgress(write.hold.until);
    // Logout ends the refresh-token family; the access token in hand stays valid until it expires (status check after logout).
    if (status === "logged_out" && claims.sid) await endRefreshFamily(services, claims.sid, "logout", false);
    services.outbox.kick();
    return write.at;
  };
  mountEndpoint(router, services, ENDPOINTS.statusLogin, { before: [limit] }, async (input, { claims }): Promise<StatusLoginResponse> => {
    const at = await update("logged_in", input, claims!);
    return { success: true, message: "Login status recorded.", user_id: input.user_id, status: "logged_in", timestamp: at.toISOString() };
  });
  mountEndpoint(router, services, ENDPOINTS.statusLogout, { before: [limit] }, async (input, { claims }): Promise<StatusLogoutResponse> => {
    const at = await update("logged_out", input, claims!);
    return {
      success: true,
      message: "Logout recorded; the authorization may now be listed for transfer.",
      user_id: input.user_id,
      status: "logged_out",
      transfer_enabled: true,
      timestamp: at.toISOString(),
    };
  });

  mountEndpoint(router, services, ENDPOINTS.statusCheck, { before: [limit] }, async ({ user_id, client_id }): Promise<StatusCheckResponse> => {
    const row = await getLoginStatus(services.db, user_id, client_id);
    const status = row?.status ?? "logged_out";
    return {
      success: true,
      user_id,
      client_id,
      status,
      transfer_enabled: status === "logged_out",
      timestamp: row ? new Date(row.updated_at).toISOString() : null,
    };
  });

  mountEndpoint(router, services, ENDPOINTS.listingAllowed, {}, async ({ user_id, client_id }) => {
    const row = await getLoginStatus(services.db, user_id, client_id);
    const status = row?.status ?? "logged_out";
    return { success: true as const, user_id, client_id, status, listing_allowed: status === "logged_out" };
  });

  return router;
}
