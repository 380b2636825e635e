import { PATHS, type SlotActivateResponse, type SlotListResponse, type SlotResponse } from "@slotgate/protocol";
import { slotActivateSchema, slotListQuerySchema, slotOpenSchema, slotParamsSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { chainRoute } from "../chain/chain-route.js";
import { rateLimit } from "../http/rate-limit.js";
import { singleValued } from "../http/validate.js";
import { assertLoggedOut } from "../status/listing-lock.js";

const CORS_ANY = { "Access-Control-Allow-Origin": "*" };

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

  router.get(
    PATHS.slots,
    ...chainRoute(
      services,
      { caller: "user", schema: slotListQuerySchema, input: (req) => singleValued(req.query, ["cu_id"]) },
      async ({ chain, body, claims }): Promise<SlotListResponse> => ({ success: true, slots: await chain.listSlots(Number(claims!.sub), body.cu_id) }),
    ),
  );
  router.post(
    PATHS.slots,
    ...chainRoute(services, { caller: "user", schema: slotOpenSchema, guards: [perAccount] }, async ({ chain, body, claims, res }): Promise<SlotResponse> => {
      const slot = await chain.openSlot(Number(claims!.sub), body.cu_id);
      res.status(201);
      return { success: true, slot };
    }),
  );
  router.post(
    PATHS.slotActivate,
    ...chainRoute(services, { caller: "user", schema: slotActivateSchema, guards: [perAccount] }, async ({ chain, body, claims }): Promise<SlotActivateResponse> => {
      await assertLoggedOut(services, { userId: claims!.sub, cuid: body.cu_id });
      return { success: true, active: await chain.activateSlot(Number(claims!.sub), body.cu_id, body.meta_idx) };
    }),
  );

  const slotPath = PATHS.slot;
  router.options(slotPath, (_req: Request, res: Response) => {
    res.set({ ...CORS_ANY, "Access-Control-Allow-Methods": "GET, OPTIONS", "Access-Control-Max-Age": "600" });
    res.status(204).end();
  });
  router.get(
    slotPath,
    ...chainRoute(
      services,
      { caller: "public", schema: slotParamsSchema, input: (req) => ({ cu_id: req.params["cu_id"], meta_idx: req.params["meta_idx"] }) },
      async ({ chain, body, res }): Promise<SlotResponse> => {
        res.set(CORS_ANY);
        return { success: true, slot: await chain.slotInfo(body.cu_id, body.meta_idx) };
      },
    ),
  );
  return router;
}
