import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Slotgate } from "../src/index.js";
import { CLOSE_GRACE_MS, POLL_MS } from "../src/login/await-result.js";
import { fakePopup, jwtWithExp, postFromPopup, stubWindowOpen } from "./helpers/fake-popup.js";

const SERVICE = "https://auth.slotgate.test";
const options = { slotgateUrl: SERVICE, clientId: "sg_client123", redirectUri: "https://game.test/callback.html" };
const JWT = jwtWithExp(2_000_000_000);

function openedUrl(open: ReturnType<typeof stubWindowOpen>): URL {
  return new URL(String(open.mock.calls[0]?.[0]));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("login() success", () => {
  it("opens /oauth/authorize with client_id, redirect_uri, response_type=code, state and display=popup", () => {
    const open = stubWindowOpen(fakePopup());
    void new Slotgate(options).login({ state: "my-state" }).catch(() => {});
    const url = openedUrl(open);
    expect(url.origin + url.pathname).toBe(`${SERVICE}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "sg_client123",
      redirect_uri: "https://game.test/callback.html",
      response_type: "code",
      state: "my-state",
      display: "popup",
    });
  });

  it("opens the popup synchronously, inside the caller's click, before login() returns", () => {
    const open = stubWindowOpen(fakePopup());
    const promise = new Slotgate(options).login();
    expect(open).toHaveBeenCalledTimes(1);
    promise.catch(() => {});
  });

  it("generates a fresh 43-character base64url state from a CSPRNG when none is given", async () => {
    const spy = vi.spyOn(crypto, "getRandomValues");
    const open = stubWindowOpen(fakePopup());
    const slotgate = new Slotgate(options);
    const states = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const popup = fakePopup();
      open.mockImplementation(() => popup as unknown as Window);
      const p = slotgate.login();
      const state = new URL(String(open.mock.calls.at(-1)?.[0])).searchParams.get("state") ?? "";
      expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      states.add(state);
      postFromPopup({ from: "slotgate", type: "fail", data: "x", state }, SERVICE, popup);
      await expect(p).rejects.toThrow("Login failed: x");
    }
    expect(states.size).toBe(3);
    expect(spy).toHaveBeenCalled();
  });

  it("sizes the popup 600x500 by default and honours popupWidth / popupHeight", () => {
    const open = stubWindowOpen(fakePopup());
    new Slotgate(options).login().catch(() => {});
    expect(String(open.mock.calls[0]?.[2])).toMatch(/width=600,height=500/);
    const open2 = stubWindowOpen(fakePopup());
    new Slotgate({ ...options, popupWidth: 480, popupHeight: 720 }).login().catch(() => {});
    expect(String(open2.mock.calls.at(-1)?.[2])).toMatch(/width=480,height=720/);
  });

  it("resolves { jwt } on the service's success message and stores the token", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const slotgate = new Slotgate(options);
    const promise = slotgate.login({ state: "s1" });
    postFromPopup({ from: "slotgate", type: "success", data: JWT, state: "s1" }, SERVICE, popup);
    await expect(promise).resolves.toEqual({ jwt: JWT });
    expect(slotgate.getToken()).toBe(JWT);
    expect(localStorage.getItem("slotgate_access_token")).toBe(JWT);
    expect(popup.closed).toBe(true);
  });

  it("accepts the service URL with a trailing slash and still matches the origin", async () => {
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const promise = new Slotgate({ ...options, slotgateUrl: `${SERVICE}/` }).login({ state: "s" });
    expect(openedUrl(open).pathname).toBe("/oauth/authorize");
    postFromPopup({ from: "slotgate", type: "success", data: JWT, state: "s" }, SERVICE, popup);
    await expect(promise).resolves.toEqual({ jwt: JWT });
  });

  it.each([
    ["another origin", { origin: "https://evil.test" }],
    ["another window", { source: "other" }],
    ["another state", { state: "other" }],
    ["the legacy sender (from: gameauth)", { from: "gameauth" }],
    ["an unknown type", { type: "maybe" }],
    ["a non-string data", { data: 42 }],
    ["a success without a JWT", { data: "" }],
  ])("ignores a message from %s and keeps waiting", async (_label, change) => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = new Slotgate(options).login({ state: "s1" });
    const { origin = SERVICE, source = popup, ...fields } = change as Record<string, unknown>;
    postFromPopup({ from: "slotgate", type: "success", data: JWT, state: "s1", ...fields }, origin as string, source === "other" ? {} : source);
    postFromPopup("not an object", SERVICE, popup);
    postFromPopup(null, SERVICE, popup);
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(false);
    postFromPopup({ from: "slotgate", type: "success", data: JWT, state: "s1" }, SERVICE, popup);
    await expect(promise).resolves.toEqual({ jwt: JWT });
  });

  it("completes through BroadcastChannel('slotgate_login') when COOP severed window.opener", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = new Slotgate(options).login({ state: "coop" });
    // Severed: the opener's handle reports closed at the first cross-origin navigation; location never threw.
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(POLL_MS * 3 + CLOSE_GRACE_MS);
    const bridge = new BroadcastChannel("slotgate_login");
    bridge.postMessage({ from: "slotgate", type: "success", data: JWT, state: "coop" });
    bridge.close();
    await expect(promise).resolves.toEqual({ jwt: JWT });
  });

  it("ignores a BroadcastChannel result for another tab's state", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = new Slotgate(options).login({ state: "mine" });
    const bridge = new BroadcastChannel("slotgate_login");
    bridge.postMessage({ from: "slotgate", type: "success", data: "other-tab-jwt", state: "theirs" });
    bridge.postMessage({ from: "slotgate", type: "success", data: JWT, state: "mine" });
    bridge.close();
    await expect(promise).resolves.toEqual({ jwt: JWT });
  });

  it("a second login() while one is open focuses the popup and returns the same promise", async () => {
    const popup = fakePopup();
    const open = stubWindowOpen(popup);
    const slotgate = new Slotgate(options);
    const first = slotgate.login({ state: "one" });
    const second = slotgate.login({ state: "two" });
    expect(second).toBe(first);
    expect(open).toHaveBeenCalledTimes(1);
    expect(popup.focus).toHaveBeenCalledTimes(1);
    postFromPopup({ from: "slotgate", type: "success", data: JWT, state: "one" }, SERVICE, popup);
    await expect(second).resolves.toEqual({ jwt: JWT });
    // Once settled, the next login() opens a new popup.
    slotgate.login().catch(() => {});
    expect(open).toHaveBeenCalledTimes(2);
  });

  it("removes every listener and timer after success", async () => {
    const popup = fakePopup();
    stubWindowOpen(popup);
    const promise = new Slotgate(options).login({ state: "s" });
    expect(vi.getTimerCount()).toBe(2); // close poll + timeout
    postFromPopup({ from: "slotgate", type: "success", data: JWT, state: "s" }, SERVICE, popup);
    await promise;
    expect(vi.getTimerCount()).toBe(0);
    // A late duplicate changes nothing.
    postFromPopup({ from: "slotgate", type: "fail", data: "late", state: "s" }, SERVICE, popup);
    expect(localStorage.getItem("slotgate_access_token")).toBe(JWT);
  });
});
