import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Slotgate, SlotgateError } from "../src/index.js";
import { CLOSE_GRACE_MS, POLL_MS, SEVERANCE_MS } from "../src/login/await-result.js";
import { fakePopup, postFromPopup, stubWindowOpen } from "./helpers/fake-popup.js";

const SERVICE = "https://auth.slotgate.test";
const options = { slotgateUrl: SERVICE, clientId: "sg_client123", redirectUri: "https://game.test/callback.html" };

/** Attaches a catch so a rejection that is asserted later is not reported as unhandled. */
function settleLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("login() failures", () => {
  it("rejects 'Popup blocked' (code popup_blocked) when window.open returns null", async () => {
    stubWindowOpen(null);
    const error = await new Slotgate(options).login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlotgateError);
    expect(error).toMatchObject({ code: "popup_blocked", message: "Popup blocked" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects 'Popup blocked' when the browser hands back an already closed window", async () => {
    const popup = fakePopup();
    popup.closed = true;
    stubWindowOpen(popup);
    await expect(new Slotgate(options).login()).rejects.toMatchObject({ code: "popup_blocked" });
  });

  it("rejects 'Login failed: access_denied' (code login_failed, reason) when the user denies", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const slotgate = new Slotgate(options);
    const promise = settleLater(slotgate.login({ state: "s" }));
    postFromPopup({ from: "slotgate", type: "fail", data: "access_denied", state: "s" }, SERVICE, popup);
    const error = await promise.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "login_failed", reason: "access_denied", message: "Login failed: access_denied" });
    expect(slotgate.getToken()).toBeNull();
    expect(popup.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps a hostile failure reason printable and short", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = settleLater(new Slotgate(options).login({ state: "s" }));
    postFromPopup({ from: "slotgate", type: "fail", data: `bad\n\u0000${"x".repeat(500)}`, state: "s" }, SERVICE, popup);
    const error = (await promise.catch((e: unknown) => e)) as SlotgateError;
    expect(error.reason).toBe(`bad${"x".repeat(197)}`);
    const empty = fakePopup();
    stubWindowOpen(empty);
    const second = settleLater(new Slotgate(options).login({ state: "t" }));
    postFromPopup({ from: "slotgate", type: "fail", data: "", state: "t" }, SERVICE, empty);
    await expect(second).rejects.toThrow("Login failed: unknown_error");
  });

  it("rejects 'User closed the login window' (popup_closed) when the user closes the popup", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = settleLater(new Slotgate(options).login());
    popup.crossOrigin = true; // the login page of the service is showing
    await vi.advanceTimersByTimeAsync(POLL_MS + SEVERANCE_MS);
    popup.closed = true; // the user closes it
    await vi.advanceTimersByTimeAsync(POLL_MS + CLOSE_GRACE_MS);
    await expect(promise).rejects.toMatchObject({ code: "popup_closed", message: "User closed the login window" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("detects the user closing a popup on a service that shares the app's origin", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = settleLater(new Slotgate(options).login());
    popup.href = "https://game.test/oauth/authorize?client_id=x";
    await vi.advanceTimersByTimeAsync(POLL_MS);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(POLL_MS + CLOSE_GRACE_MS);
    await expect(promise).rejects.toMatchObject({ code: "popup_closed" });
  });

  it("still accepts a result that arrives just after the popup closed itself (within the grace period)", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = new Slotgate(options).login({ state: "s" });
    popup.crossOrigin = true;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    postFromPopup({ from: "slotgate", type: "success", data: "a.b.c", state: "s" }, SERVICE, popup);
    await expect(promise).resolves.toEqual({ jwt: "a.b.c" });
  });

  it("rejects 'Login timeout' (login_timeout) after the default 120000 ms and closes the popup", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = settleLater(new Slotgate(options).login());
    popup.crossOrigin = true;
    await vi.advanceTimersByTimeAsync(119_999);
    expect(popup.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).rejects.toMatchObject({ code: "login_timeout", message: "Login timeout" });
    expect(popup.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("honours a custom timeout", async () => {
    stubWindowOpen(fakePopup());
    const promise = settleLater(new Slotgate(options).login({ timeout: 5_000 }));
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(promise).rejects.toMatchObject({ code: "login_timeout" });
  });

  describe("when a Cross-Origin-Opener-Policy severs the popup (closed before it was ever seen cross-origin)", () => {
    it("does not report the user closing it while the popup still has the focus", async () => {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const promise = settleLater(new Slotgate(options).login({ timeout: 60_000 }));
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(30_000);
      let settled = false;
      promise.then(
        () => (settled = true),
        () => (settled = true),
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      expect(vi.getTimerCount()).toBe(1); // only the timeout is left
      await vi.advanceTimersByTimeAsync(30_000);
      await expect(promise).rejects.toMatchObject({ code: "login_timeout" });
    });

    it("takes a popup seen cross-origin for less than SEVERANCE_MS, then closed, as severed (Chromium shows the page a moment before the swap)", async () => {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const promise = settleLater(new Slotgate(options).login({ timeout: 60_000 }));
      popup.crossOrigin = true;
      await vi.advanceTimersByTimeAsync(POLL_MS);
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(SEVERANCE_MS + CLOSE_GRACE_MS * 5);
      let settled = false;
      promise.then(
        () => (settled = true),
        () => (settled = true),
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      window.dispatchEvent(new Event("focus"));
      await vi.advanceTimersByTimeAsync(CLOSE_GRACE_MS);
      await expect(promise).rejects.toMatchObject({ code: "popup_closed" });
    });

    it("treats focus returning to the app as the user closing the popup", async () => {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const promise = settleLater(new Slotgate(options).login());
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(POLL_MS * 4);
      window.dispatchEvent(new Event("focus"));
      await vi.advanceTimersByTimeAsync(CLOSE_GRACE_MS);
      await expect(promise).rejects.toMatchObject({ code: "popup_closed" });
      expect(vi.getTimerCount()).toBe(0);
    });

    it("ignores focus events before the popup was seen closed", async () => {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const promise = settleLater(new Slotgate(options).login({ state: "s" }));
      window.dispatchEvent(new Event("focus"));
      await vi.advanceTimersByTimeAsync(CLOSE_GRACE_MS * 3);
      postFromPopup({ from: "slotgate", type: "success", data: "a.b.c", state: "s" }, SERVICE, popup);
      await expect(promise).resolves.toEqual({ jwt: "a.b.c" });
    });

    it("a failure relayed by the redirect page rejects 'Login failed: access_denied'", async () => {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const promise = settleLater(new Slotgate(options).login({ state: "coop" }));
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(POLL_MS);
      const bridge = new BroadcastChannel("slotgate_login");
      bridge.postMessage({ from: "slotgate", type: "fail", data: "access_denied", state: "coop" });
      bridge.close();
      await expect(promise).rejects.toMatchObject({ code: "login_failed", reason: "access_denied" });
    });
  });

  it.each([
    [{ state: "" }, "state must be a string of 1 to 1024 characters"],
    [{ state: "x".repeat(1025) }, "state must be a string of 1 to 1024 characters"],
    [{ state: 5 as unknown as string }, "state must be a string of 1 to 1024 characters"],
    [{ timeout: 0 }, "timeout must be a positive integer of milliseconds"],
    [{ timeout: -1 }, "timeout must be a positive integer of milliseconds"],
    [{ timeout: 1.5 }, "timeout must be a positive integer of milliseconds"],
    [{ timeout: Number.NaN }, "timeout must be a positive integer of milliseconds"],
    [{ timeout: 2 ** 31 }, "timeout must be a positive integer of milliseconds"],
  ])("rejects invalid login options %o with invalid_options and opens no popup", async (bad, message) => {
    const open = stubWindowOpen(fakePopup());
    await expect(new Slotgate(options).login(bad)).rejects.toMatchObject({ code: "invalid_options", message });
    expect(open).not.toHaveBeenCalled();
  });

  it("removes its window listeners on every path", async () => {
    const add = vi.spyOn(window, "addEventListener");
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = settleLater(new Slotgate(options).login({ state: "s" }));
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    const signals = add.mock.calls.map((call) => (call[2] as AddEventListenerOptions).signal);
    expect(add.mock.calls.map((call) => call[0]).sort()).toEqual(["focus", "message"]);
    expect(signals.every((signal) => signal && !signal.aborted)).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    await expect(promise).rejects.toMatchObject({ code: "login_timeout" });
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
  });
});

describe("login() in hostile environments", () => {
  it("rejects 'Popup blocked' when window.open throws (sandboxed iframe without allow-popups)", async () => {
    vi.spyOn(window, "open").mockImplementation(() => {
      throw new DOMException("Blocked", "SecurityError");
    });
    await expect(new Slotgate(options).login()).rejects.toMatchObject({ code: "popup_blocked" });
  });

  it("still completes over postMessage when BroadcastChannel cannot be created", async () => {
    vi.stubGlobal(
      "BroadcastChannel",
      class {
        constructor() {
          throw new DOMException("opaque origin", "SecurityError");
        }
      },
    );
    try {
      const popup = fakePopup();
      stubWindowOpen(popup);
      const promise = new Slotgate(options).login({ state: "s" });
      postFromPopup({ from: "slotgate", type: "success", data: "a.b.c", state: "s" }, SERVICE, popup);
      await expect(promise).resolves.toEqual({ jwt: "a.b.c" });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("still resolves { jwt } when storing the token throws", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const slotgate = new Slotgate(options);
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("full", "QuotaExceededError");
    });
    const promise = slotgate.login({ state: "s" });
    postFromPopup({ from: "slotgate", type: "success", data: "a.b.c", state: "s" }, SERVICE, popup);
    await expect(promise).resolves.toEqual({ jwt: "a.b.c" });
  });
});
