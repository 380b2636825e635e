import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleLoginCallback } from "../src/index.js";
import { handleWalletCallback } from "../src/wallet/index.js";

function listen(name: string): { messages: unknown[]; close: () => void } {
  const channel = new BroadcastChannel(name);
  const messages: unknown[] = [];
  channel.onmessage = (event) => messages.push(event.data);
  return { messages, close: () => channel.close() };
}

const DATA = { action: "approve_purchases", status: "approved", confirmation_id: "wc_1", tx_hash: "0xabc", write_id: "w_1" };
const fragment = (fields: Record<string, string>) => `#${new URLSearchParams(fields)}`;

beforeEach(() => {
  window.history.replaceState(null, "", "https://game.test/callback.html?keep=1");
});
afterEach(() => vi.restoreAllMocks());

describe("handleWalletCallback() (the wallet window's COOP fallback on the redirect page)", () => {
  it("relays the fragment's result on BroadcastChannel('slotgate_wallet'), removes it from the URL and closes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    const wallet = listen("slotgate_wallet");
    const login = listen("slotgate_login");
    window.history.replaceState(
      null,
      "",
      `/callback.html?keep=1${fragment({ from: "slotgate", type: "wallet_result", state: "s+1", data: JSON.stringify(DATA) })}`,
    );
    expect(handleWalletCallback()).toBe(true);
    expect(window.location.href).toBe("https://game.test/callback.html?keep=1");
    await vi.waitFor(() => expect(wallet.messages).toEqual([{ from: "slotgate", type: "wallet_result", state: "s+1", data: DATA }]));
    expect(login.messages).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(close).toHaveBeenCalledTimes(1);
    wallet.close();
    login.close();
    vi.useRealTimers();
  });

  it("can leave the window open", () => {
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    window.history.replaceState(
      null,
      "",
      fragment({ from: "slotgate", type: "wallet_result", state: "s", data: JSON.stringify({ action: "recover", status: "denied" }) }),
    );
    expect(handleWalletCallback({ close: false })).toBe(true);
    expect(close).not.toHaveBeenCalled();
  });

  it.each([
    ["no fragment", ""],
    ["a login result (handleLoginCallback's)", "#from=slotgate&type=success&data=a.b.c&state=s"],
    ["data that is not JSON", "#from=slotgate&type=wallet_result&state=s&data=%7Bnope"],
    ["an unknown status", fragment({ from: "slotgate", type: "wallet_result", state: "s", data: JSON.stringify({ action: "recover", status: "maybe" }) })],
    ["a missing state", fragment({ from: "slotgate", type: "wallet_result", data: JSON.stringify(DATA) })],
  ])("does nothing and returns false for %s", (_label, hash) => {
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    window.history.replaceState(null, "", `/callback.html${hash}`);
    expect(handleWalletCallback()).toBe(false);
    expect(window.location.hash).toBe(hash);
    expect(close).not.toHaveBeenCalled();
  });

  it("handleLoginCallback() leaves a wallet result alone, so one page can call both", () => {
    window.history.replaceState(null, "", fragment({ from: "slotgate", type: "wallet_result", state: "s", data: JSON.stringify(DATA) }));
    expect(handleLoginCallback()).toBe(false);
    expect(window.location.hash).not.toBe("");
  });
});
