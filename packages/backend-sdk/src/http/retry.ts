import { SlotgateBackendError } from "../errors.js";
import type { FetchLike, SleepFn } from "../options.js";
import { type HttpOutcome, type JsonRequest, outcomeError, requestJson } from "./request.js";

/**
 * How a call of the `ContentTokenClient` is retried within itself: on network errors and on the
 * answers that mean "not now" (429, 502, 503, 504), with the same request and the same `Idempotency-Key`,
 * so the service moves the money once however many attempts reach it.
 */
export interface RetryOptions {
  /**
   * Attempts per request, including the first (1 to 10).
   * @default 4
   */
  attempts?: number;
  /**
   * Delay before the second attempt when the service sent no `Retry-After`; each later delay doubles,
   * and each is drawn at random between half and all of it (jitter), so many clients do not retry in step.
   * @default 250
   */
  baseDelayMs?: number;
  /**
   * Longest wait between two attempts. A `Retry-After` asking for longer ends the retries (the error is thrown).
   * @default 30000
   */
  maxDelayMs?: number;
}

/** A validated retry policy; `attempts: 1` is no retry. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The defaults of {@link RetryOptions}. */
export const RETRY_DEFAULTS: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 30_000 };

/**
 * Validates a retry option into a policy (`false` is one attempt); `fail` makes the error naming the bad
 * field (`invalid_options` for a constructor option, `invalid_argument` for a call's).
 */
export function retryPolicy(retry: RetryOptions | false | undefined, fail: (detail: string) => SlotgateBackendError): RetryPolicy {
  if (retry === undefined) return RETRY_DEFAULTS;
  if (retry === false) return { ...RETRY_DEFAULTS, attempts: 1 };
  if (retry === null || typeof retry !== "object") throw fail("retry must be an object or false");
  const { attempts = RETRY_DEFAULTS.attempts, baseDelayMs = RETRY_DEFAULTS.baseDelayMs, maxDelayMs = RETRY_DEFAULTS.maxDelayMs } = retry;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 10) throw fail("retry.attempts must be an integer from 1 to 10");
  if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0) throw fail("retry.baseDelayMs must be a finite number >= 0");
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < 0) throw fail("retry.maxDelayMs must be a finite number >= 0");
  return { attempts, baseDelayMs, maxDelayMs };
}

/** HTTP statuses retried: too many requests, and a gateway or the service temporarily unavailable. */
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/** Whether an outcome may be retried with the same request (and key). */
export function retryableOutcome(out: HttpOutcome): boolean {
  return out.kind === "network" || (out.kind === "error" && RETRIED_STATUSES.has(out.status));
}

/** The jittered exponential backoff before attempt `attempt + 1` (attempt counts from 1). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** What a failed request is thrown as. */
export type FailureError = (out: Exclude<HttpOutcome, { kind: "ok" }>) => SlotgateBackendError;

/**
 * Sends one request, retried per `policy`; answers the `ok` outcome or throws the last failure's error
 * (`fail`, by default {@link outcomeError}).
 */
export async function requestWithRetry(
  fetchFn: FetchLike,
  url: string,
  req: JsonRequest,
  policy: RetryPolicy,
  sleep: SleepFn,
  fail: FailureError = (out) => outcomeError(out),
): Promise<Extract<HttpOutcome, { kind: "ok" }>> {
  for (let attempt = 1; ; attempt++) {
    const out = await requestJson(fetchFn, url, req);
    if (out.kind === "ok") return out;
    if (!retryableOutcome(out) || attempt >= policy.attempts) throw fail(out);
    const asked = out.kind === "error" ? out.retryAfterMs : undefined;
    const delay = asked ?? backoffMs(policy, attempt);
    if (delay > policy.maxDelayMs) throw fail(out);
    await pause(sleep, delay, req.signal);
  }
}

/** Sleeps, turning an abort of `signal` into the `aborted` error. */
export async function pause(sleep: SleepFn, ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (cause) {
    throw new SlotgateBackendError("aborted", { cause: signal?.aborted ? signal.reason : cause });
  }
  if (signal?.aborted) throw new SlotgateBackendError("aborted", { cause: signal.reason });
}
