import type { ContentTokenClient } from "@slotgate/backend-sdk";
import { type Router, json, Router as createRouter } from "express";
import type { DemoConfig } from "../config.js";
import { fundSlot } from "../dev-operator.js";
import { DemoStepError, sendError } from "../errors.js";
import type { SessionStore } from "../sessions.js";
import { requireSlot } from "./session-routes.js";

const AMOUNT = /^[1-9]\d{0,29}$/;

function amountOf(body: unknown): string {
  const amount = (body as { amount?: unknown } | undefined)?.amount;
  if (typeof amount !== "string" || !AMOUNT.test(amount))
    throw new DemoStepError("invalid_amount", 400, 'amount must be a positive integer string of wei, e.g. "100"');
  return amount;
}

/**
 * The provider's side of the content-token economy (spec 4.7, 4.8), all server side: the client
 * secret and the AES spend key never reach the browser.
 *
 * @example
 * ```ts
 * app.use("/api/tokens", tokenRoutes(config, new ContentTokenClient({ authServerUrl, clientId, clientSecret }), sessions));
 * ```
 */
export function tokenRoutes(config: DemoConfig, tokens: ContentTokenClient, sessions: SessionStore): Router {
  const router = createRouter();
  router.use(json({ limit: "16kb" }));

  // Step 4: buy content tokens for the player's slot (1 XOTN wei buys 1 unit; 15 % platform fee).
  // On the embedded chain a new slot has no XOTN: the demo first asks the dev faucet to fund it.
  router.post("/buy", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session);
      const amount = amountOf(req.body);
      const funded = await fundSlot(config, { userId: slot.id, xotn: amount, cuid: config.cuid });
      const purchase = await tokens.buy({ user_dbkey: slot.id, amount, cuid: config.cuid });
      res.json({ funded: funded.ok ? true : funded.message, purchase });
    } catch (err) {
      sendError(res, err);
    }
  });

  // Step 5: record spending with the encrypted message (AES-256-CTR under the client's key, built here).
  router.post("/spend", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session);
      const amount = amountOf(req.body);
      if (!config.spendKey)
        throw new DemoStepError(
          "no_spend_key",
          409,
          "No AES spend key (SLOTGATE_AES_KEY / SLOTGATE_AES_IV): the provider registration for this cuid did not happen; npm start's output says why.",
        );
      res.json({ spend: await tokens.increaseUsed({ user_dbkey: slot.id, amount, cuid: config.cuid }, config.spendKey) });
    } catch (err) {
      sendError(res, err);
    }
  });

  // Step 6: balances, read from the chain by the service.
  router.get("/balance", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session, false);
      res.json({ balance: await tokens.balance(slot.content_address, { cuid: config.cuid }) });
    } catch (err) {
      sendError(res, err);
    }
  });

  // Step 8: settle the slot's usage to the provider (needs release enabled for the cuid by the operator).
  router.post("/release", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session, false);
      res.json({ release: await tokens.release({ cuid: config.cuid, slot: slot.content_address }) });
    } catch (err) {
      sendError(res, err);
    }
  });

  return router;
}
