import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";
import { withTransferHold } from "../../status/listing-lock.js";

/**
 * `POST /idex-platform/exchange_token_owner` (spec 4.9): the current owner (`from_uuid`, who must be
 * the bearer token's user) gives slot `meta_idx` of `cu_id` to `to_uuid`'s wallet, with one sponsored
 * UserOperation signed by the owner key restored from the PIN shares in the body. The chain service
 * accepts `state`, the request's one-time session state token, once per owner (409 replayed_message
 * after), so a replayed or retried request never moves a slot twice. The listing lock: refused with
 * 409 `logout_required` while the seller is logged in at the game that registered `cu_id`, and the
 * seller's status login is refused while the sale's chain write is in flight (`withTransferHold`).
 */
export function slotExchangeRoutes(services: Services): Router {
  const router = Router();
  mountEndpoint(router, services, ENDPOINTS.exchangeTokenOwner, { chain: true }, (input, { chain, write }) =>
    withTransferHold(services, { userId: input.from_uuid, cuid: input.cu_id }, () => chain.exchangeSlotOwner(input, write)),
  );
  return router;
}
