import { cuid, primitives } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import type { Services } from "../app/services.js";
import { chainErrors } from "../chain/chain-errors.js";
import { chainOf } from "../chain/require-chain.js";
import { basicClient, requireSameClient } from "../content-token/client-basic.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { parseInput } from "../http/validate.js";
import { findEndUserById } from "../storage/end-users.js";

/** Paths of the development-only operator routes (served on the in-process chain only). */
export const DEV_PATHS = {
  fundSlot: "/v1/dev/fund_slot",
  enableRelease: "/v1/dev/enable_release",
  registerSlot: "/v1/dev/register_slot",
} as const;

const userId = z.string().regex(/^[1-9][0-9]{0,15}$/, "must be a user id (decimal)");
const fundSchema = z.strictObject({ client_id: primitives.text(128), user_id: userId, xotn: primitives.positiveUintString });
const releaseSchema = z.strictObject({ client_id: primitives.text(128).optional(), cuid, enabled: z.boolean().optional() });
const slotSchema = z.strictObject({ client_id: primitives.text(128), cuid, meta_idx: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), user_id: userId });

async function endUser(services: Services, id: string): Promise<void> {
  if (!(await findEndUserById(services.db, id))) throw new SlotgateServerError("slot_not_found", { message: "No end user with this user_id." });
}

/**
 * DEVELOPMENT ONLY, mounted only on the in-process chain (never with `RPC_URL`): platform-operator
 * actions the demo and local testing need while the chain lives inside the server process, where the
 * CLI cannot reach it. Any authenticated client (HTTP Basic) may call them.
 *
 * - `POST /v1/dev/fund_slot` `{ client_id, user_id, xotn }`: XOTN (wei) from the operator to the user's
 *   slot wallet plus the purchase allowance (the conformance suite's `fundSlot`).
 * - `POST /v1/dev/enable_release` `{ cuid, enabled? }`: sets the cuid's release flag (default true).
 * - `POST /v1/dev/register_slot` `{ client_id, cuid, meta_idx, user_id }`: records the user's wallet as
 *   owner of slot `meta_idx` (`buy_slot`), so `exchange_token_owner` has a slot to move.
 */
export function devOperatorRoutes(services: Services): Router {
  const router = Router();
  router.post(DEV_PATHS.fundSlot, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(fundSchema, req.body);
    requireSameClient(client, body.client_id);
    await endUser(services, body.user_id);
    const funded = await chain.devFundSlot({ user_uuid: Number(body.user_id), xotn: body.xotn });
    res.json({ success: true, slot: funded.address, xotn: body.xotn });
  });
  router.post(DEV_PATHS.enableRelease, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(releaseSchema, req.body);
    if (body.client_id !== undefined) requireSameClient(client, body.client_id);
    const result = await chain.enableRelease(body.cuid, body.enabled ?? true);
    res.json({ success: true, cuid: body.cuid, enabled: body.enabled ?? true, tx_hash: result.tx_hash });
  });
  router.post(DEV_PATHS.registerSlot, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(slotSchema, req.body);
    requireSameClient(client, body.client_id);
    await endUser(services, body.user_id);
    await chain.provisionWallet(Number(body.user_id));
    const result = await chain.registerSlot({ cuid: body.cuid, meta_idx: body.meta_idx, user_uuid: Number(body.user_id) });
    res.json({ success: true, cuid: body.cuid, meta_idx: body.meta_idx, owner: result.owner, tx_hash: result.tx_hash });
  });
  router.use(chainErrors);
  return router;
}
