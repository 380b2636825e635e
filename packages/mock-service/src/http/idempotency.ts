import { primitives } from "@slotgate/protocol/schemas";
import type { MockContext } from "../context.js";
import { HttpError } from "./http-error.js";

/** A remembered answer of a request sent with an `Idempotency-Key`. */
export interface RememberedAnswer {
  /** The request it answered (path and parsed input). */
  request: string;
  /** What a retry is answered: the first answer as `replay` made it. */
  answer: Promise<unknown>;
}

/** The request's `Idempotency-Key`, undefined when absent; a malformed key is 400 naming the header. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const header = request.headers.get("idempotency-key");
  if (header === null) return undefined;
  const key = primitives.idempotencyKey.safeParse(header);
  if (key.success) return key.data;
  const message = key.error.issues[0]?.message ?? "invalid";
  throw new HttpError("invalid_request", { message: `Idempotency-Key: ${message}`, details: [{ path: "Idempotency-Key", message }] });
}

/** One write of a caller under a key: `scope` names the caller, `fingerprint` the request. */
export interface KeyedWrite {
  scope: string;
  key: string | undefined;
  fingerprint: string;
}

/**
 * Runs a write under its `Idempotency-Key`, as the service does: without a key it simply runs; the
 * same key of the same caller with the same request answers the first answer again (also while the
 * first is in flight: its effect happens once); with another request, 422 `idempotency_key_reused`.
 * Refusals (a thrown error) are not remembered: they changed nothing, so the same request may be sent
 * again. `replay` turns the first answer into what a retry is answered (a secret shown once is left out).
 */
export function once<T>(ctx: MockContext, write: KeyedWrite, work: () => Promise<T>, replay: (first: T) => T = (first) => first): Promise<T> {
  if (write.key === undefined) return work();
  const id = `${write.scope}|${write.key}`;
  const earlier = ctx.state.idempotency.get(id);
  if (earlier !== undefined) {
    if (earlier.request !== write.fingerprint) return Promise.reject(new HttpError("idempotency_key_reused"));
    return earlier.answer as Promise<T>;
  }
  const answer = work();
  const remembered = answer.then(replay);
  const record: RememberedAnswer = { request: write.fingerprint, answer: remembered };
  // A refusal rejects `answer` (its caller answers it) and this copy too: only a retry in flight awaits it.
  remembered.catch(() => {
    if (ctx.state.idempotency.get(id) === record) ctx.state.idempotency.delete(id);
  });
  ctx.state.idempotency.set(id, record);
  return answer;
}
