// The demo's browser part: only @slotgate/client-sdk runs here; everything else is a call to the back end.
import { Slotgate, SlotgateError } from "@slotgate/client-sdk";
import { SlotgateWallet } from "@slotgate/client-sdk/wallet";

interface PublicConfig {
  slotgateUrl: string;
  clientId: string;
  redirectUri: string;
  cuid: string;
  spendKeyConfigured: boolean;
  marketplaceUrl: string | null;
}

const $ = <T extends HTMLElement>(selector: string): T => {
  const el = document.querySelector<T>(selector);
  if (!el) throw new Error(`missing ${selector}`);
  return el;
};

/** Calls a demo back-end route; rejects with the route's `{ error, message }` on failure. */
async function api(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => ({}))) as { error?: string; service_error?: string; message?: string };
  // The service's own code (e.g. logout_required) says more than the SDK's wrapper code.
  if (!res.ok) throw new Error(`${json.service_error ?? json.error ?? `HTTP ${res.status}`}: ${json.message ?? "request failed"}`);
  return json;
}

/** Runs one step: marks its section busy, then ok or error, and prints the result. */
async function step(id: string, run: () => Promise<unknown>): Promise<boolean> {
  const section = $(`#step-${id}`);
  const out = $<HTMLPreElement>(`#step-${id} .out`);
  section.dataset["state"] = "busy";
  out.textContent = "…";
  try {
    const result = await run();
    out.textContent = JSON.stringify(result, null, 2);
    section.dataset["state"] = "ok";
    return true;
  } catch (err) {
    out.textContent = err instanceof SlotgateError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    section.dataset["state"] = "error";
    return false;
  }
}

function enable(...ids: string[]): void {
  for (const id of ids) $<HTMLButtonElement>(`#${id}`).disabled = false;
}

function shortJwt(jwt: string): string {
  return `${jwt.slice(0, 16)}…${jwt.slice(-8)} (${jwt.length} chars)`;
}

async function main(): Promise<void> {
  const config = (await api("GET", "/api/config")) as PublicConfig;
  $("#config").textContent = `Service ${config.slotgateUrl} · client ${config.clientId} · cuid ${config.cuid}`;
  const market = $<HTMLAnchorElement>("#market-link");
  if (config.marketplaceUrl) market.href = `${config.marketplaceUrl}/`;
  else market.removeAttribute("href");
  const slotgate = new Slotgate({ slotgateUrl: config.slotgateUrl, clientId: config.clientId, redirectUri: config.redirectUri });
  const wallet = new SlotgateWallet({ slotgateUrl: config.slotgateUrl, clientId: config.clientId, redirectUri: config.redirectUri });

  // login() must run inside the click handler, or the browser blocks the popup.
  $("#login").addEventListener("click", () => {
    void step("login", async () => {
      const { jwt } = await slotgate.login();
      const { slot } = (await api("POST", "/api/session", { jwt })) as { slot: unknown };
      return { popup_jwt: shortJwt(jwt), slot_info_from_backend: slot };
    }).then((ok) => ok && enable("pin-setup", "approve", "status-login", "buy", "spend", "balance", "logout", "slots", "slot-open", "slot-activate"));
  });
  // The wallet window (issue 31): the PIN is set up, and the purchase consent given, on the service's own page.
  $("#pin-setup").addEventListener("click", () => void step("pin", () => wallet.setUpPin()));
  $("#approve").addEventListener("click", () => {
    void step("approve", async () => {
      const confirmation = (await api("POST", "/api/wallet/approve-purchases", { amount: $<HTMLInputElement>("#approve-amount").value.trim() })) as {
        id: string;
        kind: string;
        window_url: string;
      };
      const outcome = await wallet.approvePurchases(confirmation);
      // What the service recorded (the back end never acts on the window's message alone).
      const { confirmation: recorded } = (await api("GET", `/api/wallet/confirmations/${encodeURIComponent(confirmation.id)}`)) as {
        confirmation: { status: string };
      };
      return { window: outcome, service: recorded };
    });
  });
  $("#status-login").addEventListener("click", () => void step("status", () => api("POST", "/api/status/login")));
  $("#buy").addEventListener(
    "click",
    () => void step("buy", () => api("POST", "/api/tokens/buy", { amount: $<HTMLInputElement>("#buy-amount").value.trim() })),
  );
  $("#spend").addEventListener(
    "click",
    () => void step("spend", () => api("POST", "/api/tokens/spend", { amount: $<HTMLInputElement>("#spend-amount").value.trim() })),
  );
  $("#balance").addEventListener("click", () => void step("balance", () => api("GET", "/api/tokens/balance")));
  $("#logout").addEventListener("click", () => {
    void step("logout", async () => {
      const result = await api("POST", "/api/logout");
      await slotgate.logout(); // clears slotgate_* storage and revokes the JWT; never throws
      return { ...(result as object), browser_logged_in: slotgate.isLoggedIn() };
    }).then((ok) => ok && enable("release"));
  });
  $("#release").addEventListener("click", () => void step("release", () => api("POST", "/api/tokens/release")));
  $("#slots").addEventListener("click", () => void step("slots", () => api("GET", "/api/slots")));
  $("#slot-open").addEventListener("click", () => void step("slots", () => api("POST", "/api/slots")));
  $("#slot-activate").addEventListener(
    "click",
    () => void step("slots", () => api("POST", "/api/slots/activate", { meta_idx: $<HTMLInputElement>("#slot-index").value.trim() })),
  );
  document.body.dataset["ready"] = "true";
}

void main().catch((err: unknown) => {
  $("#config").textContent = `Could not load the demo configuration: ${err instanceof Error ? err.message : String(err)}`;
});
