import { createHash } from "node:crypto";
import { type ExchangeTokenOwnerResponse, PATHS } from "@slotgate/protocol";
import { exchangeTokenOwnerSchema, primitives } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { chainErrors } from "../chain/chain-errors.js";
import { bearerOf, chainOf, requireSameUser } from "../chain/require-chain.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { parseInput } from "../http/validate.js";
import { completeExchangeState, releaseExchangeState, reserveExchangeState } from "./exchange-states.js";

/** The spec's body plus the current owner's PIN shares (its owner key signs the UserOperation). */
const exchangeSchema = exchangeTokenOwnerSchema.extend({
  pin_hash: primitives.sha256Hex,
  pin_salt: primitives.pinSalt.optional(),
  key_share_user: primitives.keyShare,
});

/**
 * `POST /idex-platform/exchange_token_owner` (spec 4.9): the current owner (`from_uuid`, who must be
 * the bearer token's user) gives slot `meta_idx` of `cu_id` to `to_uuid`'s wallet, with one sponsored
 * UserOperation signed by the owner key restored from the PIN shares in the body. `state` is the
 * request's one-time session state token: accepted once per owner, so a replayed or retried request
 * never moves a slot twice (409 replayed_message); a failed exchange frees it for a retry.
 */
export function slotExchangeRoutes(services: Services): Router {
  const router = Router();
  router.post(PATHS.exchangeTokenOwner, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const claims = await bearerOf(services, req);
    const { pin_hash, pin_salt, key_share_user, ...body } = parseInput(exchangeSchema, req.body);
    requireSameUser(claims, body.from_uuid);
    if (!/^[1-9][0-9]{0,15}$/.test(body.to_uuid)) throw new SlotgateServerError("invalid_request", { message: "Invalid request: to_uuid must be a user id", details: [{ path: "to_uuid", message: "must be a user id (decimal)" }] });
    if (body.to_uuid === body.from_uuid) throw new SlotgateServerError("invalid_request", { message: "Invalid request: to_uuid must differ from from_uuid", details: [{ path: "to_uuid", message: "must differ from from_uuid" }] });
    const stateHash = createHash("sha256").update(body.state).digest("hex");
    if (!(await reserveExchangeState(services.db, body.from_uuid, stateHash))) {
      throw new SlotgateServerError("replayed_message", { message: "This state token was already used for a slot exchange; send a new one." });
    }
    let result: ExchangeTokenOwnerResponse;
    try {
      result = await chain.exchangeSlotOwner({ ...body, pin: { pin_hash, key_share_user, ...(pin_salt === undefined ? {} : { pin_salt }) } });
    } catch (error) {
      await releaseExchangeState(services.db, body.from_uuid, stateHash).catch(() => undefined);
      throw error;
    }
    await completeExchangeState(services.db, body.from_uuid, stateHash, result.tx_hash);
    res.setHeader("Cache-Control", "no-store");
    res.json(result);
  });
  router.use(chainErrors);
  return router;
}
