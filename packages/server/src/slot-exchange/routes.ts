import { PATHS } from "@slotgate/protocol";
import { exchangeTokenOwnerSchema } from "@slotgate/protocol/schemas";
import { Router } from "express";
import type { Services } from "../app/services.js";
import { chainRoute } from "../chain/chain-route.js";

/**
 * `POST /idex-platform/exchange_token_owner` (spec 4.9): the current owner (`from_uuid`, who must be
 * the bearer token's user) gives slot `meta_idx` of `cu_id` to `to_uuid`'s wallet, with one sponsored
 * UserOperation signed by the owner key restored from the PIN shares in the body. The chain service
 * accepts `state`, the request's one-time session state token, once per owner (409 replayed_message
 * after), so a replayed or retried request never moves a slot twice.
 */
export function slotExchangeRoutes(services: Services): Router {
  const router = Router();
  router.post(
    PATHS.exchangeTokenOwner,
    ...chainRoute(services, { caller: "user", schema: exchangeTokenOwnerSchema, actor: (body) => body.from_uuid }, ({ chain, body, write }) =>
      chain.exchangeSlotOwner(body, write),
    ),
  );
  return router;
}
