// The marketplace's page: only @slotgate/client-sdk runs here (the login popup and the wallet window); every other
// step is a call to this back end. The PIN, the key share and the backup words stay in the Slotgate wallet window.
import { Slotgate, SlotgateError } from "@slotgate/client-sdk";
import { SlotgateWallet } from "@slotgate/client-sdk/wallet";

interface PublicConfig {
  slotgateUrl: string;
  clientId: string;
  redirectUri: string;
  games: string[];
}
interface SessionView {
  user: { user_id: string; nickname: string } | null;
  game_status?: Record<string, "logged_in" | "logged_out">;
}
interface Slot {
  cuid: string;
  meta_idx: number;
  slot: string;
  state: string;
  balance: string;
  used_balances: string;
  tr_cnt: number;
  listing: { id: string; state: string } | null;
}
interface Sale {
  state: string;
  new_owner: string | null;
  tr_cnt: number | null;
  tx_hash: string | null;
  message: string | null;
}
interface ListingRow {
  id: string;
  cuid: string;
  meta_idx: number;
  seller_user_id: string;
  price: string;
  state: string;
  buyer_user_id: string | null;
  sale: Sale | null;
}

const $ = <T extends HTMLElement>(selector: string): T => {
  const el = document.querySelector<T>(selector);
  if (!el) throw new Error(`missing ${selector}`);
  return el;
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

class ApiError extends Error {}

/** Calls a marketplace route; rejects with the route's message on failure. */
async function api<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: method === "POST" ? { "content-type": "application/json" } : {},
    ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  const json = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
  if (!res.ok) throw new ApiError(json.message ?? `HTTP ${res.status}`);
  return json as T;
}

let messageSeq = 0;
function say(kind: "ok" | "error", text: string): void {
  const m = $("#message");
  m.dataset["kind"] = kind;
  m.dataset["seq"] = String(++messageSeq);
  m.textContent = text;
}

/** Runs one user action: its message on success, the refusal's message (shown as it is) on failure. */
async function act(run: () => Promise<string | undefined>): Promise<void> {
  try {
    const text = await run();
    if (text) say("ok", text);
  } catch (err) {
    say("error", err instanceof SlotgateError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err));
  }
}

let session: SessionView = { user: null };
let wallet: SlotgateWallet;

async function loadSession(): Promise<void> {
  session = await api<SessionView>("GET", "/api/session");
  const signedIn = session.user !== null;
  $("#whoami").textContent = signedIn ? `Signed in as ${session.user!.nickname} (user ${session.user!.user_id}).` : "Not signed in.";
  const games = Object.entries(session.game_status ?? {});
  const status = $("#game-status");
  status.textContent = games.map(([cuid, s]) => `${cuid}: ${s === "logged_in" ? "playing (logged in)" : "logged out"}`).join(", ");
  status.dataset["status"] = games.some(([, s]) => s === "logged_in") ? "logged_in" : games.length > 0 ? "logged_out" : "";
  $("#login").hidden = signedIn;
  $("#logout").hidden = !signedIn;
  $("#pin-section").hidden = !signedIn;
  $("#my-slots-section").hidden = !signedIn;
}

async function loadSlots(): Promise<void> {
  const body = $("#my-slots");
  if (!session.user) {
    body.replaceChildren();
    return;
  }
  const { cuid, slots } = await api<{ cuid: string; slots: Slot[] }>("GET", "/api/slots");
  $("#my-slots-cuid").textContent = `(${cuid})`;
  body.replaceChildren(
    ...slots.map((s) => {
      const key = `${s.cuid}-${s.meta_idx}`;
      const price = el("input", { id: `price-${key}`, value: "100", inputMode: "numeric" });
      const list = el("button", { id: `list-${key}`, type: "button", textContent: "List" });
      list.disabled = s.listing !== null;
      list.addEventListener(
        "click",
        () =>
          void act(async () => {
            const { listing } = await api<{ listing: { id: string } }>("POST", "/api/listings", {
              cuid: s.cuid,
              meta_idx: s.meta_idx,
              price: price.value.trim(),
            });
            await refresh();
            return `Listed slot ${s.meta_idx} of ${s.cuid} as listing #${listing.id}.`;
          }),
      );
      const action = s.listing ? el("td", { textContent: `listing #${s.listing.id} (${s.listing.state})` }) : el("td", {}, price, list);
      return el(
        "tr",
        { id: `slot-${key}` },
        el("td", { textContent: `#${s.meta_idx}` }),
        el("td", { textContent: s.state }),
        el("td", { className: "addr", textContent: s.slot }),
        el("td", { textContent: s.balance }),
        el("td", { textContent: s.used_balances }),
        el("td", { textContent: String(s.tr_cnt) }),
        action,
      );
    }),
  );
}

function showSale(sale: Sale | null): void {
  if (sale?.state !== "sold") return;
  $("#sale-result").hidden = false;
  $("#sale-owner").textContent = sale.new_owner ?? "?";
  $("#sale-tr-cnt").textContent = String(sale.tr_cnt ?? "?");
  $("#sale-tx").textContent = sale.tx_hash ? `(tx ${sale.tx_hash})` : "";
}

