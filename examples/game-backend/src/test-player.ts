/**
 * Signs a fresh test player up through the service's authorize form in loopback mode, the way a QA
 * script would, and returns the player's user JWT. In a real game the JWT comes from the player's own
 * login (client SDK popup or `slotgate-login`) and is sent to this backend.
 *
 * @example
 * ```ts
 * const jwt = await signUpTestPlayer(url, clientId, "http://127.0.0.1:8403/callback");
 * ```
 */
export async function signUpTestPlayer(base: string, clientId: string, loopbackUri: string): Promise<{ jwt: string; email: string }> {
  const email = `player-${Date.now().toString(36)}@example.com`;
  const params = new URLSearchParams({ client_id: clientId, redirect_uri: loopbackUri, response_type: "code", state: "example" });
  const page = await fetch(`${base}/oauth/authorize?${params}`, { headers: { accept: "text/html" } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  if (!csrf || !cookie) throw new Error(`the authorize page answered HTTP ${page.status} without its form`);
  const form = new URLSearchParams({ ...Object.fromEntries(params), csrf_token: csrf, email, password: "example-player-password", intent: "signup", decision: "approve" });
  const res = await fetch(`${base}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, accept: "text/html" },
    body: form,
  });
  const location = res.headers.get("location");
  const jwt = location ? new URL(location).searchParams.get("jwt") : null;
  if (!jwt) throw new Error(`sign-up did not redirect with a JWT (HTTP ${res.status})`);
  return { jwt, email };
}
