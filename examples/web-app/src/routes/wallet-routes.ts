import { SlotgateApi, SlotgateBackendError } from "@slotgate/backend-sdk";
import { type Router, json, Router as createRouter } from "express";
import type { DemoConfig } from "../config.js";
import { DemoStepError, sendError } from "../errors.js";
import type { SessionStore } from "../sessions.js";
import { requireSlot } from "./session-routes.js";

const AMOUNT = /^[1-9]\d{0,29}$/;

/** A backend-SDK failure as the demo shows it: the service's code and message. */
function stepError(error: unknown): unknown {
  if (!(error instanceof SlotgateBackendError) || error.code !== "service_error") return error;
  const status = error.serviceStatus ?? 502;
  return new DemoStepError(error.error ?? "service_error", status >= 500 ? 502 : status, error.serviceMessage ?? `HTTP ${status}`);
}

/**
 * The player's purchase consent, given in the Slotgate wallet window (issue 31): this back end asks the service for an
 * `approve_purchases` confirmation of the demo's cuid with its client credentials and answers what the page opens the
 * window with (`SlotgateWallet.approvePurchases`); afterwards it reads the outcome from the service, never from the
 * page's message. The PIN and the key share never reach this app.
 *
 * @example
 * ```ts
 * app.use("/api/wallet", walletRoutes(config, redirectUri, sessions));
 * ```
 */
export function walletRoutes(config: DemoConfig, redirectUri: string, sessions: SessionStore): Router {
  const router = createRouter();
  const api = new SlotgateApi({ authServerUrl: config.slotgateUrl });
  const client = { clientId: config.clientId, clientSecret: config.clientSecret };
  router.use(json({ limit: "16kb" }));

  router.post("/approve-purchases", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session);
      const amount = (req.body as { amount?: unknown } | undefined)?.amount;
      if (typeof amount !== "string" || !AMOUNT.test(amount))
        throw new DemoStepError("invalid_amount", 400, 'amount must be a positive integer string of wei, e.g. "1000"');
      const created = await api
        .call(
          "createWalletConfirmation",
          { user_uuid: Number(slot.id), redirect_uri: redirectUri, request: { kind: "approve_purchases", cuid: config.cuid, amount } },
          client,
        )
        .catch((error: unknown) => {
          throw stepError(error);
        });
      res.json({ id: created.id, kind: created.kind, window_url: created.window_url });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.get("/confirmations/:id", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      requireSlot(session, false);
      const outcome = await api.call("getWalletConfirmation", { confirmation_id: req.params["id"] ?? "" }, client).catch((error: unknown) => {
        throw stepError(error);
      });
      res.json({ confirmation: outcome });
    } catch (err) {
      sendError(res, err);
    }
  });

  return router;
}
