import type { Request, RequestHandler, Response } from "express";
import { rateLimit as expressRateLimit } from "express-rate-limit";
import type { Redis } from "ioredis";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { SlotgateServerError } from "./errors.js";

/** Options of {@link rateLimit} beyond the budget. */
export interface RateLimitOptions {
  /**
   * What a budget belongs to. The default counts per client IP (`req.ip`, which honours `TRUST_PROXY`).
   * A per-account limiter returns the authenticated account (e.g. `res.locals.account`, set by the
   * route after it verified the bearer token); it must run after that check, so it never trusts an
   * identity the caller merely claims. @default the client IP
   */
  key?: (req: Request, res: Response) => string;
  /**
   * Hold each refusal about this long (a random 0.5-1.5 times it, never past the window's end) before
   * answering it: a client that waits for each answer, as scripted guessers do, then gets about one
   * refusal per `refusalDelayMs` instead of as many as the server can write, so a flood of refused
   * requests stops costing the server its event loop. The jitter keeps many held clients from coming
   * back in the same millisecond. At most {@link MAX_HELD_REFUSALS} refusals are held per process; beyond that they
   * are answered at once. A client that goes away frees its slot. @default 0 (answer at once)
   */
  refusalDelayMs?: number;
}

/** How many refusals one process holds at once (each costs an open socket and a timer). */
export const MAX_HELD_REFUSALS = 10_000;
let heldRefusals = 0;

/**
 * Passes `error` on after `delayMs`, or at once when too many refusals are held or the client goes away
 * meanwhile (so the request's middleware chain always ends; nothing is written to a closed socket).
 */
function refuseLater(res: Response, next: (error: unknown) => void, error: SlotgateServerError, delayMs: number): void {
  if (delayMs <= 0 || heldRefusals >= MAX_HELD_REFUSALS) {
    next(error);
    return;
  }
  heldRefusals += 1;
  let held = true;
  const answer = () => {
    if (!held) return;
    held = false;
    heldRefusals -= 1;
    clearTimeout(timer);
    res.off("close", answer);
    next(error);
  };
  const timer = setTimeout(answer, delayMs);
  res.once("close", answer);
}

/**
 * A budget per minute (express-rate-limit, fixed window), per client IP unless `options.key` names
 * another owner (an account). With `redis` (`REDIS_URL`) the counters live in Redis under
 * `<redisPrefix><name>:<key>`, shared by every instance behind a load balancer; without it each
 * instance counts alone, in memory. Every endpoint with the same `name` shares one budget in Redis.
 * Over budget: 429 rate_limited with `Retry-After`; every answer carries the `RateLimit-Policy` and
 * `RateLimit` headers (IETF draft 8) of the limiters it passed.
 *
 * @example
 * ```ts
 * router.post("/oauth/token", rateLimit("token", 6000, true, services.redis), handler);
 * // per account: after the route has verified the bearer token and set res.locals.account
 * const perAccount = rateLimit("pin-account", 10, true, services.redis, "slotgate:rl:", { key: (_req, res) => String(res.locals["account"]) });
 * ```
 */
export function rateLimit(
  name: string,
  perMinute: number,
  enabled = true,
  redis: Redis | null = null,
  redisPrefix = "slotgate:rl:",
  options: RateLimitOptions = {},
): RequestHandler {
  if (!enabled) return (_req, _res, next) => next();
  const { key, refusalDelayMs = 0 } = options;
  return expressRateLimit({
    windowMs: 60_000,
    limit: perMinute,
    identifier: name,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    ...(key ? { keyGenerator: (req: Request, res: Response) => key(req, res) } : {}),
    ...(redis
      ? {
          store: new RedisStore({
            prefix: `${redisPrefix}${name}:`,
            sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
          }),
        }
      : {}),
    handler: (req, res, next) => {
      const retry = retryAfterSeconds(req);
      const hold = Math.min(Math.round(refusalDelayMs * (0.5 + Math.random())), retry * 1000);
      refuseLater(res, next, new SlotgateServerError("rate_limited", { headers: { "Retry-After": String(retry) } }), hold);
    },
  });
}

/** Seconds until the window of the limiter that refused `req` ends (at least 1). */
function retryAfterSeconds(req: Request): number {
  const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime() ?? Date.now() + 60_000;
  return Math.max(1, Math.ceil((reset - Date.now()) / 1000));
}

/** What {@link serviceRateLimit} reads of the server's services: the rate-limit settings and the shared Redis, if any. */
export interface RateLimitSettings {
  config: { rateLimit: { enabled: boolean; redisPrefix: string } };
  redis: Redis | null;
}

/**
 * {@link rateLimit} per client IP with the server's own settings (on or off, the shared Redis and its key prefix).
 *
 * @example
 * ```ts
 * router.post("/oauth/token", serviceRateLimit(services, "token", services.config.rateLimit.tokenPerMinute), handler);
 * ```
 */
export function serviceRateLimit(services: RateLimitSettings, name: string, perMinute: number): RequestHandler {
  return rateLimit(name, perMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix);
}
