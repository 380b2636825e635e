import { signUpPlayer } from "@slotgate/server/testing";

/**
 * Signs a fresh test player up through the service's authorize form in loopback mode, the way a QA
 * script would (mailbox step included: the code is read from the service's development mailbox in its
 * data directory), and returns the player's user JWT. In a real game the JWT comes from the player's
 * own login (client SDK popup or `slotgate-login`) and is sent to this backend.
 *
 * @example
 * ```ts
 * const jwt = await signUpTestPlayer(url, ".slotgate-data", clientId, "http://127.0.0.1:8403/callback");
 * ```
 */
export async function signUpTestPlayer(base: string, dataDir: string, clientId: string, loopbackUri: string): Promise<{ jwt: string; email: string }> {
  const email = `player-${Date.now().toString(36)}@example.com`;
  const res = await signUpPlayer(base, dataDir, {
    client_id: clientId,
    redirect_uri: loopbackUri,
    state: "example",
    email,
    password: "example-player-password",
  });
  const location = res.headers.get("location");
  const jwt = location ? new URL(location).searchParams.get("jwt") : null;
  if (!jwt) throw new Error(`sign-up did not redirect with a JWT (HTTP ${res.status})`);
  return { jwt, email };
}
