import type { NextFunction, Request, RequestHandler, Response } from "express";
import { SlotgateServerError } from "./errors.js";

/**
 * A per-IP fixed-window limiter kept in memory (per instance; behind a load balancer each instance
 * enforces its own share). Over budget: 429 rate_limited with `Retry-After`.
 *
 * @example
 * ```ts
 * app.post("/oauth/token", rateLimit("token", 6000), handler);
 * ```
 */
export function rateLimit(name: string, perMinute: number, enabled = true): RequestHandler {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = Date.now();
  return (req: Request, res: Response, next: NextFunction) => {
    if (!enabled) return next();
    const now = Date.now();
    if (now - lastSweep > 60_000) {
      for (const [k, w] of windows) if (now - w.start >= 60_000) windows.delete(k);
      lastSweep = now;
    }
    const key = req.ip ?? "unknown";
    let w = windows.get(key);
    if (!w || now - w.start >= 60_000) {
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    w.count += 1;
    res.setHeader("RateLimit-Policy", `${perMinute};w=60;name="${name}"`);
    if (w.count > perMinute) {
      const retry = Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000));
      return next(new SlotgateServerError("rate_limited", { headers: { "Retry-After": String(retry) } }));
    }
    next();
  };
}
