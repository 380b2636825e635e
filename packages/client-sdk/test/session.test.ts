import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Slotgate, SlotgateError } from "../src/index.js";
import { jwtWithExp } from "./helpers/fake-popup.js";

const SERVICE = "https://auth.slotgate.test";
const options = { slotgateUrl: SERVICE, clientId: "sg_client123", redirectUri: "https://game.test/callback.html" };
const NOW = Date.UTC(2026, 0, 1) / 1000;

const revoked: string[] = [];
const sessionsEnded: string[] = [];
const server = setupServer(
  http.post(`${SERVICE}/oauth/logout`, async ({ request }) => {
    sessionsEnded.push(await request.text());
    return new HttpResponse(null, { status: 204 });
  }),
  http.post(`${SERVICE}/v1/oauth/revoke`, ({ request }) => {
    revoked.push(request.headers.get("authorization") ?? "");
    return HttpResponse.json({ success: true, revoked: true });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW * 1000);
  localStorage.clear();
  revoked.length = 0;
  sessionsEnded.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("stored session", () => {
  it("getToken / getRefreshToken / getCode read the slotgate_* keys and are null when absent", () => {
    const slotgate = new Slotgate(options);
    expect([slotgate.getToken(), slotgate.getRefreshToken(), slotgate.getCode()]).toEqual([null, null, null]);
    localStorage.setItem("slotgate_access_token", "at");
    localStorage.setItem("slotgate_refresh_token", "rt");
    localStorage.setItem("slotgate_code", "code");
    expect([slotgate.getToken(), slotgate.getRefreshToken(), slotgate.getCode()]).toEqual(["at", "rt", "code"]);
  });

  it("moves v1 gameauth_* keys to slotgate_* once, never overwriting a v3 value", () => {
    localStorage.setItem("gameauth_access_token", "legacy-at");
    localStorage.setItem("gameauth_code", "legacy-code");
    localStorage.setItem("gameauth_refresh_token", "legacy-rt");
    localStorage.setItem("slotgate_refresh_token", "v3-rt");
    localStorage.setItem("unrelated", "keep");
    const slotgate = new Slotgate(options);
    expect(slotgate.getToken()).toBe("legacy-at");
    expect(slotgate.getCode()).toBe("legacy-code");
    expect(slotgate.getRefreshToken()).toBe("v3-rt");
    expect(Object.keys(localStorage).filter((k) => k.startsWith("gameauth_"))).toEqual([]);
    expect(localStorage.getItem("unrelated")).toBe("keep");
    localStorage.setItem("slotgate_access_token", "newer");
    new Slotgate(options);
    expect(slotgate.getToken()).toBe("newer");
  });

  it("falls back to memory when localStorage throws (private mode, sandboxed frames)", () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("quota", "QuotaExceededError");
    });
    const slotgate = new Slotgate(options);
    expect(slotgate.getToken()).toBeNull();
    expect(slotgate.isLoggedIn()).toBe(false);
  });
});

describe("isLoggedIn()", () => {
  const loggedInWith = (token: string | null) => {
    if (token !== null) localStorage.setItem("slotgate_access_token", token);
    return new Slotgate(options).isLoggedIn();
  };

  it("is false without a token", () => expect(loggedInWith(null)).toBe(false));
  it("is true for a token whose exp is in the future", () => expect(loggedInWith(jwtWithExp(NOW + 3600))).toBe(true));
  it("is true within the 30 s clock-skew allowance after exp", () => expect(loggedInWith(jwtWithExp(NOW - 29))).toBe(true));
  it("is false once exp + 30 s has passed", () => expect(loggedInWith(jwtWithExp(NOW - 30))).toBe(false));
  it("is false for a token without exp", () => expect(loggedInWith(jwtWithExp(undefined))).toBe(false));
  it.each(["not-a-jwt", "a.%%%.c", "a.bm90IGpzb24.c", `a.${btoa('{"exp":"soon"}')}.c`])("is false for a malformed token %s", (token) =>
    expect(loggedInWith(token)).toBe(false),
  );
});

describe("logout()", () => {
  it("clears every slotgate_* key and revokes the token with POST /v1/oauth/revoke and the bearer token", async () => {
    const jwt = jwtWithExp(NOW + 3600);
    localStorage.setItem("slotgate_access_token", jwt);
    localStorage.setItem("slotgate_code", "c");
    localStorage.setItem("other_app_key", "keep");
    const slotgate = new Slotgate(options);
    await expect(slotgate.logout()).resolves.toBeUndefined();
    expect(revoked).toEqual([`Bearer ${jwt}`]);
    expect(sessionsEnded).toEqual(["client_id=sg_client123"]);
    expect(slotgate.getToken()).toBeNull();
    expect(slotgate.getCode()).toBeNull();
    expect(slotgate.isLoggedIn()).toBe(false);
    expect(localStorage.getItem("other_app_key")).toBe("keep");
  });

  it("does not call the service when there is no token", async () => {
    await new Slotgate(options).logout();
    expect([revoked, sessionsEnded]).toEqual([[], []]);
  });

  it.each([
    ["a network error", () => Promise.reject(new TypeError("Failed to fetch"))],
    ["a 401", () => Promise.resolve(new Response("{}", { status: 401 }))],
    ["a 500", () => Promise.resolve(new Response("oops", { status: 500 }))],
    [
      "a synchronous throw",
      () => {
        throw new Error("boom");
      },
    ],
  ])("never throws, and still clears the session, on %s", async (_label, impl) => {
    localStorage.setItem("slotgate_access_token", "t");
    const fetchSpy = vi.fn(impl);
    const slotgate = new Slotgate({ ...options, fetch: fetchSpy as unknown as typeof fetch });
    await expect(slotgate.logout()).resolves.toBeUndefined();
    expect(fetchSpy).toHaveBeenCalledWith(`${SERVICE}/v1/oauth/revoke`, expect.objectContaining({ method: "POST" }));
    expect(slotgate.getToken()).toBeNull();
  });

  it("gives up on a revoke that hangs after the timeout, without throwing", async () => {
    localStorage.setItem("slotgate_access_token", "t");
    let seen: AbortSignal | undefined;
    const hanging = vi.fn((_url: string, init: RequestInit) => {
      seen = init.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    });
    const slotgate = new Slotgate({ ...options, fetch: hanging as unknown as typeof fetch });
    await expect(slotgate.logout({ timeout: 20 })).resolves.toBeUndefined();
    expect(seen?.aborted).toBe(true);
  });

  it("never throws even when storage itself throws", async () => {
    localStorage.setItem("slotgate_access_token", "t");
    const slotgate = new Slotgate(options);
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new Error("storage gone");
    });
    await expect(slotgate.logout()).resolves.toBeUndefined();
  });
});

describe("refresh() (deprecated)", () => {
  it("always rejects with refresh_unsupported and warns once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const slotgate = new Slotgate(options);
    const error = await slotgate.refresh({ clientSecret: "never-in-a-browser" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlotgateError);
    expect(error).toMatchObject({ code: "refresh_unsupported" });
    expect((error as Error).message).not.toContain("never-in-a-browser");
    await expect(slotgate.refresh()).rejects.toMatchObject({ code: "refresh_unsupported" });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/deprecated.*4\.0\.0/);
  });
});
