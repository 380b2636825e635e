import type { ChainService } from "@slotgate/chain-service";
import type { Request } from "express";
import type { Services } from "../app/services.js";
import { SlotgateServerError } from "../http/errors.js";
import { type BearerClaims, bearerFrom } from "../keys/tokens.js";

/** The running chain service, or 503 service_unavailable when the server runs with `CHAIN=off`. */
export function chainOf(services: Services): ChainService {
  if (!services.chain) {
    throw new SlotgateServerError("service_unavailable", { message: "The chain service is off on this server (CHAIN=off); wallet, PIN and content-token endpoints are unavailable." });
  }
  return services.chain.service;
}

/** Verifies the end-user bearer token (user JWT or access token); 401 invalid_token otherwise. */
export function bearerOf(services: Services, req: Request): Promise<BearerClaims> {
  return services.tokens.verifyBearer(bearerFrom(req.headers.authorization));
}

/**
 * The bearer token's `sub` must be `userId` (403 token_user_mismatch otherwise): PIN, transfer and
 * slot-exchange calls act for the token's user only.
 */
export function requireSameUser(claims: BearerClaims, userId: string | number): void {
  if (claims.sub !== String(userId)) {
    throw new SlotgateServerError("token_user_mismatch", { message: "The bearer token does not belong to this user." });
  }
}
