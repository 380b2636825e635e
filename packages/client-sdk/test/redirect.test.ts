import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Slotgate, SlotgateError } from "../src/index.js";
import { jwtWithExp } from "./helpers/fake-popup.js";

const SERVICE = "https://auth.slotgate.test";
const REDIRECT = "https://game.test/callback.html";
const JWT = jwtWithExp(2_000_000_000);

/** A token endpoint stand-in: records each form it receives and answers `answer`. */
function tokenEndpoint(answer: { status: number; body: unknown } | "offline") {
  const forms: Array<Record<string, string>> = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    forms.push({ url, ...Object.fromEntries(init.body as URLSearchParams) });
    if (answer === "offline") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  return { forms, fetch: fetch as unknown as typeof globalThis.fetch };
}

/** Runs loginWithRedirect with location.assign captured; returns the authorize URL it navigated to. */
async function startRedirect(slotgate: Slotgate, state?: string): Promise<URL> {
  const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
  await slotgate.loginWithRedirect(state ? { state } : {});
  return new URL(String(assign.mock.calls[0]?.[0]));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe("loginWithRedirect()", () => {
  it("navigates to /oauth/authorize with response_type=code, the state and a PKCE S256 challenge of the verifier kept in sessionStorage", async () => {
    const url = await startRedirect(new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT }), "st-1");
    expect(url.origin + url.pathname).toBe(`${SERVICE}/oauth/authorize`);
    const pending = JSON.parse(sessionStorage.getItem("slotgate_redirect") ?? "{}") as { state: string; verifier: string };
    expect(pending.state).toBe("st-1");
    expect(pending.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "sg_c",
      redirect_uri: REDIRECT,
      response_type: "code",
      state: "st-1",
      code_challenge: createHash("sha256").update(pending.verifier).digest("base64url"),
      code_challenge_method: "S256",
    });
  });

  it("refuses an empty state with invalid_options and does not navigate", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT });
    await expect(slotgate.loginWithRedirect({ state: "" })).rejects.toMatchObject({ code: "invalid_options" });
    expect(assign).not.toHaveBeenCalled();
  });
});

describe("handleRedirectCallback()", () => {
  it("redeems the code with the verifier (no secret), stores the JWT, fires login, and is done once", async () => {
    const endpoint = tokenEndpoint({ status: 200, body: { success: true, access_token: JWT, token_type: "Bearer" } });
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, fetch: endpoint.fetch });
    await startRedirect(slotgate, "st-2");
    const verifier = (JSON.parse(sessionStorage.getItem("slotgate_redirect") ?? "{}") as { verifier: string }).verifier;
    const logins = vi.fn();
    slotgate.on("login", logins);
    const result = await slotgate.handleRedirectCallback(`${REDIRECT}?code=the-code&state=st-2`);
    expect(result).toEqual({ jwt: JWT });
    expect(endpoint.forms).toEqual([
      {
        url: `${SERVICE}/oauth/token`,
        grant_type: "authorization_code",
        code: "the-code",
        redirect_uri: REDIRECT,
        client_id: "sg_c",
        code_verifier: verifier,
      },
    ]);
    expect([slotgate.getToken(), slotgate.isLoggedIn(), logins.mock.calls.length]).toEqual([JWT, true, 1]);
    // The pending redirect is spent: the same URL again is a state mismatch, and the endpoint is not asked.
    await expect(slotgate.handleRedirectCallback(`${REDIRECT}?code=the-code&state=st-2`)).rejects.toMatchObject({
      code: "login_failed",
      reason: "state_mismatch",
    });
    expect(endpoint.forms).toHaveLength(1);
  });

  it("resolves null on a URL without a login result", async () => {
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT });
    expect(await slotgate.handleRedirectCallback(`${REDIRECT}?page=2`)).toBeNull();
  });

  it.each([
    ["a state this tab did not send", "?code=c&state=other", { status: 200, body: { access_token: JWT } }, "state_mismatch"],
    ["the user's denial", "?error=access_denied&state=st-3", { status: 200, body: {} }, "access_denied"],
    ["a refused code", "?code=c&state=st-3", { status: 400, body: { success: false, error: "invalid_grant" } }, "invalid_grant"],
    ["an unreachable service", "?code=c&state=st-3", "offline" as const, "network_error"],
  ])("rejects %s with login_failed (the popup's error code)", async (_name, query, answer, reason) => {
    const endpoint = tokenEndpoint(answer);
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, fetch: endpoint.fetch });
    await startRedirect(slotgate, "st-3");
    const error = await slotgate.handleRedirectCallback(REDIRECT + query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlotgateError);
    expect(error).toMatchObject({ code: "login_failed", reason, message: `Login failed: ${reason}` });
    expect(slotgate.getToken()).toBeNull();
  });

  it("removes code and state from the address bar when it reads the current URL", async () => {
    const endpoint = tokenEndpoint({ status: 200, body: { access_token: JWT } });
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, fetch: endpoint.fetch });
    await startRedirect(slotgate, "st-4");
    history.replaceState(null, "", "/callback.html?code=c&state=st-4&keep=1");
    expect(await slotgate.handleRedirectCallback()).toEqual({ jwt: JWT });
    expect(window.location.search).toBe("?keep=1");
  });
});

