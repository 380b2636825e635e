import { isSlotgateBackendError, verifyWebhook } from "@slotgate/backend-sdk";
import type { Database } from "@slotgate/storage";
import { type RequestHandler, raw } from "express";
import { cuidsOf } from "../config.js";
import { recordStatusEvent } from "../storage/seller-status.js";

/** Path the service's `MARKETPLACE_URL` points at. */
export const WEBHOOK_PATH = "/webhooks/slotgate";

/** Options of {@link loginStatusWebhook}. */
export interface LoginStatusWebhookOptions {
  db: Database;
  /** `MARKETPLACE_SECRET`. */
  secret: string;
  /** The traded games: cuid → the client_id that registered it. */
  games: ReadonlyMap<string, string>;
  /** Accepted signature age, seconds. @default 300 */
  toleranceSeconds?: number;
  /** The clock (milliseconds). @default Date.now */
  now?: () => number;
}

/**
 * The receiver of the service's signed login-status webhooks (`login_status.changed`), mounted on
 * {@link WEBHOOK_PATH}: reads the raw body, checks `Slotgate-Signature` and its time window with
 * `verifyWebhook`, and the `Slotgate-Event-Id` header against the body; then records the event once
 * (by id), keeps the newest status per (user, client) and withdraws a seller's listings on `logged_in`.
 * Answers 200 `{ received, outcome, withdrawn }` for every verified event (a duplicate or a late one
 * too: the service must stop retrying it), 400 `{ error }` for a refused one.
 *
 * @example
 * ```ts
 * app.post(WEBHOOK_PATH, ...loginStatusWebhook({ db, secret: config.marketplaceSecret, games: config.games }));
 * ```
 */
export function loginStatusWebhook(options: LoginStatusWebhookOptions): RequestHandler[] {
  const verify = { secret: options.secret, toleranceSeconds: options.toleranceSeconds ?? 300, ...(options.now ? { now: options.now } : {}) };
  return [
    raw({ type: () => true, limit: "16kb" }),
    async (req, res) => {
      const body: unknown = req.body;
      if (!Buffer.isBuffer(body)) {
        res.status(400).json({ error: "webhook_payload_invalid", message: "Send the event as the request body." });
        return;
      }
      let event: Awaited<ReturnType<typeof verifyWebhook>>;
      try {
        event = await verifyWebhook(body, req.get("Slotgate-Signature"), verify);
      } catch (error) {
        if (!isSlotgateBackendError(error)) throw error;
        res.status(400).json({ error: error.code, message: error.message });
        return;
      }
      const headerId = req.get("Slotgate-Event-Id");
      if (headerId !== undefined && headerId !== event.id) {
        res.status(400).json({ error: "webhook_payload_invalid", message: "Slotgate-Event-Id does not match the event's id." });
        return;
      }
      const recorded = await recordStatusEvent(options.db, event, cuidsOf(options.games, event.client_id));
      res.json({ received: true, ...recorded });
    },
  ];
}
