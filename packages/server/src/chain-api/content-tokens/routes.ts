import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";

/**
 * The content-token endpoints (spec 4.7, 4.8) under `/v1/development-api`. Every call but
 * `balance_adex` authenticates the provider's backend with HTTP Basic client credentials; a body
 * `client_id` must be the authenticated client's. `increase_used_content_token` is decrypted with the
 * client's own AES key and IV, so only the provider's backend (which holds the client secret and the
 * key) can record spending. `spend_protection` (Slotgate extension) switches the provider's opt-in
 * replay protection. Balances are read from the chain.
 */
export function contentTokenRoutes(services: Services): Router {
  const router = Router();
  const chain = { chain: true };
  mountEndpoint(router, services, ENDPOINTS.initPermissionProvider, chain, (input, caller) => caller.chain.initPermissionProvider(input, caller.write));
  mountEndpoint(router, services, ENDPOINTS.userBuyContentToken, chain, (input, caller) => caller.chain.buyContentToken(input, caller.write));
  mountEndpoint(router, services, ENDPOINTS.increaseUsedContentToken, chain, (input, caller) =>
    caller.chain.increaseUsed(caller.client!.client_id, input, caller.write),
  );
  mountEndpoint(router, services, ENDPOINTS.releaseUsedBalance, chain, (input, caller) => caller.chain.release(input, caller.write));
  mountEndpoint(router, services, ENDPOINTS.testEncryption, chain, (input, caller) => caller.chain.testEncryption(input));
  mountEndpoint(router, services, ENDPOINTS.spendProtection, chain, async ({ client_id, enabled }, caller) => {
    await caller.chain.setSpendReplayProtection(client_id, enabled);
    return { success: true as const, client_id, replay_protection: enabled };
  });
  mountEndpoint(router, services, ENDPOINTS.balanceAdex, chain, ({ slot, cuid }, caller) => caller.chain.balanceOf(slot, cuid));
  return router;
}
