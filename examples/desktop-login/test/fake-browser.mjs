// Stands in for the system browser (SLOTGATE_BROWSER): signs a new player up through the authorize
// form at the URL it is given (the emailed code read from the service's development mailbox in
// FAKE_DATA_DIR), then follows the redirect to the loopback listener. FAKE_DECISION=deny declines instead.
import { signUpPlayer } from "@slotgate/server/testing";

const url = new URL(process.argv[2]);
const params = Object.fromEntries(url.searchParams);
let res;
if (process.env.FAKE_DECISION === "deny") {
  const page = await fetch(url, { headers: { accept: "text/html" } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  if (!csrf || !cookie) throw new Error(`authorize page without its form (HTTP ${page.status})`);
  const form = new URLSearchParams({ ...params, csrf_token: csrf, decision: "deny" });
  res = await fetch(new URL("/oauth/authorize", url), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: form,
  });
} else {
  const { client_id, redirect_uri, state, response_type: _code, ...extra } = params;
  const player = { client_id, redirect_uri, state, extra, email: `desktop-${Date.now()}@example.com`, password: "desktop-player-password" };
  res = await signUpPlayer(url.origin, process.env.FAKE_DATA_DIR, player);
}
const location = res.headers.get("location");
if (!location) throw new Error(`no redirect (HTTP ${res.status})`);
await fetch(location);
