import { PATHS } from "@slotgate/protocol";
import { pinRecoverCodeSchema, pinRecoverWithCodeSchema, pinRegisterSchema, pinResetSchema, pinVerifySchema } from "@slotgate/protocol/schemas";
import { Router } from "express";
import type { Services } from "../app/services.js";
import { chainRoute } from "../chain/chain-route.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { derivationGate } from "./derivation-gate.js";
import { proveRecovery, requestRecoveryCode } from "./recovery-proof.js";

/** The recover body with the mailbox proof optional, so that a request without it gets 403 identity_not_verified. */
const recoverSchema = pinRecoverWithCodeSchema.partial({ recovery_id: true, code: true });

/**
 * The PIN and key endpoints (spec 4.10). Every call carries the user's bearer token (user JWT or
 * access token) whose `sub` must equal `user_uuid`. Recovery is two calls: `POST /v1/pin/recover/code`
 * mails a one-time code to the account's verified address, bound to the user and the new PIN; `POST
 * /v1/pin/recover` sends it back, and only a proven mailbox makes the server call the chain service's
 * `recover` (spec 4.10 rule 8, "identity is first verified by email"). Each is rate-limited per IP and
 * per account, and one account has at most `PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT` of them in flight.
 */
export function pinRoutes(services: Services): Router {
  const router = Router();
  const limits = services.config.rateLimit;
  const signIn = rateLimit("sign-in", limits.signInPerMinute, limits.enabled, services.redis, limits.redisPrefix);
  // Brute-force limits on every key-deriving endpoint (docs/decisions/brute-force.md): one budget per IP
  // before anything runs, one per account (the verified bearer token's user) and a bound on the
  // account's derivations in flight once the caller is known.
  // A refusal is held for a while before it is sent, so a flood of refused guesses does not take the event loop.
  const refusalDelayMs = limits.pinRefusalDelayMs;
  const perIp = rateLimit("pin", limits.pinPerMinute, limits.enabled, services.redis, limits.redisPrefix, { refusalDelayMs });
  const perAccount = rateLimit("pin-account", limits.pinPerAccountPerMinute, limits.enabled, services.redis, limits.redisPrefix, {
    key: (_req, res) => String(res.locals["account"]),
    refusalDelayMs,
  });
  const inFlight = derivationGate(limits.pinConcurrentPerAccount, services.redis, limits.redisPrefix);
  const user = { caller: "user" as const, actor: (body: { user_uuid: number }) => body.user_uuid, guards: [perAccount, inFlight] };

  router.post(PATHS.pinRegister, perIp, ...chainRoute(services, { ...user, schema: pinRegisterSchema }, ({ chain, body }) => chain.registerPin(body)));
  router.post(PATHS.pinVerify, perIp, ...chainRoute(services, { ...user, schema: pinVerifySchema }, ({ chain, body, write }) => chain.verifyPin(body, write)));
  router.post(PATHS.pinReset, perIp, ...chainRoute(services, { ...user, schema: pinResetSchema }, ({ chain, body }) => chain.resetPin(body)));
  router.post(PATHS.pinRecoverCode, perIp, signIn, ...chainRoute(services, { ...user, schema: pinRecoverCodeSchema }, ({ body }) => requestRecoveryCode(services, body)));
  router.post(
    PATHS.pinRecover,
    perIp,
    signIn,
    ...chainRoute(services, { ...user, schema: recoverSchema }, async ({ chain, body }) => {
      const { recovery_id, code, ...request } = body;
      if (recovery_id === undefined || code === undefined) {
        throw new SlotgateServerError("identity_not_verified", {
          message: `Recovery needs the emailed code: call POST ${PATHS.pinRecoverCode} with the same body, then send recovery_id and code here.`,
        });
      }
      // The mailbox proof comes first; only a proven recovery reaches the chain service.
      const proof = await proveRecovery(services, { ...request, recovery_id, code });
      // The chain service re-keys only with the front service's word, given after the mailbox proof.
      return chain.recover({ user_uuid: proof.user_uuid, pin_hash: request.pin_hash, pin_salt: request.pin_salt, assertion: services.assertCaller(proof.user_uuid, "recover") });
    }),
  );
  return router;
}
