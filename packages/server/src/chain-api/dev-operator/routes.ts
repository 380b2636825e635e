import { isPendingWrite } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";
import { findEndUserById } from "../../identity/users/end-users-store.js";

async function endUser(services: Services, id: string): Promise<void> {
  if (!(await findEndUserById(services.db, id))) throw new SlotgateServerError("slot_not_found", { message: "No end user with this user_id." });
}

/**
 * DEVELOPMENT ONLY, mounted only on the development chain (`CHAIN=anvil`, never with `RPC_URL`): platform-operator
 * actions the demo and local testing need while the development chain is managed by the server, where
 * the CLI cannot reach it. Any authenticated client (HTTP Basic) may call them.
 *
 * - `POST /v1/dev/fund_slot` `{ client_id, user_id, xotn, cuid }`: XOTN (wei) from the operator to the
 *   user's slot wallet, and the slot's purchase consent for `cuid` (a cuid of the calling client)
 *   raised by the same amount: what the user would grant with `approve_purchases`, for that provider
 *   only (the conformance suite's `fundSlot`).
 * - `POST /v1/dev/enable_release` `{ cuid, enabled? }`: sets the cuid's release flag (default true).
 * - `POST /v1/dev/register_slot` `{ client_id, cuid, meta_idx, user_id }`: records the user's wallet as
 *   owner of slot `meta_idx` (`buy_slot`), so `exchange_token_owner` has a slot to move.
 */
export function devOperatorRoutes(services: Services): Router {
  const router = Router();
  const chain = { chain: true };
  mountEndpoint(router, services, ENDPOINTS.devFundSlot, chain, async (input, caller) => {
    await endUser(services, input.user_id);
    const funded = await caller.chain.devFundSlot({ user_uuid: Number(input.user_id), xotn: input.xotn, cuid: input.cuid, client_id: input.client_id });
    return { success: true as const, slot: funded.address, xotn: input.xotn, cuid: input.cuid };
  });
  mountEndpoint(router, services, ENDPOINTS.devEnableRelease, chain, async (input, caller) => {
    const enabled = input.enabled ?? true;
    const result = await caller.chain.enableRelease(input.cuid, enabled, caller.write);
    return isPendingWrite(result) ? result : { success: true as const, cuid: input.cuid, enabled, tx_hash: result.tx_hash };
  });
  mountEndpoint(router, services, ENDPOINTS.devRegisterSlot, chain, async (input, caller) => {
    await endUser(services, input.user_id);
    await caller.chain.provisionWallet(Number(input.user_id));
    const result = await caller.chain.registerSlot({ cuid: input.cuid, meta_idx: input.meta_idx, user_uuid: Number(input.user_id) }, caller.write);
    return isPendingWrite(result)
      ? result
      : { success: true as const, cuid: input.cuid, meta_idx: input.meta_idx, owner: result.owner, tx_hash: result.tx_hash };
  });
  return router;
}
