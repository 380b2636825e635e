/**
 * Development-only platform-operator routes of the reference server on its development chain: a faucet
 * for a new slot (XOTN plus the player's purchase consent for one of this client's cuids) and enabling
 * release for a cuid. On a real chain the player pays with their own XOTN, consents per cuid with a
 * PIN-signed `approve_purchases`, and the platform operator enables release.
 */
export const DEV_ROUTES = { fundSlot: "/v1/dev/fund_slot", enableRelease: "/v1/dev/enable_release" } as const;

/**
 * Calls one dev route with the client's HTTP Basic credentials; resolves to `null` on success, or to why not.
 *
 * @example
 * ```ts
 * const problem = await devCall(url, client, DEV_ROUTES.enableRelease, { cuid: "my-game" });
 * ```
 */
export async function devCall(base: string, client: { client_id: string; client_secret: string }, path: string, body: Record<string, unknown>): Promise<string | null> {
  const basic = Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64");
  const res = await fetch(base + path, {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
    body: JSON.stringify({ client_id: client.client_id, ...body }),
  });
  if (res.ok) return null;
  const answer = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
  if (res.status === 404 && answer.error === "not_found") return `this server has no dev operator route ${path}`;
  return `${answer.error ?? "error"}: ${answer.message ?? `HTTP ${res.status}`}`;
}
