import { SlotgateBackendError } from "@slotgate/backend-sdk";
import type { Response } from "express";

/** What the browser sees when a step fails: a stable code and a message that says what to do. */
export interface MarketErrorBody {
  error: string;
  /** The Slotgate service's own error code, when it answered one. */
  service_error?: string;
  message: string;
}

/**
 * A refused marketplace step (not signed in, listing not allowed, the seller is playing, …) or a
 * service answer carried to the page: `code` is stable, `message` is shown as it is.
 *
 * @example
 * ```ts
 * throw new MarketError("not_signed_in", 401, "Sign in with Slotgate first.");
 * ```
 */
export class MarketError extends Error {
  override name = "MarketError";
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** The service's error code when this carries its answer. */
    readonly serviceError?: string,
  ) {
    super(message);
  }
}

/**
 * Answers a failed step. Marketplace and SDK errors carry their status and code; anything else is
 * logged here and answered as a generic 500 without details.
 *
 * @example
 * ```ts
 * try { res.json(await work()); } catch (err) { sendError(res, err); }
 * ```
 */
export function sendError(res: Response, err: unknown): void {
  if (err instanceof MarketError) {
    const body: MarketErrorBody = { error: err.code, ...(err.serviceError ? { service_error: err.serviceError } : {}), message: err.message };
    res.status(err.status).json(body);
    return;
  }
  if (err instanceof SlotgateBackendError) {
    res.status(err.status).json({ error: err.code, ...(err.error ? { service_error: err.error } : {}), message: err.message } satisfies MarketErrorBody);
    return;
  }
  console.error("[marketplace] unexpected error:", err instanceof Error ? err.message : String(err));
  res.status(500).json({ error: "internal_error", message: "Unexpected error; see the marketplace's log." } satisfies MarketErrorBody);
}
