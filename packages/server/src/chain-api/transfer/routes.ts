import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";

/**
 * `POST /v1/token/transfer` (spec 4.5): an ERC-20 transfer from one of the bearer token's user's
 * wallets (user wallet or slot wallet; any other from_address is 403 not_owner), signed with the
 * owner key restored from the PIN shares that travel with the request (pin_hash, key_share_user) and
 * sponsored by the platform's paymaster.
 */
export function transferRoutes(services: Services): Router {
  const router = Router();
  mountEndpoint(router, services, ENDPOINTS.tokenTransfer, { chain: true }, (input, { chain, claims, write }) =>
    chain.transferToken(Number(claims!.sub), input, write),
  );
  return router;
}
