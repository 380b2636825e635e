import { MESSAGE_SOURCE } from "../constants.js";

/** A login result the SDK accepts (spec 4.12; the `state` is Slotgate's addition). @internal */
export interface LoginResultMessage {
  from: "slotgate";
  type: "success" | "fail";
  data: string;
  state: string;
}

/**
 * Returns the message when it is a Slotgate login result for `state`, else undefined. The legacy
 * `from: "gameauth"` copy of the dual broadcast is for v1 apps and is ignored here. @internal
 */
export function readLoginMessage(value: unknown, state?: string): LoginResultMessage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m["from"] !== MESSAGE_SOURCE || (m["type"] !== "success" && m["type"] !== "fail")) return undefined;
  if (typeof m["data"] !== "string" || typeof m["state"] !== "string") return undefined;
  if (m["type"] === "success" && m["data"] === "") return undefined;
  if (state !== undefined && m["state"] !== state) return undefined;
  return value as LoginResultMessage;
}

/** A failure reason safe to put in an error message: printable, at most 200 characters. @internal */
export function cleanReason(reason: string): string {
  return reason.replace(/[^\x20-\x7e]/g, "").slice(0, 200) || "unknown_error";
}
