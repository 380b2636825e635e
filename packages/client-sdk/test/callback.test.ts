import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleLoginCallback } from "../src/index.js";

function listen(): { messages: unknown[]; close: () => void } {
  const channel = new BroadcastChannel("slotgate_login");
  const messages: unknown[] = [];
  channel.onmessage = (event) => messages.push(event.data);
  return { messages, close: () => channel.close() };
}

beforeEach(() => {
  window.history.replaceState(null, "", "https://game.test/callback.html?keep=1");
});
afterEach(() => vi.restoreAllMocks());

describe("handleLoginCallback() (COOP fallback on the redirect page)", () => {
  it("relays the fragment's result on BroadcastChannel('slotgate_login'), removes it from the URL and closes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    const tab = listen();
    window.history.replaceState(null, "", "/callback.html?keep=1#from=slotgate&type=success&data=a.b.c&state=s%2B1");
    expect(handleLoginCallback()).toBe(true);
    expect(window.location.href).toBe("https://game.test/callback.html?keep=1");
    await vi.waitFor(() => expect(tab.messages).toEqual([{ from: "slotgate", type: "success", data: "a.b.c", state: "s+1" }]));
    vi.advanceTimersByTime(100);
    expect(close).toHaveBeenCalledTimes(1);
    tab.close();
    vi.useRealTimers();
  });

  it("relays a failure too, and can leave the window open", async () => {
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    const tab = listen();
    window.history.replaceState(null, "", "#from=slotgate&type=fail&data=access_denied&state=s");
    expect(handleLoginCallback({ close: false })).toBe(true);
    await vi.waitFor(() => expect(tab.messages).toEqual([{ from: "slotgate", type: "fail", data: "access_denied", state: "s" }]));
    expect(close).not.toHaveBeenCalled();
    tab.close();
  });

  it.each([
    ["no fragment", ""],
    ["an app route fragment", "#/settings"],
    ["the legacy sender", "#from=gameauth&type=success&data=a.b.c&state=s"],
    ["a missing state", "#from=slotgate&type=success&data=a.b.c"],
    ["an unknown type", "#from=slotgate&type=ok&data=a.b.c&state=s"],
  ])("does nothing and returns false for %s", (_label, hash) => {
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    window.history.replaceState(null, "", `/callback.html${hash}`);
    expect(handleLoginCallback()).toBe(false);
    expect(window.location.hash).toBe(hash);
    expect(close).not.toHaveBeenCalled();
  });
});
