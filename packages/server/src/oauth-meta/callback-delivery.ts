import { type DeliveryResult, postOnce, requestIdHeader, type TopicHandler } from "../outbox/worker.js";
import type { OutboxRow } from "../storage/outbox.js";

/** Outbox topic of the backend SDK's authorize callback (spec 4.4 step 2). */
export const META_CALLBACK_TOPIC = "oauth_meta.callback";

/** Builds `{redirect_uri}?code=…&state=…&success=1`, keeping any query the registered URI has. */
export function callbackUrl(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
  return url.toString();
}

/**
 * Delivers the server-to-server POST to the backend's registered redirect URI (the URL was
 * checked against the registration before it was enqueued). 6 attempts, backoff 0.25 s doubling:
 * all within the backend SDK's 15 s wait.
 */
export function metaCallbackHandler(options: { timeoutMs?: number } = {}): TopicHandler {
  return {
    topic: META_CALLBACK_TOPIC,
    enabled: () => true,
    backoffSeconds: (attempt) => 0.25 * 2 ** (attempt - 1),
    async deliver(message: OutboxRow): Promise<DeliveryResult> {
      if (!message.target_url) return { ok: false, error: "no target", retryable: false };
      return postOnce(message.target_url, { timeoutMs: options.timeoutMs ?? 4000, headers: { "Content-Length": "0", ...requestIdHeader(message) }, body: "" });
    },
  };
}
