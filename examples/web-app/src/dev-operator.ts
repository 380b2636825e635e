import { SlotgateApi, SlotgateBackendError } from "@slotgate/backend-sdk";
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
 * Asks the service's dev faucet to fund a user's slot, through the backend SDK's `SlotgateApi` (row
 * `devFundSlot` of the endpoint table).
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
  const api = new SlotgateApi({ authServerUrl: client.slotgateUrl });
  try {
    await api.call(
      "devFundSlot",
      { client_id: client.clientId, user_id: args.userId, xotn: args.xotn, cuid: args.cuid },
      { clientId: client.clientId, clientSecret: client.clientSecret },
    );
    return { ok: true };
  } catch (error) {
    if (!(error instanceof SlotgateBackendError)) throw error;
    if (error.code === "network_error") return { ok: false, status: 502, message: "The Slotgate service is unreachable." };
    if (error.serviceStatus === 404 && error.error === "not_found")
      return { ok: false, status: 501, message: `${NOT_SERVED} (dev faucet ${DEV_FUND_SLOT_PATH})` };
    if (error.code !== "service_error") return { ok: false, status: error.status, message: error.message };
    return { ok: false, status: error.serviceStatus ?? 502, message: `${error.error ?? "error"}: ${error.serviceMessage ?? `HTTP ${error.serviceStatus}`}` };
  }
}
