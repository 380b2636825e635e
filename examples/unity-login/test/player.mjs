// The player, without a browser: signs up (mailbox step included) and decides on Slotgate's sign-in forms over HTTP.
// As a command (SLOTGATE_BROWSER="node player.mjs"), it takes the authorize URL slotgate-login would open; the
// sign-up code is read from the service's development mailbox in PLAYER_DATA_DIR (its SLOTGATE_DATA_DIR).
import { signUpPlayer } from "@slotgate/server/testing";

const newEmail = () => `unity-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
const PASSWORD = "unity-player-password";

/** Fetches a form page and posts it back with `fields`; returns the POST's response. */
async function submit(pageUrl, action, fields) {
  const page = await fetch(pageUrl, { headers: { accept: "text/html" } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  if (!csrf || !cookie) throw new Error(`sign-in page without its form (HTTP ${page.status})`);
  return fetch(new URL(action, pageUrl), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: new URLSearchParams({ ...fields, csrf_token: csrf }) });
}

/** The loopback login: sign up and approve (or deny) on the authorize page, then follow the redirect to the game. */
export async function authorize(authorizeUrl, decision = "approve", dataDir = process.env.PLAYER_DATA_DIR) {
  const url = new URL(authorizeUrl);
  const { client_id, redirect_uri, state, response_type: _code, ...extra } = Object.fromEntries(url.searchParams);
  const res =
    decision === "approve"
      ? await signUpPlayer(url.origin, dataDir, { client_id, redirect_uri, state, extra, email: newEmail(), password: PASSWORD })
      : await submit(url, "/oauth/authorize", { ...Object.fromEntries(url.searchParams), decision });
  const location = res.headers.get("location");
  if (!location) throw new Error(`no redirect (HTTP ${res.status})`);
  await fetch(location);
}

/**
 * A player with a verified mailbox: signs up on the authorize page of a client that redirects to `redirectUri`
 * (page mode), the emailed code read from the development mailbox in `dataDir`.
 */
export async function verifiedPlayer(baseUrl, dataDir, clientId, redirectUri) {
  const email = newEmail();
  const res = await signUpPlayer(baseUrl, dataDir, { client_id: clientId, redirect_uri: redirectUri, state: "player", email, password: PASSWORD });
  if (res.status !== 302) throw new Error(`sign-up answered HTTP ${res.status}`);
  return { email, password: PASSWORD };
}

/** The device login: open the verification URL with the code filled in, sign in as `player` and decide; returns the result marker. */
export async function decideDevice(verificationUriComplete, player, decision = "approve") {
  const url = new URL(verificationUriComplete);
  const res = await submit(url, "/oauth/device", { user_code: url.searchParams.get("user_code") ?? "", email: player.email, password: player.password, decision });
  return /data-result="([^"]+)"/.exec(await res.text())?.[1];
}

if (process.argv[2]) await authorize(process.argv[2], process.env.PLAYER_DECISION ?? "approve");
