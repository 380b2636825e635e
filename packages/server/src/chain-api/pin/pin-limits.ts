import type { RequestHandler } from "express";
import type { Services } from "../../platform/app/services.js";
import { rateLimit } from "../../platform/http/rate-limit.js";
import { derivationGate } from "./derivation-gate.js";

/**
 * The brute-force limits of every key-deriving post (docs/decisions/brute-force.md): one budget per IP before
 * anything runs, then, once the account is known (`res.locals.account`), one budget per account and a bound on
 * the account's derivations in flight.
 */
export interface PinLimits {
  /** Per-IP budget (`RATE_LIMIT_PIN_PER_MINUTE`), first in the route. */
  perIp: RequestHandler;
  /** Per-account budget (`RATE_LIMIT_PIN_PER_ACCOUNT_PER_MINUTE`). */
  perAccount: RequestHandler;
  /** At most `RATE_LIMIT_PIN_CONCURRENT_PER_ACCOUNT` derivations of one account at once. */
  inFlight: RequestHandler;
}

const built = new WeakMap<Services, PinLimits>();

/**
 * The server's one set of {@link PinLimits}: the `/v1/pin/*` endpoints and the wallet window's posts take
 * their guesses from the same budgets, so a second way in does not add guesses (also without Redis, where
 * each limiter counts in its own memory).
 *
 * @example
 * ```ts
 * const { perIp, perAccount, inFlight } = pinLimits(services);
 * mountEndpoint(router, services, ENDPOINTS.pinVerify, { chain: true, before: [perIp], guards: [perAccount, inFlight] }, run);
 * ```
 */
export function pinLimits(services: Services): PinLimits {
  let limits = built.get(services);
  if (!limits) {
    const settings = services.config.rateLimit;
    const options = { refusalDelayMs: settings.pinRefusalDelayMs };
    limits = {
      perIp: rateLimit("pin", settings.pinPerMinute, settings.enabled, services.redis, settings.redisPrefix, options),
      perAccount: rateLimit("pin-account", settings.pinPerAccountPerMinute, settings.enabled, services.redis, settings.redisPrefix, {
        ...options,
        key: (_req, res) => String(res.locals["account"]),
      }),
      inFlight: derivationGate(settings.pinConcurrentPerAccount, services.redis, settings.redisPrefix),
    };
    built.set(services, limits);
  }
  return limits;
}
