import { ChainServiceError } from "@slotgate/chain-service";
import type { NextFunction, Request, Response } from "express";
import { SlotgateServerError } from "../http/errors.js";

/**
 * Turns a chain-service failure into the server's error: same stable code and status; `pin_locked`
 * gets `Retry-After`, other machine-readable facts (e.g. `remaining_attempts`) become `details`.
 * Anything else passes through unchanged.
 *
 * @example
 * ```ts
 * router.use(chainErrors); // after the chain routes of a router
 * ```
 */
export function toServerError(error: unknown): unknown {
  if (error instanceof ChainServiceError || isRemoteChainError(error)) {
    const e = error as { code: ChainServiceError["code"]; message: string; details?: Record<string, string | number> | undefined };
    const details = e.details ? Object.entries(e.details).map(([path, value]) => ({ path, message: String(value) })) : undefined;
    const retry = e.details?.["retry_after_seconds"];
    return new SlotgateServerError(e.code, {
      message: e.message,
      ...(details ? { details } : {}),
      ...(retry !== undefined ? { headers: { "Retry-After": String(retry) } } : {}),
      cause: error,
    });
  }
  return error;
}

function isRemoteChainError(error: unknown): boolean {
  return error instanceof Error && error.name === "RemoteChainError" && typeof (error as { code?: unknown }).code === "string";
}

/** Router-level error middleware applying {@link toServerError}. */
export function chainErrors(error: unknown, _req: Request, _res: Response, next: NextFunction): void {
  next(toServerError(error));
}
