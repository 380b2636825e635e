import type { SlotActivateResponse, SlotListResponse, SlotResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";
import { rateLimit } from "../../platform/http/rate-limit.js";
import { assertLoggedOut } from "../../status/listing-lock.js";

/**
 * The slot endpoints (issue 16; spec 3.1 rule 2): a user's slots of a cuid, opening another one,
 * choosing the active one, and the public read of one slot. The user routes act for the bearer token's
 * user (user JWT or access token of any client); opening and activating share one per-account budget
 * (`RATE_LIMIT_SLOTS_PER_ACCOUNT_PER_MINUTE`: each opened slot costs the platform a chain write).
 * Activation is refused with 409 `logout_required` while the user is logged in at the game that
 * registered the cuid (the listing lock's `assertLoggedOut`).
 *
 * @example
 * ```ts
 * app.use(slotRoutes(services));
 * // GET  /v1/slots?cu_id=my-game             (bearer)  → { success, slots }
 * // POST /v1/slots { cu_id }                 (bearer)  → 201 { success, slot }
 * // POST /v1/slots/activate { cu_id, meta_idx } (bearer) → { success, active }
 * // GET  /v1/slots/my-game/0                 (public)  → { success, slot }
 * ```
 */
export function slotRoutes(services: Services): Router {
  const router = Router();
  const limits = services.config.rateLimit;
  const perAccount = rateLimit("slots-account", limits.slotsPerAccountPerMinute, limits.enabled, services.redis, limits.redisPrefix, {
    key: (_req, res) => String(res.locals["account"]),
  });

  mountEndpoint(
    router,
    services,
    ENDPOINTS.listSlots,
    { chain: true },
    async ({ cu_id }, { chain, claims }): Promise<SlotListResponse> => ({
      success: true,
      slots: await chain.listSlots(Number(claims!.sub), cu_id),
    }),
  );
  mountEndpoint(
    router,
    services,
    ENDPOINTS.openSlot,
    { chain: true, guards: [perAccount] },
    async ({ cu_id }, { chain, claims }): Promise<SlotResponse> => ({
      success: true,
      slot: await chain.openSlot(Number(claims!.sub), cu_id),
    }),
  );
  mountEndpoint(
    router,
    services,
    ENDPOINTS.activateSlot,
    { chain: true, guards: [perAccount] },
    async ({ cu_id, meta_idx }, { chain, claims }): Promise<SlotActivateResponse> => {
      await assertLoggedOut(services, { userId: claims!.sub, cuid: cu_id });
      return { success: true, active: await chain.activateSlot(Number(claims!.sub), cu_id, meta_idx) };
    },
  );
  mountEndpoint(
    router,
    services,
    ENDPOINTS.slot,
    { chain: true },
    async ({ cu_id, meta_idx }, { chain }): Promise<SlotResponse> => ({
      success: true,
      slot: await chain.slotInfo(cu_id, meta_idx),
    }),
  );
  return router;
}
