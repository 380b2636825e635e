import { BROWSER_LOGOUT_PATH, REVOKE_PATH } from "../constants.js";

/**
 * `POST {base}/v1/oauth/revoke` with the bearer token; resolves whatever happens (network error, 4xx, 5xx,
 * timeout), because logout must never throw. `keepalive` lets it finish while the page unloads. @internal
 */
export async function revokeToken(baseUrl: string, token: string, fetchImpl: typeof fetch | undefined, timeoutMs: number): Promise<void> {
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

/**
 * `POST {base}/oauth/logout` with `client_id`, credentialed and `no-cors` (the answer is not read): the service
 * clears this browser's session cookie for the client, so silent renewal cannot sign the user back in. Resolves
 * whatever happens, like {@link revokeToken}. @internal
 */
export async function endServiceSession(baseUrl: string, clientId: string, fetchImpl: typeof fetch | undefined, timeoutMs: number): Promise<void> {
  try {
    await (fetchImpl ?? globalThis.fetch)(baseUrl + BROWSER_LOGOUT_PATH, {
      method: "POST",
      body: new URLSearchParams({ client_id: clientId }),
      credentials: "include",
      mode: "no-cors",
      keepalive: true,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    // As for the revoke: logout never fails; the session cookie then ends on its own (30 days idle).
  }
}
