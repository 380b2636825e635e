import { createHmac } from "node:crypto";
import { type DeliveryResult, postOnce, requestIdHeader, type TopicHandler } from "./outbox/worker.js";
import type { OutboxRow } from "./outbox/outbox-store.js";

/** Outbox topic of login-status changes. */
const MARKETPLACE_TOPIC = "marketplace.login_status";

/**
 * Signature header value of a webhook body: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`.
 *
 * @example
 * ```ts
 * const header = signWebhook(secret, body, Math.floor(Date.now() / 1000));
 * ```
 */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** Delivers login-status changes to the marketplace: up to 15 attempts, backoff base × 2^(n-1) (default 2 s) capped at 1 h. */
export function marketplaceHandler(options: { url: string | null; secret: string | null; timeoutMs?: number; retryBaseMs?: number }): TopicHandler {
  const base = (options.retryBaseMs ?? 2000) / 1000;
  return {
    topic: MARKETPLACE_TOPIC,
    enabled: () => Boolean(options.url && options.secret),
    backoffSeconds: (attempt) => Math.min(base * 2 ** (attempt - 1), 3600),
    async deliver(message: OutboxRow): Promise<DeliveryResult> {
      const body = JSON.stringify({ id: message.id, ...message.payload });
      const timestamp = Math.floor(Date.now() / 1000);
      const result = await postOnce(options.url!, {
        timeoutMs: options.timeoutMs ?? 5000,
        body,
        headers: {
          "Content-Type": "application/json",
          "Slotgate-Event-Id": message.id,
          "Slotgate-Event-Type": String(message.payload["type"] ?? "login_status.changed"),
          "Slotgate-Signature": signWebhook(options.secret!, body, timestamp),
          ...requestIdHeader(message),
        },
      });
      // The marketplace must hear of every change: retry every failure until max_attempts.
      return result.ok ? result : { ...result, retryable: true };
    },
  };
}
