import { BROADCAST_CHANNEL } from "../constants.js";
import { SlotgateError } from "../errors.js";
import { awaitPopupResult } from "../popup/await-result.js";
import { cleanReason, readLoginMessage } from "./message.js";

export { CLOSE_GRACE_MS, POLL_MS, SEVERANCE_MS } from "../popup/await-result.js";

/**
 * Waits for the login result of one popup (see `awaitPopupResult` for the channels, the closing and the COOP
 * handling): a `from: "slotgate"` `success` message with this `state` resolves the JWT, a `fail` one rejects
 * `login_failed` with its reason; the fallback channel is `BroadcastChannel("slotgate_login")`. @internal
 */
export function awaitLoginResult(popup: Window, state: string, origin: string, timeoutMs: number): Promise<string> {
  return awaitPopupResult(popup, {
    origin,
    channel: BROADCAST_CHANNEL,
    timeoutMs,
    read(value) {
      const message = readLoginMessage(value, state);
      if (!message) return undefined;
      return message.type === "success" ? message.data : new SlotgateError("login_failed", cleanReason(message.data));
    },
    closed: () => new SlotgateError("popup_closed"),
    timeout: () => new SlotgateError("login_timeout"),
  });
}
