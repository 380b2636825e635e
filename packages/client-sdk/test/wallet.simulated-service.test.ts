// @vitest-environment-options { "url": "https://app.example.test/play" }
import https from "node:https";
import { runInNewContext } from "node:vm";
import { FIXTURES, createMockService } from "@slotgate/mock-service";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CLOSE_GRACE_MS, POLL_MS, SEVERANCE_MS } from "../src/popup/await-result.js";
import { SlotgateWallet, handleWalletCallback } from "../src/wallet/index.js";
import { type FakePopup, fakePopup, stubWindowOpen } from "./helpers/fake-popup.js";

// The wallet window's whole round trip against @slotgate/mock-service (the simulated service, MSW): the app's
// backend creates a confirmation over HTTP Basic, the SDK opens the window URL, the service's own result page is
// fetched and its script (the protocol's POPUP_RESULT_SCRIPT, the bytes the reference server serves) is run
// with this window as its opener, or with no opener (COOP) and then this app's callback page. This page runs on
// the web client's redirect-URI origin, as a real app must.

const mock = createMockService({ baseUrl: "https://slotgate.test" });
const server = setupServer(...mock.handlers);
const client = FIXTURES.webClient;
const options = { slotgateUrl: mock.baseUrl, clientId: client.client_id, redirectUri: client.redirect_uri };
const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, "", "/play");
});

/** One request with node:https (MSW intercepts it): the app's backend, or the window's page load. */
function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = https.request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** The integrator's backend: `createWalletConfirmation` for the seeded player. */
async function createConfirmation(request: Record<string, unknown>) {
  const res = await fetchJson("POST", "/v1/wallet/confirmations", {
    user_uuid: Number(FIXTURES.endUser.user_id),
    redirect_uri: client.redirect_uri,
    request,
  });
  expect(res.status).toBe(201);
  return res.json as { id: string; kind: string; window_url: string; status: string };
}

