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
import { chainRoute } from "../chain/chain-route.js";
import { singleValued } from "../http/validate.js";

/** `POST /v1/development-api/spend_protection` (Slotgate extension): the provider's opt-in replay protection. */
export const SPEND_PROTECTION_PATH = "/v1/development-api/spend_protection";
const spendProtectionSchema = z.strictObject({ client_id: primitives.text(128), enabled: z.boolean() });
const balanceParamsSchema = z.strictObject({ slot: primitives.address, cuid: cuid.optional() });

const CORS_ANY = { "Access-Control-Allow-Origin": "*" };

/**
 * The content-token endpoints (spec 4.7, 4.8) under `/v1/development-api`. Every call but
 * `balance_adex` authenticates the provider's backend with HTTP Basic client credentials; a body
 * `client_id` must be the authenticated client's. `increase_used_content_token` is decrypted with the
 * client's own AES key and IV, so only the provider's backend (which holds the client secret and the
 * key) can record spending. Balances are read from the chain.
 */
export function contentTokenRoutes(services: Services): Router {
  const router = Router();
  const provider = { caller: "client" as const, actor: (body: { client_id: string }) => body.client_id };

  router.post(
    PATHS.initPermissionProvider,
    ...chainRoute(services, { ...provider, schema: initPermissionProviderSchema }, ({ chain, body, write }) => chain.initPermissionProvider(body, write)),
  );
  router.post(
    PATHS.userBuyContentToken,
    ...chainRoute(services, { ...provider, schema: userBuyContentTokenSchema }, ({ chain, body, write }) => chain.buyContentToken(body, write)),
  );
  router.post(
    PATHS.increaseUsedContentToken,
    ...chainRoute(services, { caller: "client", schema: increaseUsedContentTokenSchema }, ({ chain, body, client, write }) =>
      chain.increaseUsed(client!.client_id, body, write),
    ),
  );
  router.post(
    PATHS.releaseUsedBalance,
    ...chainRoute(services, { ...provider, schema: releaseUsedBalanceSchema }, ({ chain, body, write }) => chain.release(body, write)),
  );
  router.post(
    PATHS.testEncryption,
    ...chainRoute(services, { ...provider, schema: testEncryptionSchema }, ({ chain, body }) => chain.testEncryption(body)),
  );
  router.post(
    SPEND_PROTECTION_PATH,
    ...chainRoute(services, { ...provider, schema: spendProtectionSchema }, async ({ chain, body }) => {
      await chain.setSpendReplayProtection(body.client_id, body.enabled);
      return { success: true, client_id: body.client_id, replay_protection: body.enabled };
    }),
  );

  router.options(`${PATHS.balanceAdex}/:slot`, (_req: Request, res: Response) => {
    res.set({ ...CORS_ANY, "Access-Control-Allow-Methods": "GET, OPTIONS", "Access-Control-Max-Age": "600" });
    res.status(204).end();
  });
  router.get(
    `${PATHS.balanceAdex}/:slot`,
    ...chainRoute(
      services,
      {
        caller: "public",
        schema: balanceParamsSchema,
        input: (req) => {
          const query = singleValued(req.query, ["cuid"]);
          return { slot: req.params["slot"], ...(query["cuid"] === undefined ? {} : { cuid: query["cuid"] }) };
        },
      },
      ({ chain, body, res }) => {
        res.set(CORS_ANY);
        return chain.balanceOf(body.slot, body.cuid);
      },
    ),
  );
  return router;
}
