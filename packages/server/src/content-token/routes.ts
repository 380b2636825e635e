import { PATHS } from "@slotgate/protocol";
import {
  cuid,
  increaseUsedContentTokenSchema,
  initPermissionProviderSchema,
  primitives,
  releaseUsedBalanceSchema,
  testEncryptionSchema,
  userBuyContentTokenSchema,
} from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import type { Services } from "../app/services.js";
import { chainErrors } from "../chain/chain-errors.js";
import { chainOf } from "../chain/require-chain.js";
import { jsonBody } from "../http/body.js";
import { parseInput, singleValued } from "../http/validate.js";
import { basicClient, requireSameClient } from "./client-basic.js";

/** `POST /v1/development-api/spend_protection` (Slotgate extension): the provider's opt-in replay protection. */
export const SPEND_PROTECTION_PATH = "/v1/development-api/spend_protection";
const spendProtectionSchema = z.strictObject({ client_id: primitives.text(128), enabled: z.boolean() });
const balanceParamsSchema = z.strictObject({ slot: primitives.address, cuid: cuid.optional() });

/**
 * The content-token endpoints (spec 4.7, 4.8) under `/v1/development-api`. Every call but
 * `balance_adex` authenticates the provider's backend with HTTP Basic client credentials; a body
 * `client_id` must be the authenticated client's. `increase_used_content_token` is decrypted with the
 * client's own AES key and IV, so only the provider's backend (which holds the client secret and the
 * key) can record spending. Balances are read from the chain.
 */
export function contentTokenRoutes(services: Services): Router {
  const router = Router();

  router.post(PATHS.initPermissionProvider, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(initPermissionProviderSchema, req.body);
    requireSameClient(client, body.client_id);
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.initPermissionProvider(body));
  });

  router.post(PATHS.userBuyContentToken, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(userBuyContentTokenSchema, req.body);
    requireSameClient(client, body.client_id);
    res.json(await chain.buyContentToken(body));
  });

  router.post(PATHS.increaseUsedContentToken, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(increaseUsedContentTokenSchema, req.body);
    res.json(await chain.increaseUsed(client.client_id, body));
  });

  router.post(PATHS.releaseUsedBalance, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(releaseUsedBalanceSchema, req.body);
    requireSameClient(client, body.client_id);
    res.json(await chain.release(body));
  });

  router.post(PATHS.testEncryption, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(testEncryptionSchema, req.body);
    requireSameClient(client, body.client_id);
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.testEncryption(body));
  });

  router.post(SPEND_PROTECTION_PATH, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const client = await basicClient(services, req);
    const body = parseInput(spendProtectionSchema, req.body);
    requireSameClient(client, body.client_id);
    await chain.setSpendReplayProtection(client.client_id, body.enabled);
    res.json({ success: true, client_id: client.client_id, replay_protection: body.enabled });
  });

  router.options(`${PATHS.balanceAdex}/:slot`, (_req: Request, res: Response) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Methods", "GET, OPTIONS");
    res.setHeader("Access-Control-Max-Age", "600");
    res.status(204).end();
  });
  router.get(`${PATHS.balanceAdex}/:slot`, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const query = singleValued(req.query, ["cuid"]);
    const params = parseInput(balanceParamsSchema, { slot: req.params["slot"], ...(query["cuid"] === undefined ? {} : { cuid: query["cuid"] }) });
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.balanceOf(params.slot, params.cuid));
  });

  router.use(chainErrors);
  return router;
}
