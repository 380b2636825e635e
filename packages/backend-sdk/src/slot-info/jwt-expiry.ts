import { decodeJwt } from "jose";
import { LIMITS } from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";

/**
 * Rejects a missing, malformed or expired user JWT before any request is made.
 * The signature is the service's to check; only `exp` is read here, with the
 * service's clock-skew tolerance so that both sides agree.
 */
export function assertUsableJwt(jwt: unknown, nowMs: number): asserts jwt is string {
  if (typeof jwt !== "string" || jwt.trim() === "") throw new SlotgateBackendError("missing_token");
  let exp: unknown;
  try {
    exp = decodeJwt(jwt).exp;
  } catch (cause) {
    throw new SlotgateBackendError("invalid_token", { detail: "the user JWT is not a decodable JWT", cause });
  }
  if (exp !== undefined && (typeof exp !== "number" || exp + LIMITS.clockSkewSeconds <= nowMs / 1000)) {
    throw new SlotgateBackendError("expired_token");
  }
}
