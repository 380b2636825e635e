import type { RequestHandler } from "express";
import { rateLimit as expressRateLimit } from "express-rate-limit";
import type { Redis } from "ioredis";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { SlotgateServerError } from "./errors.js";

/**
 * A per-IP budget per minute (express-rate-limit, fixed window). With `redis` (`REDIS_URL`) the
 * counters live in Redis under `<redisPrefix><name>:<ip>`, shared by every instance behind a load balancer;
 * without it each instance counts alone, in memory. Every endpoint with the same `name` shares one
 * budget in Redis. Over budget: 429 rate_limited with `Retry-After`;
 * every answer carries the `RateLimit-Policy` and `RateLimit` headers (IETF draft 8).
 *
 * @example
 * ```ts
 * router.post("/oauth/token", rateLimit("token", 6000, true, services.redis), handler);
 * ```
 */
export function rateLimit(name: string, perMinute: number, enabled = true, redis: Redis | null = null, redisPrefix = "slotgate:rl:"): RequestHandler {
  if (!enabled) return (_req, _res, next) => next();
  return expressRateLimit({
    windowMs: 60_000,
    limit: perMinute,
    identifier: name,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    ...(redis
      ? {
          store: new RedisStore({
            prefix: `${redisPrefix}${name}:`,
            sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
          }),
        }
      : {}),
    handler: (req, _res, next) => {
      const reset = (req as typeof req & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime() ?? Date.now() + 60_000;
      const retry = Math.max(1, Math.ceil((reset - Date.now()) / 1000));
      next(new SlotgateServerError("rate_limited", { headers: { "Retry-After": String(retry) } }));
    },
  });
}
