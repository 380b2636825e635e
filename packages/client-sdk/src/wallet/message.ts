import { MESSAGE_SOURCE } from "../constants.js";

/**
 * How the wallet window ended, as the service reports it; the SDK resolves `approved` and rejects the others
 * (`confirmation_denied`, `confirmation_failed`).
 *
 * @example
 * ```ts
 * const ended: WalletStatus = "denied";
 * ```
 */
export type WalletStatus = "approved" | "denied" | "failed";

/** The `data` of a wallet window's answer, as the service sends it. @internal */
export interface WalletResultData {
  action: string;
  status: WalletStatus;
  confirmation_id?: string;
  tx_hash?: string | null;
  write_id?: string | null;
  address?: string | null;
  /** Why it `failed` (the service's error code and message). */
  error?: { code: string; message?: string };
}

/** The wallet window's answer to its opener (and on the `slotgate_wallet` channel). @internal */
export interface WalletResultMessage {
  from: "slotgate";
  type: "wallet_result";
  state: string;
  data: WalletResultData;
}

const STATUSES: readonly unknown[] = ["approved", "denied", "failed"];
const OPTIONAL = ["confirmation_id", "tx_hash", "write_id", "address"] as const;

/**
 * Returns the message when it is a Slotgate wallet result (for `state`, when given), else undefined: `from:
 * "slotgate"`, `type: "wallet_result"`, a string `state`, and `data` with a string `action`, a known `status`
 * the optional fields strings (`null` allowed) and `error`, when given, an object with a string `code`. @internal
 */
export function readWalletMessage(value: unknown, state?: string): WalletResultMessage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m["from"] !== MESSAGE_SOURCE || m["type"] !== "wallet_result" || typeof m["state"] !== "string") return undefined;
  if (state !== undefined && m["state"] !== state) return undefined;
  const data = m["data"] as Record<string, unknown> | null;
  if (typeof data !== "object" || data === null || typeof data["action"] !== "string" || !STATUSES.includes(data["status"])) return undefined;
  for (const field of OPTIONAL) {
    const v = data[field];
    if (v !== undefined && v !== null && typeof v !== "string") return undefined;
  }
  const error = data["error"] as { code?: unknown } | null | undefined;
  if (error !== undefined && (typeof error !== "object" || error === null || typeof error.code !== "string")) return undefined;
  return value as WalletResultMessage;
}

/**
 * The fragment the wallet window puts on the redirect URI when COOP severed its opener
 * (`#from=slotgate&type=wallet_result&state=…&data=<json>`), as the message it stands for. @internal
 */
export function readWalletFragment(params: Record<string, string>): WalletResultMessage | undefined {
  let data: unknown;
  try {
    data = JSON.parse(params["data"] ?? "");
  } catch {
    return undefined;
  }
  return readWalletMessage({ from: params["from"], type: params["type"], state: params["state"], data });
}
