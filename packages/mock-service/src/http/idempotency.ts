import { primitives } from "@slotgate/protocol/schemas";
import type { MockContext } from "../context.js";
import { HttpError } from "./http-error.js";

/** A remembered answer of a request sent with an `Idempotency-Key`. */
export interface RememberedAnswer {
  /** The request it answered (path and parsed body). */
  request: string;
  answer: Promise<Response>;
}

/**
 * Runs a money endpoint under the request's `Idempotency-Key`, as the service does: a malformed key
 * is 400 naming the header; the same key of the same caller with the same request answers the first
 * answer again (its effect happened once); with another request, 422 `idempotency_key_reused`.
 * Refusals (4xx) are not remembered: they changed nothing, so the same request may be sent again.
 */
export function idempotent(ctx: MockContext, request: Request, scope: string, parsed: unknown, run: () => Promise<Response>): Promise<Response> {
  const header = request.headers.get("idempotency-key");
  if (header === null) return run();
  const key = primitives.idempotencyKey.safeParse(header);
  if (!key.success) {
    throw new HttpError("invalid_request", {
      message: `Idempotency-Key: ${key.error.issues[0]?.message ?? "invalid"}`,
      details: [{ path: "Idempotency-Key", message: key.error.issues[0]?.message ?? "invalid" }],
    });
  }
  const id = `${scope}|${key.data}`;
  const fingerprint = `${new URL(request.url).pathname} ${JSON.stringify(parsed)}`;
  const earlier = ctx.state.idempotency.get(id);
  if (earlier !== undefined) {
    if (earlier.request !== fingerprint) throw new HttpError("idempotency_key_reused");
    return earlier.answer.then((response) => response.clone());
  }
  const answer = run().then(
    (response) => {
      if (!response.ok) ctx.state.idempotency.delete(id);
      return response;
    },
    (error: unknown) => {
      ctx.state.idempotency.delete(id);
      throw error;
    },
  );
  const remembered = answer.then((response) => response.clone());
  // A refusal rejects `answer` (its caller answers it) and this copy too: only a retry in flight awaits it.
  remembered.catch(() => undefined);
  ctx.state.idempotency.set(id, { request: fingerprint, answer: remembered });
  return answer;
}
