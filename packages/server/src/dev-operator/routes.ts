import { isPendingWrite } from "@slotgate/protocol";
import { cuid, metaIdx, primitives } from "@slotgate/protocol/schemas";
import { Router } from "express";
import { z } from "zod";
import type { Services } from "../app/services.js";
import { chainRoute } from "../chain/chain-route.js";
import { SlotgateServerError } from "../http/errors.js";
import { findEndUserById } from "../storage/end-users.js";

/** Paths of the development-only operator routes (served on the development chain only, `CHAIN=anvil`). */
export const DEV_PATHS = {
  fundSlot: "/v1/dev/fund_slot",
  enableRelease: "/v1/dev/enable_release",
  registerSlot: "/v1/dev/register_slot",
} as const;

const fundSchema = z.strictObject({ client_id: primitives.text(128), user_id: primitives.userIdString, xotn: primitives.positiveUintString, cuid });
const releaseSchema = z.strictObject({ client_id: primitives.text(128).optional(), cuid, enabled: z.boolean().optional() });
const slotSchema = z.strictObject({ client_id: primitives.text(128), cuid, meta_idx: metaIdx, user_id: primitives.userIdString });

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
  const client = { caller: "client" as const };
  router.post(
    DEV_PATHS.fundSlot,
    ...chainRoute(services, { ...client, schema: fundSchema, actor: (body) => body.client_id }, async ({ chain, body }) => {
      await endUser(services, body.user_id);
      const funded = await chain.devFundSlot({ user_uuid: Number(body.user_id), xotn: body.xotn, cuid: body.cuid, client_id: body.client_id });
      return { success: true, slot: funded.address, xotn: body.xotn, cuid: body.cuid };
    }),
  );
  router.post(
    DEV_PATHS.enableRelease,
    ...chainRoute(services, { ...client, schema: releaseSchema, actor: (body) => body.client_id }, async ({ chain, body, write }) => {
      const result = await chain.enableRelease(body.cuid, body.enabled ?? true, write);
      if (isPendingWrite(result)) return result;
      return { success: true, cuid: body.cuid, enabled: body.enabled ?? true, tx_hash: result.tx_hash };
    }),
  );
  router.post(
    DEV_PATHS.registerSlot,
    ...chainRoute(services, { ...client, schema: slotSchema, actor: (body) => body.client_id }, async ({ chain, body, write }) => {
      await endUser(services, body.user_id);
      await chain.provisionWallet(Number(body.user_id));
      const result = await chain.registerSlot({ cuid: body.cuid, meta_idx: body.meta_idx, user_uuid: Number(body.user_id) }, write);
      if (isPendingWrite(result)) return result;
      return { success: true, cuid: body.cuid, meta_idx: body.meta_idx, owner: result.owner, tx_hash: result.tx_hash };
    }),
  );
  return router;
}
