import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const DIST = join(__dirname, "../../../dist");

export interface AppConfig {
  slotgateUrl: string;
  clientId: string;
  redirectUri: string;
}

/** Shared by the app pages: run login() on click (or at load with ?autologin, i.e. without a user gesture). */
const DRIVER = `
const params = new URLSearchParams(location.search);
const timeout = Number(params.get("timeout")) || undefined;
function run() {
  window.__result = undefined;
  window.__error = undefined;
  slotgate.login(timeout ? { timeout } : undefined).then(
    (r) => { window.__result = r; },
    (e) => { window.__error = { name: e.name, code: e.code, message: e.message }; },
  );
}
document.getElementById("login").addEventListener("click", run);
if (params.has("autologin")) run();
window.slotgateOf = () => slotgate;
window.__ready = true;`;

function pages(config: AppConfig): Record<string, string> {
  const cfg = JSON.stringify(config);
  return {
    // ESM build, imported as a module.
    "/app.html": `<!doctype html><title>app</title><button id="login">Log in</button>
<script type="module">import { Slotgate } from "/sdk/index.js";
const slotgate = new Slotgate(${cfg});${DRIVER}</script>`,
    // The IIFE build with a plain <script> tag.
    "/app-script-tag.html": `<!doctype html><title>app</title><button id="login">Log in</button>
<script src="/sdk/slotgate.iife.js"></script>
<script>var slotgate = new Slotgate.Slotgate(${cfg});${DRIVER}</script>`,
    // The redirect URI of both modes: relays a popup result when COOP severed window.opener (fragment), or
    // completes a full-page redirect login (query) and goes back to the page that started it.
    "/callback.html": `<!doctype html><title>callback</title>
<script type="module">import { Slotgate, handleLoginCallback } from "/sdk/index.js";
import { handleWalletCallback } from "/sdk/wallet.js";
window.__relayed = handleWalletCallback() || handleLoginCallback();
if (!window.__relayed) {
  const back = () => location.replace(sessionStorage.getItem("return_to") || "/");
  new Slotgate(${cfg}).handleRedirectCallback().then(back, (e) => {
    sessionStorage.setItem("redirect_error", JSON.stringify({ name: e.name, code: e.code, message: e.message }));
    back();
  });
}</script>`,
    // The wallet window (@slotgate/client-sdk/wallet): ?action= names the method (default approvePurchases, which
    // takes window.__confirmation, set by the test before the click).
    "/wallet.html": `<!doctype html><title>wallet</title><button id="go">Confirm</button>
<script type="module">import { SlotgateWallet } from "/sdk/wallet.js";
const wallet = new SlotgateWallet(${cfg});
const action = new URLSearchParams(location.search).get("action") || "approvePurchases";
document.getElementById("go").addEventListener("click", () => {
  window.__result = undefined;
  window.__error = undefined;
  wallet[action](window.__confirmation).then(
    (r) => { window.__result = r; },
    (e) => { window.__error = { name: e.name, code: e.code, message: e.message, reason: e.reason }; },
  );
});
window.__ready = true;</script>`,
    // The wallet window's script-tag build: window.SlotgateWallet, driven like /wallet.html.
    "/wallet-script-tag.html": `<!doctype html><title>wallet</title><button id="go">Confirm</button>
<script src="/sdk/slotgate-wallet.iife.js"></script>
<script>var wallet = new SlotgateWallet.SlotgateWallet(${cfg});
document.getElementById("go").addEventListener("click", function () {
  window.__result = undefined;
  window.__error = undefined;
  wallet.approvePurchases(window.__confirmation).then(
    function (r) { window.__result = r; },
    function (e) { window.__error = { name: e.name, code: e.code, message: e.message, isSlotgateError: e instanceof SlotgateWallet.SlotgateError }; },
  );
});
window.__ready = true;</script>`,
    // A page that blocks popups (as many in-app webviews do): login() rejects popup_blocked, and the app falls
    // back to the full-page redirect.
    "/blocked-app.html": `<!doctype html><title>no popups</title><button id="login">Log in</button>
<script type="module">import { Slotgate } from "/sdk/index.js";
window.open = () => null;
const slotgate = new Slotgate({ ...${cfg}, autoRenew: new URLSearchParams(location.search).has("autorenew") });
window.__events = [];
for (const type of ["login", "logout", "expired"]) slotgate.on(type, () => window.__events.push(type));
window.__redirectError = JSON.parse(sessionStorage.getItem("redirect_error") || "null");
sessionStorage.removeItem("redirect_error");
document.getElementById("login").addEventListener("click", () => {
  slotgate.login().catch((e) => {
    window.__popupError = e.code;
    sessionStorage.setItem("return_to", location.pathname);
    return slotgate.loginWithRedirect();
  });
});
window.slotgateOf = () => slotgate;
window.__ready = true;</script>`,
    // A v1 (GameAuth) app: its own popup and a listener for the legacy sender.
    "/v1-app.html": `<!doctype html><title>v1 app</title><button id="login">Log in (v1)</button>
<script>
var cfg = ${cfg};
window.addEventListener("message", function (e) {
  if (e.data && e.data.from === "gameauth") window.__legacy = { origin: e.origin, data: e.data };
});
document.getElementById("login").onclick = function () {
  window.__state = "v1-" + Math.random().toString(36).slice(2);
  var q = new URLSearchParams({ client_id: cfg.clientId, redirect_uri: cfg.redirectUri, response_type: "code", state: window.__state, display: "popup" });
  window.open(cfg.slotgateUrl + "/oauth/authorize?" + q, "gameauth", "width=600,height=500");
};
window.__ready = true;
</script>`,
  };
}

/**
 * The app under test on its own origin (127.0.0.1, another port than the service). `/coop/*` serves the
 * same pages with `Cross-Origin-Opener-Policy: same-origin`.
 */
export async function startAppServer(): Promise<{
  origin: string;
  configure(config: AppConfig): void;
  close(): Promise<void>;
}> {
  let routes: Record<string, string> = {};
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://app");
    const coop = url.pathname.startsWith("/coop/");
    const path = coop ? url.pathname.slice(5) : url.pathname;
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (coop) headers["cross-origin-opener-policy"] = "same-origin";
    if (path.startsWith("/sdk/") && /^[\w.-]+$/.test(path.slice(5))) {
      try {
        const body = readFileSync(join(DIST, path.slice(5)));
        res.writeHead(200, { ...headers, "content-type": "text/javascript; charset=utf-8" });
        return res.end(body);
      } catch {}
    }
    const page = routes[path];
    if (page === undefined) {
      res.writeHead(404, headers);
      return res.end("not found");
    }
    res.writeHead(200, { ...headers, "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    configure(config) {
      routes = pages(config);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
