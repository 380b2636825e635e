import { randomBytes, randomInt } from "node:crypto";
import { type DeviceAuthorizationResponse, LIMITS, PATHS } from "@slotgate/protocol";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import type { IssuedToken } from "../keys/tokens.js";
import { insertDeviceAuthorization, pollDevice } from "./device-authorizations-store.js";
import { hashCode } from "../token/authorization-code.js";

/** Letters of a user code: no vowels (no words), no look-alikes (RFC 8628 section 6.1). */
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;

/** A new user code, normalised (8 letters, no dash). */
function newUserCode(): string {
  let code = "";
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** A user code as shown to people: `BDFH-JKLM`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * `POST /oauth/device_authorization` (RFC 8628 section 3.1-3.2) for a client already checked for the
 * device grant: a 256-bit device code (stored as its hash) and an 8-letter user code.
 */
export async function startDeviceAuthorization(services: Services, clientId: string): Promise<DeviceAuthorizationResponse> {
  const { codeLifetimeSeconds, pollIntervalSeconds } = services.config.deviceFlow;
  const deviceCode = randomBytes(32).toString("base64url");
  for (let attempt = 0; attempt < 5; attempt++) {
    const userCode = newUserCode();
    const stored = await insertDeviceAuthorization(services.db, {
      deviceCodeHash: hashCode(deviceCode),
      userCode,
      clientId,
      intervalSeconds: pollIntervalSeconds,
      lifetimeSeconds: codeLifetimeSeconds,
    });
    if (!stored) continue;
    const verificationUri = services.issuer + PATHS.deviceVerification;
    return {
      device_code: deviceCode,
      user_code: formatUserCode(userCode),
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
      expires_in: codeLifetimeSeconds,
      interval: pollIntervalSeconds,
    };
  }
  throw new SlotgateServerError("service_unavailable", { message: "Could not draw a free user code; retry." });
}

/**
 * The device's poll of `/oauth/token` (RFC 8628 section 3.4-3.5): authorization_pending while the
 * user has not decided, slow_down (and a 5 s longer interval) when polled sooner than the interval,
 * access_denied after a denial, expired_token after the lifetime, and once approved the user JWT of
 * the game login (spec 4.14), exactly once. A device code of another client is invalid_grant.
 */
export async function pollDeviceToken(services: Services, args: { deviceCode: string; clientId: string }): Promise<{ userId: string; jwt: IssuedToken }> {
  const row = await pollDevice(services.db, hashCode(args.deviceCode), args.clientId, LIMITS.deviceSlowDownSeconds);
  if (!row || row.status === "redeemed") {
    throw new SlotgateServerError("invalid_grant", { message: "The device_code is unknown, already used, or was issued to another client." });
  }
  if (row.expired) throw new SlotgateServerError("expired_token");
  if (row.status === "denied") throw new SlotgateServerError("access_denied");
  if (row.status === "pending") throw new SlotgateServerError(row.too_fast ? "slow_down" : "authorization_pending");
  const userId = row.user_id!;
  return { userId, jwt: await services.tokens.signUserJwt(userId, args.clientId) };
}
