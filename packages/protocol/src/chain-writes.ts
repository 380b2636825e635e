/**
 * The answer (HTTP 202) of a money endpoint whose chain write was accepted and recorded but did not
 * land within the wait (`LIMITS.chainWriteWaitSeconds`): it lands anyway, exactly once.
 * `GET /v1/chain/writes/{write_id}`, or the same request sent again with the same `Idempotency-Key`,
 * answers its outcome.
 */
export interface PendingWriteResponse {
  success: true;
  status: "pending";
  write_id: string;
}

/** The states of a chain write: recorded, in a sent transaction (or handed to a bundler), landed, failed. */
export type ChainWriteStatus = "pending" | "submitted" | "confirmed" | "failed";

/** Answer of `GET /v1/chain/writes/{write_id}`. */
export interface ChainWriteResponse {
  success: true;
  write_id: string;
  status: ChainWriteStatus;
  /** The endpoint's answer, once `confirmed` (what the request would have answered had it waited). */
  result?: Record<string, unknown>;
  /** The endpoint's error, once `failed` (the same code and message a retry answers). */
  error?: { code: string; message: string };
}

/**
 * True when an answer is a {@link PendingWriteResponse} (accepted, not landed yet).
 *
 * @example
 * ```ts
 * const answer = await response.json();
 * if (isPendingWrite(answer)) console.log(`write ${answer.write_id} is on its way`);
 * ```
 */
export function isPendingWrite(value: unknown): value is PendingWriteResponse {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { status?: unknown }).status === "pending" &&
    typeof (value as { write_id?: unknown }).write_id === "string"
  );
}
