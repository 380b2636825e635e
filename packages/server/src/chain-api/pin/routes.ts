import { PATHS } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";
import { serviceRateLimit } from "../../platform/http/rate-limit.js";
import { pinLimits } from "./pin-limits.js";
import { proveRecovery, requestRecoveryCode } from "./recovery-proof.js";

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
  const signIn = serviceRateLimit(services, "sign-in", limits.signInPerMinute);
  // Brute-force limits on every key-deriving endpoint, shared with the wallet window's posts (pin-limits.ts).
  const { perIp, perAccount, inFlight } = pinLimits(services);
  const pin = { chain: true, before: [perIp], guards: [perAccount, inFlight] };
  const recovery = { ...pin, before: [perIp, signIn] };

  mountEndpoint(router, services, ENDPOINTS.pinRegister, pin, (input, { chain }) => chain.registerPin(input));
  mountEndpoint(router, services, ENDPOINTS.pinVerify, pin, (input, { chain, write }) => chain.verifyPin(input, write));
  mountEndpoint(router, services, ENDPOINTS.pinReset, pin, (input, { chain }) => chain.resetPin(input));
  mountEndpoint(router, services, ENDPOINTS.pinRecoverCode, recovery, (input) => requestRecoveryCode(services, input));
  mountEndpoint(router, services, ENDPOINTS.pinRecover, recovery, async (input, { chain }) => {
    const { recovery_id, code, ...request } = input;
    if (recovery_id === undefined || code === undefined) {
      throw new SlotgateServerError("identity_not_verified", {
        message: `Recovery needs the emailed code: call POST ${PATHS.pinRecoverCode} with the same body, then send recovery_id and code here.`,
      });
    }
    // The mailbox proof comes first; only a proven recovery reaches the chain service.
    const proof = await proveRecovery(services, { ...request, recovery_id, code });
    // The chain service re-keys only with the front service's word, given after the mailbox proof.
    return chain.recover({
      user_uuid: proof.user_uuid,
      pin_hash: request.pin_hash,
      pin_salt: request.pin_salt,
      assertion: services.assertCaller(proof.user_uuid, "recover"),
    });
  });
  return router;
}
