import { PATHS } from "@slotgate/protocol";
import { pinRecoverCodeSchema, pinRecoverWithCodeSchema, pinRegisterSchema, pinResetSchema, pinVerifySchema } from "@slotgate/protocol/schemas";
import { Router } from "express";
import type { Services } from "../app/services.js";
import { chainRoute } from "../chain/chain-route.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { proveRecovery, requestRecoveryCode } from "./recovery-proof.js";

/** The recover body with the mailbox proof optional, so that a request without it gets 403 identity_not_verified. */
const recoverSchema = pinRecoverWithCodeSchema.partial({ recovery_id: true, code: true });

/**
 * The PIN and key endpoints (spec 4.10). Every call carries the user's bearer token (user JWT or
 * access token) whose `sub` must equal `user_uuid`. Recovery is two calls: `POST /v1/pin/recover/code`
 * mails a one-time code to the account's verified address, bound to the user and the new PIN; `POST
 * /v1/pin/recover` sends it back, and only a proven mailbox makes the server call the chain service's
 * `recover` (spec 4.10 rule 8, "identity is first verified by email").
 */
export function pinRoutes(services: Services): Router {
  const router = Router();
  const signIn = rateLimit("sign-in", services.config.rateLimit.signInPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix);
  const user = { caller: "user" as const, actor: (body: { user_uuid: number }) => body.user_uuid };

  router.post(PATHS.pinRegister, ...chainRoute(services, { ...user, schema: pinRegisterSchema }, ({ chain, body }) => chain.registerPin(body)));
  router.post(PATHS.pinVerify, ...chainRoute(services, { ...user, schema: pinVerifySchema }, ({ chain, body, write }) => chain.verifyPin(body, write)));
  router.post(PATHS.pinReset, ...chainRoute(services, { ...user, schema: pinResetSchema }, ({ chain, body }) => chain.resetPin(body)));
  router.post(PATHS.pinRecoverCode, signIn, ...chainRoute(services, { ...user, schema: pinRecoverCodeSchema }, ({ body }) => requestRecoveryCode(services, body)));
  router.post(
    PATHS.pinRecover,
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