async function fetchJson(method: string, path: string, body?: unknown) {
  const res = await request(`${mock.baseUrl}${path}`, {
    method,
    headers: { authorization: basic, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: JSON.parse(res.body) as Record<string, unknown> };
}

const approvePurchases = { kind: "approve_purchases", cuid: FIXTURES.provider.cuid, amount: "1000000000000000000" };

/**
 * What the window does: load the URL the SDK opened, then run the result page's own script. With `opener`, its
 * `postMessage(message, targetOrigin)` reaches this window only when `targetOrigin` is this page's origin, from
 * the service origin and the popup (`origin` overrides the sender, to play a hostile page). Without one it
 * navigates: the URL it would load is returned.
 */
async function actInWindow(url: string, popup: FakePopup, how: { opener: boolean; origin?: string }) {
  const page = await request(url, { headers: { accept: "text/html" } });
  expect(page.status).toBe(200);
  const json = /<script type="application\/json" id="slotgate-result">([^<]*)<\/script>/.exec(page.body)?.[1];
  const script = /<script>([\s\S]*?)<\/script>/.exec(page.body)?.[1];
  expect(json, "the page embeds its result").toBeDefined();
  let navigatedTo: string | undefined;
  const opener = {
    postMessage(data: unknown, targetOrigin: string) {
      if (targetOrigin !== window.location.origin) return; // the browser drops a message for another origin
      const event = new MessageEvent("message", { data, origin: how.origin ?? mock.baseUrl });
      Object.defineProperty(event, "source", { value: popup });
      window.dispatchEvent(event);
    },
  };
  runInNewContext(script ?? "", {
    document: { getElementById: (id: string) => (id === "slotgate-result" ? { textContent: json } : null) },
    window: { opener: how.opener ? opener : null, close: () => popup.close() },
    location: { replace: (to: string) => (navigatedTo = to) },
    URLSearchParams,
    JSON,
    BroadcastChannel: undefined, // the window's channel is on the service origin: it never reaches this page
    setTimeout: (run: () => void) => run(), // the page closes itself a moment after posting
  });
  return { navigatedTo, payload: JSON.parse(json ?? "{}") as { targetOrigin: string; channel: string } };
}

function openedUrl(open: ReturnType<typeof stubWindowOpen>): string {
  return String(open.mock.calls.at(-1)?.[0]);
}

describe("the wallet window against the simulated service (@slotgate/mock-service)", () => {
  it("approve: approvePurchases() resolves the outcome, and the backend reads the confirmation approved with that tx_hash", async () => {
    const confirmation = await createConfirmation(approvePurchases);
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const outcome = new SlotgateWallet(options).approvePurchases(confirmation);
    expect(openedUrl(open).startsWith(`${confirmation.window_url}?state=`)).toBe(true);
    const { payload } = await actInWindow(openedUrl(open), popup, { opener: true });
    expect(payload.targetOrigin).toBe(new URL(client.redirect_uri).origin);
    expect(payload.channel).toBe("slotgate_wallet");
    const result = await outcome;
    expect(result).toMatchObject({ status: "approved", action: "approve_purchases", confirmationId: confirmation.id, address: null });
    expect(result.txHash).toMatch(/^0x[0-9a-f]{64}$/i);
    expect(popup.closed).toBe(true);
    const read = await fetchJson("GET", `/v1/wallet/confirmations/${confirmation.id}`);
    expect(read.json).toMatchObject({ status: "approved", tx_hash: result.txHash, write_id: null });
  });

  it("deny: transfer() rejects confirmation_denied, and the confirmation is denied", async () => {
    const confirmation = await createConfirmation({ kind: "token_transfer", to_address: "0x00000000000000000000000000000000c0ffee02", amount: "5" });
    mock.wallet.nextDecision("deny");
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const outcome = new SlotgateWallet(options).transfer(confirmation.id);
    outcome.catch(() => {});
    await actInWindow(openedUrl(open), popup, { opener: true });
    await expect(outcome).rejects.toMatchObject({ code: "confirmation_denied" });
    expect((await fetchJson("GET", `/v1/wallet/confirmations/${confirmation.id}`)).json["status"]).toBe("denied");
  });

  it("failure: rejects confirmation_failed with the service's error code; a decided confirmation's window reports confirmation_closed", async () => {
    const confirmation = await createConfirmation(approvePurchases);
    mock.wallet.nextDecision("fail");
    const wallet = new SlotgateWallet(options);
    for (const reason of ["chain_unavailable", "confirmation_closed"]) {
      const popup = fakePopup();
      const open = stubWindowOpen(popup);
      const outcome = wallet.approvePurchases(confirmation);
      outcome.catch(() => {});
      await actInWindow(openedUrl(open), popup, { opener: true });
      await expect(outcome).rejects.toMatchObject({ code: "confirmation_failed", reason });
    }
  });

  it("a message from another origin, or from the window of another state, is ignored", async () => {
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const outcome = new SlotgateWallet(options).setUpPin();
    const mine = openedUrl(open);
    // A hostile page replays the service's page (a denial) under its own origin.
    mock.wallet.nextDecision("deny");
    await actInWindow(mine, popup, { opener: true, origin: "https://evil.example.test" });
    // Another tab's window (its own state) denies too.
    const theirs = new URL(mine);
    theirs.searchParams.set("state", "another-tabs-state");
    mock.wallet.nextDecision("deny");
    await actInWindow(theirs.href, popup, { opener: true });
    let settled = false;
    outcome.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    await actInWindow(mine, popup, { opener: true });
    await expect(outcome).resolves.toMatchObject({ status: "approved", action: "pin-setup" });
  });

  it("COOP: the window without an opener hands the result to the redirect page, whose handleWalletCallback() completes the call", async () => {
    const confirmation = await createConfirmation({ kind: "slot_hand_over", cu_id: FIXTURES.provider.cuid, to_uuid: "1002", meta_idx: 0 });
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const outcome = new SlotgateWallet(options).confirmSlotHandOver(confirmation);
    popup.closed = true; // severed: the opener's handle reads closed from the first cross-origin navigation
    const { navigatedTo } = await actInWindow(openedUrl(open), popup, { opener: false });
    expect(navigatedTo?.startsWith(`${client.redirect_uri}#`)).toBe(true);
    // The popup now shows the app's callback page (same origin as this one): it relays on BroadcastChannel.
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    window.history.replaceState(null, "", navigatedTo);
    expect(handleWalletCallback()).toBe(true);
    expect(window.location.hash).toBe("");
    await expect(outcome).resolves.toMatchObject({ status: "approved", action: "slot_hand_over", confirmationId: confirmation.id });
    // The callback page closes itself a moment later: within this test, not after the file's environment is gone.
    await vi.waitFor(() => expect(close).toHaveBeenCalledTimes(1));
  });

  it("page-started: setUpPin() resolves the player's wallet address; manageApprovals() denied rejects confirmation_denied", async () => {
    const wallet = new SlotgateWallet(options);
    let popup = fakePopup();
    let open = stubWindowOpen(popup);
    const pin = wallet.setUpPin();
    const url = new URL(openedUrl(open));
    expect(url.origin + url.pathname).toBe(`${mock.baseUrl}/wallet/pin-setup`);
    await actInWindow(url.href, popup, { opener: true });
    await expect(pin).resolves.toEqual({
      status: "approved",
      action: "pin-setup",
      confirmationId: null,
      txHash: null,
      writeId: null,
      address: mock.state.userWalletOf(FIXTURES.endUser.user_id),
    });

    mock.wallet.nextDecision("deny");
    popup = fakePopup();
    open = stubWindowOpen(popup);
    const approvals = wallet.manageApprovals();
    approvals.catch(() => {});
    await actInWindow(openedUrl(open), popup, { opener: true });
    await expect(approvals).rejects.toMatchObject({ code: "confirmation_denied" });
  });

  it("the service refuses a page-started window for a redirect URI the client did not register", async () => {
    const open = stubWindowOpen(fakePopup());
    new SlotgateWallet({ ...options, redirectUri: "https://app.example.test/other" }).recover().catch(() => {});
    const page = await request(openedUrl(open), { headers: { accept: "text/html" } });
    expect(page.status).toBe(401);
    expect(page.body).toContain("redirect_uri_mismatch");
  });

  it("closed window: the user closes it without answering: popup_closed, and the confirmation stays pending", async () => {
    const confirmation = await createConfirmation(approvePurchases);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    try {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const outcome = new SlotgateWallet(options).approvePurchases(confirmation);
      outcome.catch(() => {});
      popup.crossOrigin = true; // the service's window page is showing
      await vi.advanceTimersByTimeAsync(POLL_MS + SEVERANCE_MS);
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(POLL_MS + CLOSE_GRACE_MS);
      await expect(outcome).rejects.toMatchObject({ code: "popup_closed" });
    } finally {
      vi.useRealTimers();
    }
    expect((await fetchJson("GET", `/v1/wallet/confirmations/${confirmation.id}`)).json["status"]).toBe("pending");
  });
});
