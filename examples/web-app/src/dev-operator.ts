import { NOT_SERVED } from "./errors.js";

/**
 * Development-only platform-operator actions the demo needs on the embedded chain: giving a new
 * player's slot wallet some XOTN plus the player's consent that this demo's cuid buys with it (a
 * faucet). On a real deployment the player pays with their own XOTN and consents with a PIN-signed
 * `approve_purchases` for the cuid; the operator never funds slots.
 *
 * The reference server exposes this only on its development chain, at `POST /v1/dev/fund_slot`
 * (HTTP Basic client credentials, body `{ client_id, user_id, xotn, cuid }`; the cuid must be this
 * client's).
 */
export const DEV_FUND_SLOT_PATH = "/v1/dev/fund_slot";

/** Outcome of {@link fundSlot}: `ok`, or why not, in words the demo shows as they are. */
export type FundResult = { ok: true } | { ok: false; status: number; message: string };

/**
 * Asks the service's dev faucet to fund a user's slot.
 *
 * @example
 * ```ts
 * const r = await fundSlot({ slotgateUrl, clientId, clientSecret }, { userId: "7", xotn: "1000", cuid: "slotgate-demo" });
 * ```
 */
export async function fundSlot(
  client: { slotgateUrl: string; clientId: string; clientSecret: string },
  args: { userId: string; xotn: string; cuid: string },
): Promise<FundResult> {
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64");
  let res: globalThis.Response;
  try {
    res = await fetch(client.slotgateUrl + DEV_FUND_SLOT_PATH, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: client.clientId, user_id: args.userId, xotn: args.xotn, cuid: args.cuid }),
    });
  } catch {
    return { ok: false, status: 502, message: "The Slotgate service is unreachable." };
  }
  if (res.ok) return { ok: true };
  const body = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
  if (res.status === 404 && body.error === "not_found") return { ok: false, status: 501, message: `${NOT_SERVED} (dev faucet ${DEV_FUND_SLOT_PATH})` };
  return { ok: false, status: res.status, message: `${body.error ?? "error"}: ${body.message ?? `HTTP ${res.status}`}` };
}
