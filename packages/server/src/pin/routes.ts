import type { WalletOperation } from "@slotgate/chain-service";
import { PATHS } from "@slotgate/protocol";
import { cuid, pinRecoverSchema, pinRegisterSchema, pinResetSchema, pinVerifySchema, primitives } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import type { Services } from "../app/services.js";
import { chainErrors } from "../chain/chain-errors.js";
import { bearerOf, chainOf, requireSameUser } from "../chain/require-chain.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput } from "../http/validate.js";
import { findEndUserById } from "../storage/end-users.js";
import { dummyPasswordHash, verifyPassword } from "../users/passwords.js";

/**
 * What `/v1/pin/verify` may sign besides the check itself (Slotgate extension; default `verify_only`).
 * Transfers and slot exchanges have their own endpoints.
 */
const operationSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("verify_only") }),
  z.strictObject({ kind: z.literal("approve_purchases"), amount: primitives.positiveUintString }),
  z.strictObject({ kind: z.literal("buy_content_token"), cuid, amount: primitives.positiveUintString }),
]);

const verifySchema = pinVerifySchema.extend({ operation: operationSchema.optional() });

/** Recovery body: the spec's fields plus a fresh sign-in (the account's email and password). */
const recoverSchema = pinRecoverSchema.extend({
  email: z.string().max(254).optional(),
  password: z.string().max(1024).optional(),
});

/**
 * The PIN and key endpoints (spec 4.10). Every call carries the user's bearer token (user JWT or
 * access token) whose `sub` must equal `user_uuid`; recovery additionally re-authenticates with the
 * account's email and password, which is how the server establishes `identity_verified`.
 */
export function pinRoutes(services: Services): Router {
  const router = Router();
  const signIn = rateLimit("sign-in", services.config.rateLimit.signInPerMinute, services.config.rateLimit.enabled);

  router.post(PATHS.pinRegister, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const claims = await bearerOf(services, req);
    const body = parseInput(pinRegisterSchema, req.body);
    requireSameUser(claims, body.user_uuid);
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.registerPin(body));
  });

  router.post(PATHS.pinVerify, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const claims = await bearerOf(services, req);
    const { operation, ...credentials } = parseInput(verifySchema, req.body);
    requireSameUser(claims, credentials.user_uuid);
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.verifyPin({ ...credentials, operation: (operation ?? { kind: "verify_only" }) as WalletOperation }));
  });

  router.post(PATHS.pinReset, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const claims = await bearerOf(services, req);
    const body = parseInput(pinResetSchema, req.body);
    requireSameUser(claims, body.user_uuid);
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.resetPin(body));
  });

  router.post(PATHS.pinRecover, signIn, jsonBody, async (req: Request, res: Response) => {
    const chain = chainOf(services);
    const claims = await bearerOf(services, req);
    const { email, password, ...body } = parseInput(recoverSchema, req.body);
    requireSameUser(claims, body.user_uuid);
    if (email === undefined || password === undefined) {
      throw new SlotgateServerError("identity_not_verified", { message: "Recovery needs a fresh sign-in: send the account's email and password with the request." });
    }
    const user = await findEndUserById(services.db, String(body.user_uuid));
    const emailMatches = user !== null && user.email === email.trim().toLowerCase();
    const passwordOk = await verifyPassword(password, emailMatches ? user.password_hash : await dummyPasswordHash(services.scrypt));
    if (!emailMatches || !passwordOk) throw new SlotgateServerError("invalid_credentials");
    res.setHeader("Cache-Control", "no-store");
    res.json(await chain.recover({ ...body, identity_verified: true }));
  });

  router.use(chainErrors);
  return router;
}
