import { REVOKE_PATH } from "../constants.js";

/**
 * `POST {base}/v1/oauth/revoke` with the bearer token; resolves whatever happens (network error, 4xx, 5xx,
 * timeout), because logout must never throw. `keepalive` lets it finish while the page unloads. @internal
 */
export async function revokeToken(
  baseUrl: string,
  token: string,
  fetchImpl: typeof fetch | undefined,
  timeoutMs: number,
): Promise<void> {
  try {
    const doFetch = fetchImpl ?? globalThis.fetch;
    await doFetch(baseUrl + REVOKE_PATH, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      keepalive: true,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    // Swallowed by design: the local session is already cleared, and the JWT expires on its own.
  }
}
