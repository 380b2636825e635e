import { randomBytes } from "node:crypto";
import { type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { POPUP_RESULT_SCRIPT, type WalletResultData, walletResultPayload } from "@slotgate/protocol";

/**
 * A stand-in for the service's wallet window (protocol rows `walletConfirmPage`, `walletActionPage`) on real HTTP at
 * 127.0.0.1: the window shows Approve / Deny buttons (no PIN: the PIN page is the server's), and its answer is the
 * result page built from the protocol's `walletResultPayload` and `POPUP_RESULT_SCRIPT`, the bytes the reference
 * server and the simulated service serve. Test-only.
 */
export interface WalletStandIn {
  baseUrl: string;
  /** A confirmation as the backend's `createWalletConfirmation` answers it, whose window answers to `redirectUri`. */
  createConfirmation(kind: "approve_purchases" | "token_transfer" | "slot_hand_over", redirectUri: string): { id: string; kind: string; window_url: string };
  close(): Promise<void>;
}

const ADDRESS = "0x00000000000000000000000000000000000a11ce";

export async function startWalletStandIn(): Promise<WalletStandIn> {
  const confirmations = new Map<string, { kind: string; redirectUri: string }>();
  const html = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(body);
  };
  const resultPage = (redirectUri: string, state: string, data: WalletResultData) =>
    `<!doctype html><meta charset="utf-8"><title>Slotgate wallet</title>
<script type="application/json" id="slotgate-result">${JSON.stringify(walletResultPayload(redirectUri, state, data)).replace(/</g, "\\u003c")}</script>
<script>${POPUP_RESULT_SCRIPT}</script>`;
  const buttons = `<form method="get"><input type="hidden" name="state"><button name="decision" value="approve">Approve</button>
<button name="decision" value="deny">Deny</button></form>
<script>document.querySelector('input[name="state"]').value = new URLSearchParams(location.search).get("state");</script>`;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    const state = url.searchParams.get("state") ?? "";
    const decision = url.searchParams.get("decision");
    const confirm = /^\/wallet\/confirm\/([\w-]{22,64})$/.exec(url.pathname);
    if (confirm && req.method === "GET") {
      const id = confirm[1] ?? "";
      const c = confirmations.get(id);
      if (!c || !state) return html(res, 404, "confirmation_not_found");
      if (!decision) return html(res, 200, `<!doctype html><title>Confirm</title><p>${c.kind}</p>${buttons}`);
      const data: WalletResultData =
        decision === "approve"
          ? { action: c.kind as WalletResultData["action"], status: "approved", confirmation_id: id, tx_hash: `0x${randomBytes(32).toString("hex")}` }
          : { action: c.kind as WalletResultData["action"], status: "denied", confirmation_id: id };
      confirmations.delete(id);
      return html(res, 200, resultPage(c.redirectUri, state, data));
    }
    const action = /^\/wallet\/(pin-setup|pin-reset|recover|approvals)$/.exec(url.pathname)?.[1] as WalletResultData["action"] | undefined;
    const redirectUri = url.searchParams.get("redirect_uri") ?? "";
    if (action && req.method === "GET" && redirectUri && state && url.searchParams.get("client_id")) {
      // Re-submitting the form keeps client_id and redirect_uri: they are hidden inputs of the page's own URL.
      if (!decision) {
        const keep = ["client_id", "redirect_uri"].map((n) => `<input type="hidden" name="${n}" value="${url.searchParams.get(n)}">`).join("");
        return html(res, 200, `<!doctype html><title>${action}</title>${buttons.replace('<form method="get">', `<form method="get">${keep}`)}`);
      }
      const data: WalletResultData = decision === "approve" ? { action, status: "approved", address: ADDRESS } : { action, status: "denied" };
      return html(res, 200, resultPage(redirectUri, state, data));
    }
    html(res, 404, "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: base,
    createConfirmation(kind, redirectUri) {
      const id = randomBytes(32).toString("base64url");
      confirmations.set(id, { kind, redirectUri });
      return { id, kind, window_url: `${base}/wallet/confirm/${id}` };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
