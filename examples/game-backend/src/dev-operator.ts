import { SlotgateApi, SlotgateBackendError } from "@slotgate/backend-sdk";

/**
 * Development-only platform-operator routes of the reference server on its development chain: a faucet
 * for a new slot (XOTN plus the player's purchase consent for one of this client's cuids) and enabling
 * release for a cuid. On a real chain the player pays with their own XOTN, consents per cuid with a
 * PIN-signed `approve_purchases`, and the platform operator enables release. Called through the backend
 * SDK's `SlotgateApi` (rows `devFundSlot` and `devEnableRelease` of the endpoint table).
 */
export type DevRoute = { name: "devFundSlot"; input: { user_id: string; xotn: string; cuid: string } } | { name: "devEnableRelease"; input: { cuid: string } };

/**
 * Calls one dev route with the client's HTTP Basic credentials; resolves to `null` on success, or to why not.
 *
 * @example
 * ```ts
 * const problem = await devCall(url, client, { name: "devEnableRelease", input: { cuid: "my-game" } });
 * ```
 */
export async function devCall(base: string, client: { client_id: string; client_secret: string }, route: DevRoute): Promise<string | null> {
  const api = new SlotgateApi({ authServerUrl: base });
  const auth = { clientId: client.client_id, clientSecret: client.client_secret };
  try {
    if (route.name === "devFundSlot") await api.call("devFundSlot", { client_id: client.client_id, ...route.input }, auth);
    else await api.call("devEnableRelease", { client_id: client.client_id, ...route.input }, auth);
    return null;
  } catch (error) {
    if (!(error instanceof SlotgateBackendError)) throw error;
    if (error.serviceStatus === 404 && error.error === "not_found") return `this server has no dev operator route ${route.name}`;
    return error.message;
  }
}
