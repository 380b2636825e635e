import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLOSE_GRACE_MS, POLL_MS, SEVERANCE_MS } from "../src/popup/await-result.js";
import { SlotgateError, SlotgateWallet } from "../src/wallet/index.js";
import { type FakePopup, fakePopup, postFromPopup, stubWindowOpen } from "./helpers/fake-popup.js";

// The wallet window's mechanics with a stand-in popup: the URL it opens, the answers it takes and ignores, and how
// it ends. The round trip against the simulated service is test/wallet.simulated-service.test.ts.

const SERVICE = "https://auth.slotgate.test";
const options = { slotgateUrl: SERVICE, clientId: "sg_client123", redirectUri: "https://game.test/callback.html" };
const ID = "wc_0123456789abcdefghijklmn"; // 22 to 64 base64url characters, as the service answers

function settleLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** Opens a window with `call` and returns it, its popup and the `state` the SDK put in its URL. */
function opened(call: (wallet: SlotgateWallet) => Promise<unknown>, wallet = new SlotgateWallet(options)) {
  const popup = fakePopup();
  const open = stubWindowOpen(popup);
  const promise = settleLater(call(wallet));
  const url = new URL(String(open.mock.calls.at(-1)?.[0]));
  return { promise, popup, url, state: url.searchParams.get("state") ?? "", open, wallet };
}

