/**
 * The wallet window's script (pages: `../pages.tsx`). It reads `#wallet-config`, and:
 * - on a confirmation: hashes the PIN with the salt kept beside the sealed key share, posts
 *   `{ pin_hash, pin_salt, key_share_user }` to this origin's approve (or posts deny), then goes to the
 *   result page, which posts the outcome to the opener;
 * - on PIN set-up, reset (with the words) or recovery (with the mailed code): posts the new PIN's hash and
 *   salt, seals the answered key share in IndexedDB, shows the words of a set-up or recovery answer once (in
 *   the DOM only), then goes to the result page.
 * - on the approvals list: revokes one cuid's consent with the PIN and the kept share, then shows the list again.
 * Nothing it holds leaves this origin. Built into `dist/assets` (`tsup.config.ts`).
 */
import type { WindowConfig } from "../window-config.js";
import { newPinSalt, openKeyShare, pinHash, sealKeyShare } from "./key-custody.js";

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

/** Seals the answered key share, then shows the answered words once, or finishes when there are none (reset). */
async function keep(answer: Record<string, unknown>, pinSalt: string): Promise<void> {
  await sealKeyShare(config.userId, String(answer["key_share_user"]), pinSalt);
  if (typeof answer["words"] !== "string") return finish("approved");
  el("words").textContent = answer["words"];
  for (const id of ["setup", "code-section"]) document.getElementById(id)?.classList.add("hidden");
  el("words-section").classList.remove("hidden");
}

function startKeyPage(): void {
  const clientId = clientIdOf(config.resultUrl);
  let pending: { pin_hash: string; pin_salt: string; recovery_id?: string } | null = null;
  el<HTMLFormElement>("pin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      showError("");
      const pin = el<HTMLInputElement>("pin").value;
      if (pin !== el<HTMLInputElement>("pin-again").value) return showError(config.messages["wallet.setup.mismatch"] ?? "");
      busy(true);
      try {
        const pin_salt = newPinSalt();
        const shares = { client_id: clientId, pin_hash: await pinHash(pin, pin_salt), pin_salt };
        if (config.page === "recover") {
          const code = await post(config.codeUrl ?? "", shares);
          if (!code.ok) return showError(errorText(code.body));
          pending = { pin_hash: shares.pin_hash, pin_salt, recovery_id: String(code.body["recovery_id"]) };
          el("code-sent").textContent = config.messages["wallet.recover.codeSent"] ?? "";
          el("setup").classList.add("hidden");
          el("code-section").classList.remove("hidden");
          return;
        }
        const words = config.page === "pin-reset" ? { mnemonic: el<HTMLTextAreaElement>("mnemonic").value.trim().toLowerCase().split(/\s+/).join(" ") } : {};
        const answer = await post(config.postUrl, { ...shares, ...words });
        if (!answer.ok) {
          return showError(answer.body["error"] === "wallet_exists" ? (config.messages["wallet.setup.exists"] ?? "") : errorText(answer.body));
        }
        await keep(answer.body, pin_salt);
      } finally {
        busy(false);
      }
    })();
  });
  document.getElementById("code-form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      if (!pending) return;
      el("code-error").textContent = "";
      const answer = await post(config.postUrl, { client_id: clientId, ...pending, code: el<HTMLInputElement>("code").value.trim() });
      if (!answer.ok) {
        el("code-error").textContent = errorText(answer.body);
        return;
      }
      await keep(answer.body, pending.pin_salt);
    })();
  });
  el("words-done").addEventListener("click", () => {
    el("words").textContent = "";
    finish("approved");
  });
}

function startApprovals(): void {
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>("button.revoke"))) {
    button.addEventListener("click", () => {
      void (async () => {
        showError("");
        const held = await openKeyShare(config.userId);
        if (!held) return showError(config.messages["wallet.noKey"] ?? "");
        button.disabled = true;
        const pin = el<HTMLInputElement>("pin").value;
        const answer = await post(config.postUrl, {
          client_id: clientIdOf(config.resultUrl),
          cuid: button.dataset["cuid"] ?? "",
          pin_hash: await pinHash(pin, held.pinSalt),
          pin_salt: held.pinSalt,
          key_share_user: held.keyShareUser,
        });
        button.disabled = false;
        if (!answer.ok) return showError(errorText(answer.body));
        location.reload();
      })();
    });
  }
  el("approvals-done").addEventListener("click", () => finish("approved"));
}

function clientIdOf(url: string): string {
  return new URL(url, location.href).searchParams.get("client_id") ?? "";
}

if (config.page === "confirm") startConfirm();
else if (config.page === "approvals") startApprovals();
else startKeyPage();
