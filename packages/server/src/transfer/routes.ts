import { PATHS } from "@slotgate/protocol";
import { tokenTransferSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { chainErrors } from "../chain/chain-errors.js";
import { bearerOf, chainOf } from "../chain/require-chain.js";
import { jsonBody } from "../http/body.js";
import { parseInput } from "../http/validate.js";

/**
 * `POST /v1/token/transfer` (spec 4.5): an ERC-20 transfer from one of the bearer token's user's
 * wallets (user wallet or slot wallet; any other from_address is 403 not_owner), signed with the
 * owner key restored from the PIN shares that travel with the request (pin_hash, key_share_user) and
 * sponsored by the platform's paymaster.
 */
export function transferRoutes(services: Services): Router {
  const router = Router();
  router.post(PATHS.tokenTransfer, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const claims = await bearerOf(services, req);
    const body = parseInput(tokenTransferSchema, req.body);
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.transferToken(Number(claims.sub), body));
  });
  router.use(chainErrors);
  return router;
}
