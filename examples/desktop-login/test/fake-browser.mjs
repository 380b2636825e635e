// Stands in for the system browser (SLOTGATE_BROWSER): signs a new player up through the authorize
// form at the URL it is given, then follows the redirect to the loopback listener.
const url = new URL(process.argv[2]);
const page = await fetch(url, { headers: { accept: "text/html" } });
const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
const cookie = page.headers.get("set-cookie")?.split(";")[0];
if (!csrf || !cookie) throw new Error(`authorize page without its form (HTTP ${page.status})`);
const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), csrf_token: csrf, email: `desktop-${Date.now()}@example.com`, password: "desktop-player-password", intent: "signup", decision: process.env.FAKE_DECISION ?? "approve" });
const res = await fetch(new URL("/oauth/authorize", url), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: form });
const location = res.headers.get("location");
if (!location) throw new Error(`no redirect (HTTP ${res.status})`);
await fetch(location);