describe("login-state events", () => {
  it("logout() fires logout; an unsubscribed listener is not called", async () => {
    localStorage.setItem("slotgate_access_token", JWT);
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, fetch: tokenEndpoint({ status: 200, body: {} }).fetch });
    const [a, b] = [vi.fn(), vi.fn()];
    slotgate.on("logout", a);
    slotgate.on("logout", b)();
    await slotgate.logout();
    expect([a.mock.calls.length, b.mock.calls.length]).toEqual([1, 0]);
  });

  it("another tab's login and logout (the storage event) fire login and logout", () => {
    const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT });
    const seen: string[] = [];
    slotgate.on("login", () => seen.push("login"));
    slotgate.on("logout", () => seen.push("logout"));
    localStorage.setItem("slotgate_access_token", JWT);
    window.dispatchEvent(new StorageEvent("storage", { key: "slotgate_access_token", newValue: JWT }));
    localStorage.removeItem("slotgate_access_token");
    window.dispatchEvent(new StorageEvent("storage", { key: "slotgate_access_token", newValue: null }));
    window.dispatchEvent(new StorageEvent("storage", { key: "unrelated", newValue: "x" }));
    expect(seen).toEqual(["login", "logout"]);
  });

  it("fires expired when the stored JWT's exp plus 30 s of skew passes", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const now = Math.floor(Date.now() / 1000);
      localStorage.setItem("slotgate_access_token", jwtWithExp(now + 60));
      const slotgate = new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT });
      const expired = vi.fn();
      slotgate.on("expired", expired);
      vi.advanceTimersByTime(89_000);
      expect([expired.mock.calls.length, slotgate.isLoggedIn()]).toEqual([0, true]);
      vi.advanceTimersByTime(1_100);
      expect([expired.mock.calls.length, slotgate.isLoggedIn()]).toEqual([1, false]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("autoRenew", () => {
  afterEach(() => vi.useRealTimers());

  it("renews 5 minutes before the stored JWT expires, and not without the option", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const renew = vi.spyOn(Slotgate.prototype, "renew").mockResolvedValue({ jwt: JWT });
    localStorage.setItem("slotgate_access_token", jwtWithExp(Math.floor(Date.now() / 1000) + 600));
    new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT });
    new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, autoRenew: true });
    vi.advanceTimersByTime(299_000);
    expect(renew).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it("renews at construction when the stored JWT has already expired; never when no JWT is stored (logged out)", () => {
    const renew = vi.spyOn(Slotgate.prototype, "renew").mockResolvedValue({ jwt: JWT });
    new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, autoRenew: true });
    expect(renew).not.toHaveBeenCalled();
    localStorage.setItem("slotgate_access_token", jwtWithExp(Math.floor(Date.now() / 1000) - 3600));
    new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, autoRenew: true });
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it("must be a boolean (invalid_options)", () => {
    expect(() => new Slotgate({ slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: REDIRECT, autoRenew: "yes" as unknown as boolean })).toThrow(
      expect.objectContaining({ code: "invalid_options", message: "autoRenew must be a boolean" }),
    );
  });
});
