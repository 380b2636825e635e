import { SlotgateBackendError } from "@slotgate/backend-sdk";
import type { Response } from "express";

/** What the browser sees when a step fails: a stable code and a message that says what to do. */
export interface DemoErrorBody {
  error: string;
  /** The Slotgate service's own error code, when it answered one. */
  service_error?: string;
  message: string;
}

/** Message shown when the Slotgate server answers 404 not_found for a whole API (an older or reduced server build). */
export const NOT_SERVED = "This Slotgate server does not serve this API (it answered 404 not_found): it is a build without the content-token endpoints.";

/**
 * Answers a failed step. SDK errors carry their own status and stable code; anything else is logged
 * here and answered as a generic 500 without details (no stack or secret reaches the browser).
 *
 * @example
 * ```ts
 * try { res.json(await tokens.balance(slot)); } catch (err) { sendError(res, err); }
 * ```
 */
export function sendError(res: Response, err: unknown): void {
  if (err instanceof SlotgateBackendError) {
    const notServed = err.serviceStatus === 404 && err.error === "not_found";
    const body: DemoErrorBody = {
      error: notServed ? "not_served" : err.code,
      ...(err.error === undefined ? {} : { service_error: err.error }),
      message: notServed ? NOT_SERVED : err.message,
    };
    res.status(notServed ? 501 : err.status).json(body);
    return;
  }
  if (err instanceof DemoStepError) {
    res.status(err.status).json({ error: err.code, message: err.message } satisfies DemoErrorBody);
    return;
  }
  console.error("[demo] unexpected error:", err instanceof Error ? err.message : String(err));
  res.status(500).json({ error: "internal_error", message: "Unexpected error; see the demo back end's log." } satisfies DemoErrorBody);
}

/** A failed precondition of a demo step (not logged in, no spend key, …). */
export class DemoStepError extends Error {
  override name = "DemoStepError";
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
