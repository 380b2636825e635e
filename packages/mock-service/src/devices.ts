import { type DeviceAuthorizationResponse, LIMITS, PATHS } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { urlOf } from "./context.js";
import { HttpError } from "./http/http-error.js";
import { randomBase64url } from "./random.js";
import type { DeviceRecord } from "./state.js";

const ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** `BDFHJKLM` -> `BDFH-JKLM`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Starts a device authorization for a client (already checked for the grant). */
export function startDevice(ctx: MockContext, clientId: string): DeviceAuthorizationResponse {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  const userCode = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
  const record: DeviceRecord = {
    device_code: randomBase64url(32),
    user_code: userCode,
    client_id: clientId,
    status: "pending",
    interval: LIMITS.devicePollIntervalSeconds,
    expires_at: ctx.now() + LIMITS.deviceCodeLifetimeSeconds * 1000,
  };
  ctx.state.devices.set(record.device_code, record);
  const verificationUri = urlOf(ctx, PATHS.deviceVerification);
  return {
    device_code: record.device_code,
    user_code: formatUserCode(userCode),
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
    expires_in: LIMITS.deviceCodeLifetimeSeconds,
    interval: record.interval,
  };
}

/** The pending, unexpired device authorization with a (normalised) user code. */
export function pendingDevice(ctx: MockContext, userCode: string): DeviceRecord | undefined {
  for (const record of ctx.state.devices.values()) {
    if (record.user_code === userCode && record.status === "pending" && ctx.now() <= record.expires_at) return record;
  }
  return undefined;
}

/** One poll (RFC 8628 3.4-3.5); returns the user id once, when approved. */
export function pollDevice(ctx: MockContext, deviceCode: string, clientId: string): string {
  const record = ctx.state.devices.get(deviceCode);
  if (!record || record.client_id !== clientId || record.status === "redeemed") {
    throw new HttpError("invalid_grant", { message: "The device_code is unknown, already used, or was issued to another client." });
  }
  const now = ctx.now();
  const previous = record.last_polled_at;
  record.last_polled_at = now;
  if (now > record.expires_at) throw new HttpError("expired_token");
  if (record.status === "denied") throw new HttpError("access_denied");
  if (record.status === "pending") {
    if (previous !== undefined && now < previous + record.interval * 1000) {
      record.interval += LIMITS.deviceSlowDownSeconds;
      throw new HttpError("slow_down");
    }
    throw new HttpError("authorization_pending");
  }
  record.status = "redeemed";
  return record.user_id!;
}