async function loadListings(): Promise<void> {
  const { me, listings } = await api<{ me: string | null; listings: ListingRow[] }>("GET", "/api/listings");
  $("#listings").replaceChildren(
    ...listings.map((l) => {
      const actions = el("td");
      const button = (id: string, text: string, run: () => Promise<string | undefined>) => {
        const b = el("button", { id, type: "button", textContent: text });
        b.addEventListener("click", () => void act(run));
        actions.append(b);
      };
      if (me && l.state === "listed" && l.seller_user_id !== me) {
        button(`buy-${l.id}`, "Buy", async () => {
          const { message } = await api<{ message: string }>("POST", `/api/listings/${l.id}/buy`);
          await refresh();
          return message;
        });
      }
      if (me && l.state === "listed" && l.seller_user_id === me) {
        button(`withdraw-${l.id}`, "Withdraw", async () => {
          await api("POST", `/api/listings/${l.id}/withdraw`);
          await refresh();
          return `Listing #${l.id} withdrawn.`;
        });
      }
      if (me && l.state === "reserved" && l.seller_user_id === me) {
        const pending = l.sale?.state === "pending";
        button(pending ? `refresh-${l.id}` : `confirm-${l.id}`, pending ? "Check the chain" : "Confirm hand-over", async () => {
          if (!pending) {
            // The back end asks the service for the confirmation; the seller confirms with the PIN in the Slotgate window.
            const confirmation = await api<{ id: string; kind: string; window_url: string }>("POST", `/api/listings/${l.id}/hand-over`);
            try {
              await wallet.confirmSlotHandOver(confirmation);
            } catch (err) {
              // Denied, closed or refused: the back end still reads the outcome from the service (below).
              if (!(err instanceof SlotgateError)) throw err;
            }
          }
          // The outcome as the service has it (never the window's message): sold, pending, or the sale waits.
          const { sale } = await api<{ sale: Sale }>("POST", `/api/listings/${l.id}/hand-over/finish`);
          await refresh();
          showSale(sale);
          return sale.state === "sold"
            ? `Sold: slot ${l.meta_idx} of ${l.cuid} now belongs to user ${l.buyer_user_id}.`
            : (sale.message ?? `The sale is ${sale.state}.`);
        });
      }
      const saleText = l.sale
        ? `${l.sale.state}${l.sale.tr_cnt !== null ? `, tr_cnt ${l.sale.tr_cnt}` : ""}${l.sale.message ? ` — ${l.sale.message}` : ""}`
        : "";
      return el(
        "tr",
        { id: `listing-${l.id}` },
        el("td", { textContent: `#${l.id}` }),
        el("td", { textContent: `${l.cuid} #${l.meta_idx}` }),
        el("td", { textContent: l.seller_user_id === me ? "you" : `user ${l.seller_user_id}` }),
        el("td", { textContent: l.price }),
        el("td", { className: "state", textContent: l.state }),
        el("td", { textContent: saleText }),
        actions,
      );
    }),
  );
  for (const l of listings) document.getElementById(`listing-${l.id}`)!.dataset["state"] = l.state;
}

async function refresh(): Promise<void> {
  await loadSession();
  await Promise.all([loadSlots(), loadListings()]);
}

async function main(): Promise<void> {
  const config = await api<PublicConfig>("GET", "/api/config");
  $("#config").textContent = `Service ${config.slotgateUrl} · games ${config.games.join(", ")}`;
  const slotgate = new Slotgate({ slotgateUrl: config.slotgateUrl, clientId: config.clientId, redirectUri: config.redirectUri });
  wallet = new SlotgateWallet({ slotgateUrl: config.slotgateUrl, clientId: config.clientId, redirectUri: config.redirectUri });

  // login() must run inside the click handler, or the browser blocks the popup.
  $("#login").addEventListener(
    "click",
    () =>
      void act(async () => {
        const { jwt } = await slotgate.login();
        await api("POST", "/api/session", { jwt });
        await refresh();
        return `Signed in as ${session.user?.nickname}.`;
      }),
  );
  $("#logout").addEventListener(
    "click",
    () =>
      void act(async () => {
        await api("POST", "/api/session/logout");
        await slotgate.logout();
        await refresh();
        return "Signed out.";
      }),
  );
  // The Slotgate wallet window sets the PIN up, shows the backup words once and keeps the key share on its own origin.
  $("#pin-register").addEventListener(
    "click",
    () =>
      void act(async () => {
        const { address } = await wallet.setUpPin();
        await refresh();
        return `PIN set up in the Slotgate window${address ? ` for wallet ${address}` : ""}.`;
      }),
  );
  $("#reload-slots").addEventListener("click", () => void act(async () => void (await loadSlots())));
  $("#reload-listings").addEventListener("click", () => void act(async () => void (await loadListings())));

  await loadSession();
  await Promise.all([loadSlots().catch((err: unknown) => say("error", err instanceof Error ? err.message : String(err))), loadListings()]);
  document.body.dataset["ready"] = "true";
}

void main().catch((err: unknown) => {
  $("#config").textContent = `Could not load the marketplace: ${err instanceof Error ? err.message : String(err)}`;
});
