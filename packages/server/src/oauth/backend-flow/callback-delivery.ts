import { type OutboxSeal, SealOpenError } from "../../status/outbox/seal.js";
import { type DeliveryResult, postOnce, requestIdHeader, type TopicHandler } from "../../status/outbox/worker.js";
import type { OutboxRow } from "../../status/outbox/outbox-store.js";

/** Outbox topic of the backend SDK's authorize callback (spec 4.4 step 2). */
export const META_CALLBACK_TOPIC = "oauth_meta.callback";

/** Builds `{redirect_uri}?state=…&success=1`, keeping any query the registered URI has; absent values are left out. */
function callbackUrl(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}

/**
 * The outbox message of a backend callback: the stored target URL carries `state` and `success`;
 * the one-time `code` is sealed with the server key (`sealedQuery`), so the database never holds it
 * in clear. {@link metaCallbackHandler} opens it at delivery.
 *
 * @example
 * ```ts
 * await enqueue(db, { topic: META_CALLBACK_TOPIC, ...sealedCallback(seal, redirectUri, code, state), payload, maxAttempts: 6 });
 * ```
 */
export function sealedCallback(seal: OutboxSeal, redirectUri: string, code: string, state: string): { targetUrl: string; sealedQuery: string } {
  const targetUrl = callbackUrl(redirectUri, { state, success: "1" });
  return { targetUrl, sealedQuery: seal.seal({ code }, targetUrl) };
}

/** The URL a callback is POSTed to: the stored target with the sealed parameters (the code) opened and appended. */
export function deliveredCallbackUrl(seal: OutboxSeal, message: Pick<OutboxRow, "target_url" | "sealed_query">): string {
  if (!message.target_url) throw new Error("callback without a target URL");
  return message.sealed_query ? callbackUrl(message.target_url, seal.open(message.sealed_query, message.target_url)) : message.target_url;
}

/**
 * Delivers the server-to-server POST to the backend's registered redirect URI (the URL was
 * checked against the registration before it was enqueued), with the sealed code opened only for
 * the request. 6 attempts, backoff 0.25 s doubling: all within the backend SDK's 15 s wait.
 */
export function metaCallbackHandler(options: { seal: OutboxSeal; timeoutMs?: number }): TopicHandler {
  return {
    topic: META_CALLBACK_TOPIC,
    enabled: () => true,
    backoffSeconds: (attempt) => 0.25 * 2 ** (attempt - 1),
    async deliver(message: OutboxRow): Promise<DeliveryResult> {
      if (!message.target_url) return { ok: false, error: "no target", retryable: false };
      let url: string;
      try {
        url = deliveredCallbackUrl(options.seal, message);
      } catch (error) {
        if (error instanceof SealOpenError) return { ok: false, error: "sealed code cannot be opened with this server's key", retryable: false };
        throw error;
      }
      return postOnce(url, { timeoutMs: options.timeoutMs ?? 4000, headers: { "Content-Length": "0", ...requestIdHeader(message) }, body: "" });
    },
  };
}