function answer(popup: FakePopup, state: string, data: Record<string, unknown>, origin = SERVICE): void {
  postFromPopup({ from: "slotgate", type: "wallet_result", state, data }, origin, popup);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("SlotgateWallet: the confirmation windows", () => {
  it.each([
    ["approvePurchases", "approve_purchases"],
    ["transfer", "token_transfer"],
    ["confirmSlotHandOver", "slot_hand_over"],
  ] as const)("%s(id) opens {slotgateUrl}/wallet/confirm/{id}?state=<fresh> synchronously", (method, kind) => {
    const { url, state, open } = opened((w) => w[method]({ id: ID, kind, window_url: `${SERVICE}/wallet/confirm/${ID}` }));
    expect(open).toHaveBeenCalledTimes(1);
    expect(url.origin + url.pathname).toBe(`${SERVICE}/wallet/confirm/${ID}`);
    expect([...url.searchParams.keys()]).toEqual(["state"]);
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("takes the bare id too, and a fresh state for every window", async () => {
    const wallet = new SlotgateWallet(options);
    const states = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { promise, popup, url, state } = opened((w) => w.transfer(ID), wallet);
      expect(url.pathname).toBe(`/wallet/confirm/${ID}`);
      states.add(state);
      answer(popup, state, { action: "token_transfer", status: "denied", confirmation_id: ID });
      await expect(promise).rejects.toMatchObject({ code: "confirmation_denied" });
    }
    expect(states.size).toBe(3);
  });

  it("approve: resolves { status, txHash, writeId, confirmationId } and closes the window", async () => {
    const { promise, popup, state } = opened((w) => w.approvePurchases({ id: ID }));
    answer(popup, state, { action: "approve_purchases", status: "approved", confirmation_id: ID, tx_hash: "0xabc", write_id: "w_1" });
    await expect(promise).resolves.toEqual({
      status: "approved",
      action: "approve_purchases",
      confirmationId: ID,
      txHash: "0xabc",
      writeId: "w_1",
      address: null,
    });
    expect(popup.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("deny: rejects confirmation_denied", async () => {
    const { promise, popup, state } = opened((w) => w.transfer(ID));
    answer(popup, state, { action: "token_transfer", status: "denied", confirmation_id: ID });
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlotgateError);
    expect(error).toMatchObject({ code: "confirmation_denied", message: "The user denied the wallet request" });
  });

  it("failed: rejects confirmation_failed with the service's error as a printable reason", async () => {
    const { promise, popup, state } = opened((w) => w.confirmSlotHandOver(ID));
    answer(popup, state, {
      action: "slot_hand_over",
      status: "failed",
      confirmation_id: ID,
      error: { code: "pin_locked\n\u0000", message: "Too many wrong PINs." },
    });
    await expect(promise).rejects.toMatchObject({
      code: "confirmation_failed",
      reason: "pin_locked",
      message: "Wallet request failed: pin_locked",
    });
  });

  it.each([
    ["another origin", { origin: "https://evil.test" }],
    ["another window", { source: "other" }],
    ["another state", { state: "other" }],
    ["a login message", { type: "success" }],
    ["another sender", { from: "gameauth" }],
    ["an unknown status", { data: { action: "token_transfer", status: "done" } }],
    ["a non-string tx_hash", { data: { action: "token_transfer", status: "approved", tx_hash: 7 } }],
    ["another confirmation's id", { data: { action: "token_transfer", status: "approved", confirmation_id: "wc_another_confirmation_id" } }],
    ["an error that is not an object with a code", { data: { action: "token_transfer", status: "failed", error: "pin_locked" } }],
  ])("ignores a message from %s and keeps waiting", async (_label, change) => {
    const { promise, popup, state } = opened((w) => w.transfer(ID));
    const { origin = SERVICE, source = popup, ...fields } = change as Record<string, unknown>;
    const message = { from: "slotgate", type: "wallet_result", state, data: { action: "token_transfer", status: "approved", confirmation_id: ID }, ...fields };
    postFromPopup(message, origin as string, source === "other" ? {} : source);
    postFromPopup(null, SERVICE, popup);
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(false);
    answer(popup, state, { action: "token_transfer", status: "approved", confirmation_id: ID, tx_hash: null, write_id: "w_2" });
    await expect(promise).resolves.toMatchObject({ status: "approved", txHash: null, writeId: "w_2", confirmationId: ID });
  });

  it.each([
    ["a window_url on another origin", { id: ID, window_url: `https://evil.test/wallet/confirm/${ID}` }, "window_url"],
    ["a window_url off the wallet path", { id: ID, window_url: `${SERVICE}/oauth/authorize` }, "window_url"],
    ["a window_url with its own query", { id: ID, window_url: `${SERVICE}/wallet/confirm/${ID}?state=x` }, "window_url"],
    ["a window_url for another confirmation", { id: ID, window_url: `${SERVICE}/wallet/confirm/${ID.replace("wc_", "xx_")}` }, "window_url"],
    ["another kind", { id: ID, kind: "token_transfer" }, "call transfer()"],
    ["no id", { window_url: `${SERVICE}/wallet/confirm/${ID}` }, "createWalletConfirmation"],
    ["an empty id", "", "createWalletConfirmation"],
    ["an id that is no confirmation id", "../../oauth/authorize", "createWalletConfirmation"],
  ])("rejects invalid_options for %s without opening a window", async (_label, confirmation, hint) => {
    const open = stubWindowOpen(fakePopup());
    const wallet = new SlotgateWallet(options);
    const error = await wallet.approvePurchases(confirmation as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_options" });
    expect((error as Error).message).toContain(hint);
    expect(open).not.toHaveBeenCalled();
  });

  it("a second call for the same window focuses it and returns the same promise; another window is refused", async () => {
    const { promise, popup, state, open, wallet } = opened((w) => w.transfer(ID));
    const focus = vi.spyOn(popup, "focus");
    expect(wallet.transfer(ID)).toBe(promise);
    await expect(wallet.setUpPin()).rejects.toMatchObject({ code: "invalid_options", message: "another wallet window is open" });
    expect(focus).toHaveBeenCalledTimes(2);
    expect(open).toHaveBeenCalledTimes(1);
    answer(popup, state, { action: "token_transfer", status: "approved", confirmation_id: ID });
    await promise;
    settleLater(wallet.setUpPin());
    expect(open).toHaveBeenCalledTimes(2);
  });
});

describe("SlotgateWallet: the page-started windows", () => {
  it.each([
    ["setUpPin", "pin-setup"],
    ["resetPin", "pin-reset"],
    ["recover", "recover"],
    ["manageApprovals", "approvals"],
  ] as const)("%s() opens {slotgateUrl}/wallet/%s?client_id&redirect_uri&state", (method, action) => {
    const { url, state } = opened((w) => w[method]());
    expect(url.origin + url.pathname).toBe(`${SERVICE}/wallet/${action}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: "sg_client123", redirect_uri: options.redirectUri, state });
  });

  it("recover() resolves the address the window reports", async () => {
    const { promise, popup, state } = opened((w) => w.recover());
    answer(popup, state, { action: "recover", status: "approved", address: "0x1111111111111111111111111111111111111111" });
    await expect(promise).resolves.toEqual({
      status: "approved",
      action: "recover",
      confirmationId: null,
      txHash: null,
      writeId: null,
      address: "0x1111111111111111111111111111111111111111",
    });
  });
});

describe("SlotgateWallet: how a window ends without an answer", () => {
  it("rejects popup_blocked when window.open returns null", async () => {
    stubWindowOpen(null);
    await expect(new SlotgateWallet(options).setUpPin()).rejects.toMatchObject({ code: "popup_blocked", message: "Popup blocked" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects popup_closed ('User closed the wallet window') when the user closes it", async () => {
    const { promise, popup } = opened((w) => w.transfer(ID));
    popup.crossOrigin = true;
    await vi.advanceTimersByTimeAsync(POLL_MS + SEVERANCE_MS);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(POLL_MS + CLOSE_GRACE_MS);
    await expect(promise).rejects.toMatchObject({ code: "popup_closed", message: "User closed the wallet window" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects wallet_timeout after the timeout (default 10 minutes)", async () => {
    const { promise } = opened((w) => w.manageApprovals());
    await vi.advanceTimersByTimeAsync(599_999);
    let settled = false;
    promise.catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).rejects.toMatchObject({ code: "wallet_timeout", message: "Wallet timeout" });
  });

  it("honours a shorter timeout and refuses a bad one", async () => {
    const { promise } = opened((w) => w.resetPin({ timeout: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(promise).rejects.toMatchObject({ code: "wallet_timeout" });
    await expect(new SlotgateWallet(options).resetPin({ timeout: 0 })).rejects.toMatchObject({ code: "invalid_options" });
  });

  it("completes through BroadcastChannel('slotgate_wallet') when COOP severed the window, ignoring another tab's state", async () => {
    const { promise, popup, state } = opened((w) => w.approvePurchases(ID));
    popup.closed = true; // severed: the handle reads closed at the first cross-origin navigation
    await vi.advanceTimersByTimeAsync(POLL_MS * 3 + CLOSE_GRACE_MS);
    const bridge = new BroadcastChannel("slotgate_wallet");
    bridge.postMessage({ from: "slotgate", type: "wallet_result", state: "theirs", data: { action: "approve_purchases", status: "denied" } });
    bridge.postMessage({ from: "slotgate", type: "wallet_result", state, data: { action: "approve_purchases", status: "approved", confirmation_id: ID } });
    bridge.close();
    await expect(promise).resolves.toMatchObject({ status: "approved", confirmationId: ID });
  });

  it("does not take a login result on the login channel", async () => {
    const { promise, popup, state } = opened((w) => w.setUpPin());
    const login = new BroadcastChannel("slotgate_login");
    login.postMessage({ from: "slotgate", type: "wallet_result", state, data: { action: "pin-setup", status: "denied" } });
    login.close();
    await vi.advanceTimersByTimeAsync(50);
    answer(popup, state, { action: "pin-setup", status: "approved" });
    await expect(promise).resolves.toMatchObject({ status: "approved", action: "pin-setup" });
  });
});
