import { randomUUID } from "node:crypto";
import { runWithRequestId } from "@slotgate/chain-service";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "../config/logger.js";
import type { ServerMetrics } from "../observability/metrics.js";

/** An accepted `X-Request-Id`: 1-128 characters of letters, digits and `._:/+=@-` (anything else is replaced). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

/** The route label of a request: the matched route's pattern (never the raw path: bounded cardinality). */
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return route && typeof route.path === "string" ? `${req.baseUrl}${route.path}` : "unmatched";
}

/**
 * The first middleware: gives the request its id (the caller's `X-Request-Id` when well formed, else a
 * new UUID), answers it in `X-Request-Id`, runs the rest of the request with it as the current request
 * id (log lines, chain-service calls in process or over gRPC, outbox rows and their deliveries carry
 * it), and when the answer is sent writes one access-log line (level info) and counts the request in
 * `metrics` (when given).
 *
 * @example
 * ```ts
 * app.use(requestIds(log, metrics));
 * ```
 */
export function requestIds(log: Logger, metrics: ServerMetrics | null): RequestHandler {
  const accessLog = log.isLevelEnabled("info");
  const observe = accessLog || metrics !== null;
  return (req: Request, res: Response, next: NextFunction) => {
    const presented = req.headers["x-request-id"];
    const id = typeof presented === "string" && REQUEST_ID_PATTERN.test(presented) ? presented : randomUUID();
    res.setHeader("X-Request-Id", id);
    if (observe) {
      const started = performance.now();
      res.once("finish", () => {
        const seconds = (performance.now() - started) / 1000;
        const route = routeOf(req);
        metrics?.observeRequest(req.method, route, res.statusCode, seconds);
        if (accessLog) log.info("request", { request_id: id, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1000) });
      });
    }
    runWithRequestId(id, next);
  };
}
