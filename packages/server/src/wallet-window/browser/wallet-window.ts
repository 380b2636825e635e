/**
 * The wallet window's script (pages: `../pages.tsx`). It reads `#wallet-config`, and:
 * - on a confirmation: hashes the PIN with the salt kept beside the sealed key share, posts
 *   `{ pin_hash, pin_salt, key_share_user }` to this origin's approve (or posts deny), then goes to the
 *   result page, which posts the outcome to the opener;
 * - on PIN set-up: posts the new PIN's hash and salt, seals the answered key share in IndexedDB, shows the
 *   words from the answer once (in the DOM only), then goes to the result page.
 * Nothing it holds leaves this origin. Built into `dist/assets` (`tsup.config.ts`).
 */
import { newPinSalt, openKeyShare, pinHash, sealKeyShare } from "./key-custody.js";

interface WindowConfig {
  page: "confirm" | "pin-setup";
  userId: string;
  csrfToken: string;
  postUrl: string;
  denyUrl?: string;
  resultUrl: string;
  messages: Record<string, string>;
}

const config = JSON.parse(document.getElementById("wallet-config")?.textContent ?? "{}") as WindowConfig;

function el<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}`);
  return found as T;
}

function showError(text: string): void {
  el("error").textContent = text;
}

function busy(on: boolean): void {
  for (const id of ["approve", "deny"]) {
    const button = document.getElementById(id);
    if (button instanceof HTMLButtonElement) button.disabled = on;
  }
}

async function post(url: string, body: Record<string, unknown>): Promise<{ ok: boolean; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrf_token: config.csrfToken, ...body }),
  });
  const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, body: parsed };
}

function errorText(body: Record<string, unknown>): string {
  const code = typeof body["error"] === "string" ? body["error"] : "";
  return config.messages[`error.${code}`] ?? (typeof body["message"] === "string" ? body["message"] : code);
}

function finish(outcome: "approved" | "denied"): void {
  const sep = config.resultUrl.includes("?") ? "&" : "?";
  location.replace(config.page === "confirm" ? config.resultUrl : `${config.resultUrl}${sep}outcome=${outcome}`);
}

function startConfirm(): void {
  el<HTMLFormElement>("pin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      busy(true);
      showError("");
      try {
        const held = await openKeyShare(config.userId);
        if (!held) return showError(config.messages["wallet.noKey"] ?? "");
        const pin = el<HTMLInputElement>("pin").value;
        const answer = await post(config.postUrl, { pin_hash: await pinHash(pin, held.pinSalt), pin_salt: held.pinSalt, key_share_user: held.keyShareUser });
        if (!answer.ok) return showError(errorText(answer.body));
        finish("approved");
      } finally {
        busy(false);
      }
    })();
  });
  el("deny").addEventListener("click", () => {
    void (async () => {
      busy(true);
      const answer = await post(config.denyUrl ?? "", {});
      busy(false);
      // Already closed elsewhere: the result page says what happened.
      if (answer.ok || answer.body["error"] === "confirmation_closed") finish("denied");
      else showError(errorText(answer.body));
    })();
  });
}

function startPinSetup(): void {
  el<HTMLFormElement>("pin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      showError("");
      const pin = el<HTMLInputElement>("pin").value;
      if (pin !== el<HTMLInputElement>("pin-again").value) return showError(config.messages["wallet.setup.mismatch"] ?? "");
      busy(true);
      try {
        const pinSalt = newPinSalt();
        const answer = await post(config.postUrl, { client_id: clientIdOf(config.resultUrl), pin_hash: await pinHash(pin, pinSalt), pin_salt: pinSalt });
        if (!answer.ok) {
          return showError(answer.body["error"] === "wallet_exists" ? (config.messages["wallet.setup.exists"] ?? "") : errorText(answer.body));
        }
        await sealKeyShare(config.userId, String(answer.body["key_share_user"]), pinSalt);
        el("words").textContent = String(answer.body["words"]);
        el("setup").classList.add("hidden");
        el("words-section").classList.remove("hidden");
      } finally {
        busy(false);
      }
    })();
  });
  el("words-done").addEventListener("click", () => {
    el("words").textContent = "";
    finish("approved");
  });
}

function clientIdOf(url: string): string {
  return new URL(url, location.href).searchParams.get("client_id") ?? "";
}

if (config.page === "confirm") startConfirm();
else if (config.page === "pin-setup") startPinSetup();
