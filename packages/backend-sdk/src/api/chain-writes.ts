import { type ChainWriteResponse, ERRORS } from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";
import { clip } from "../http/request.js";
import { pause } from "../http/retry.js";
import type { SleepFn } from "../options.js";

/** How long a call follows a chain write the service answered 202 for, by default (ms). */
export const DEFAULT_PENDING_TIMEOUT_MS = 30_000;
/** The pace of the write lookups when the service sent no `Retry-After` (ms). */
const DEFAULT_POLL_MS = 2_000;

/** Validates a `pendingTimeoutMs` (a finite number of milliseconds, 0 or more). */
export function pendingTimeout(value: unknown, fail: (detail: string) => SlotgateBackendError): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw fail("pendingTimeoutMs must be a finite number >= 0");
  return value;
}

/**
 * The answer of a write lookup for the caller: the call's answer once `confirmed`, the call's error once
 * `failed` (thrown as `service_error` with the service's code), undefined while pending or submitted.
 */
export function settledAnswer(state: ChainWriteResponse): Record<string, unknown> | undefined {
  if (state.status === "confirmed") {
    if (state.result === null || typeof state.result !== "object") throw new SlotgateBackendError("invalid_response", { serviceStatus: 200 });
    return state.result;
  }
  if (state.status === "failed") {
    const code = clip(state.error?.code) ?? "error";
    const message = clip(state.error?.message);
    const serviceStatus = (ERRORS as Record<string, { status: number } | undefined>)[code]?.status;
    throw new SlotgateBackendError("service_error", {
      detail: `${code}${serviceStatus === undefined ? "" : ` (HTTP ${serviceStatus})`}${message ? ` ${message}` : ""}`,
      error: code,
      ...(serviceStatus === undefined ? {} : { serviceStatus }),
    });
  }
  return undefined;
}

/**
 * Follows a write the service answered 202 for: looks it up (`lookup`, `GET /v1/chain/writes/{write_id}`)
 * paced by `Retry-After`, until it settles (its answer, or its error thrown) or `timeoutMs` passed: then
 * `write_pending` with the `writeId`, which lands once anyway.
 */
export async function followWrite(
  ctx: { sleep: SleepFn },
  lookup: (writeId: string) => Promise<{ state: ChainWriteResponse; retryAfterMs?: number }>,
  writeId: string,
  paceMs: number | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let pace = paceMs ?? DEFAULT_POLL_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new SlotgateBackendError("write_pending", {
        detail: `write ${writeId} was accepted and will land once; look it up with write("${writeId}")`,
        writeId,
        serviceStatus: 202,
      });
    }
    await pause(ctx.sleep, Math.min(pace, left), signal);
    const { state, retryAfterMs } = await lookup(writeId);
    const settled = settledAnswer(state);
    if (settled !== undefined) return settled;
    pace = retryAfterMs ?? pace;
  }
}
