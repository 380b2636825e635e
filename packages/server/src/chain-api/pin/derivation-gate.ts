import type { RequestHandler } from "express";
import type { Redis } from "ioredis";
import { SlotgateServerError } from "../../platform/http/errors.js";

/** How long a Redis slot lives if its instance dies before releasing it (ms). */
const SLOT_TTL_MS = 60_000;

/** Takes a slot when fewer than ARGV[1] are taken; answers the count after, or 0 when full. */
const ACQUIRE = `local n = redis.call('INCR', KEYS[1])
if n > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]) return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

/** Gives a slot back; the key goes when the count reaches zero. */
const RELEASE = `local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n`;

/**
 * A bound on the PIN requests (each a 100,000-round PBKDF2 in the chain service) one account has in
 * flight: at most `perAccount` at once, one more is answered 429 `rate_limited` with `Retry-After: 1`
 * instead of waiting in a queue. The account is `res.locals.account`, which the chain route sets from
 * the verified bearer token before it runs this. With `redis` (`REDIS_URL`) the count lives in Redis
 * under `<redisPrefix>pin-derive:<account>` and bounds the account across every instance (a slot of a
 * crashed instance expires after a minute); without it each instance counts alone.
 *
 * @example
 * ```ts
 * const gate = derivationGate(2, services.redis, services.config.rateLimit.redisPrefix);
 * mountEndpoint(router, services, ENDPOINTS.pinVerify, { chain: true, guards: [gate] }, run);
 * ```
 */
export function derivationGate(perAccount: number, redis: Redis | null = null, redisPrefix = "slotgate:rl:"): RequestHandler {
  const local = new Map<string, number>();
  const acquire = async (account: string): Promise<boolean> => {
    if (redis) return Number(await redis.eval(ACQUIRE, 1, `${redisPrefix}pin-derive:${account}`, perAccount, SLOT_TTL_MS)) > 0;
    const taken = local.get(account) ?? 0;
    if (taken >= perAccount) return false;
    local.set(account, taken + 1);
    return true;
  };
  const release = async (account: string): Promise<void> => {
    if (redis) {
      await redis.eval(RELEASE, 1, `${redisPrefix}pin-derive:${account}`);
      return;
    }
    const left = (local.get(account) ?? 1) - 1;
    if (left > 0) local.set(account, left);
    else local.delete(account);
  };
  return (_req, res, next) => {
    const account = res.locals["account"];
    if (typeof account !== "string") {
      next(new Error("derivationGate runs after the route set res.locals.account"));
      return;
    }
    acquire(account).then(
      (ok) => {
        if (!ok) {
          next(
            new SlotgateServerError("rate_limited", {
              message: `This account already has ${perAccount} PIN request${perAccount === 1 ? "" : "s"} in progress; retry after the time in Retry-After.`,
              headers: { "Retry-After": "1" },
            }),
          );
          return;
        }
        // "close" fires once the answer is sent or the client went away: the slot is held for the whole derivation.
        res.once("close", () => void release(account).catch(() => undefined));
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
