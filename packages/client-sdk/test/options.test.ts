import { afterEach, describe, expect, it, vi } from "vitest";
import { Slotgate, SlotgateError, type SlotgateOptions } from "../src/index.js";

const valid: SlotgateOptions = {
  slotgateUrl: "https://auth.slotgate.test",
  clientId: "sg_client123",
  redirectUri: "https://game.test/callback.html",
};

afterEach(() => vi.restoreAllMocks());

function errorOf(options: unknown): SlotgateError {
  try {
    new Slotgate(options as SlotgateOptions);
  } catch (error) {
    return error as SlotgateError;
  }
  throw new Error("expected the constructor to throw");
}

describe("new Slotgate(options)", () => {
  it("accepts the spec's options with their defaults", () => {
    expect(new Slotgate(valid)).toBeInstanceOf(Slotgate);
    expect(new Slotgate({ ...valid, responseType: "code", popupWidth: 600, popupHeight: 500, fetch: globalThis.fetch })).toBeInstanceOf(Slotgate);
  });

  it.each(["http://localhost:8080", "http://127.0.0.1:4010", "http://[::1]:4010", "https://auth.slotgate.test/base/"])(
    "accepts slotgateUrl %s",
    (slotgateUrl) => {
      expect(new Slotgate({ ...valid, slotgateUrl })).toBeInstanceOf(Slotgate);
    },
  );

  it.each([
    [null, "options must be an object"],
    ["https://x", "options must be an object"],
    [{ ...valid, slotgateUrl: undefined }, "slotgateUrl must be an absolute http(s) URL"],
    [{ ...valid, slotgateUrl: "auth.slotgate.test" }, "slotgateUrl must be an absolute http(s) URL"],
    [{ ...valid, slotgateUrl: "ftp://auth.slotgate.test" }, "slotgateUrl must be an absolute http(s) URL"],
    [{ ...valid, slotgateUrl: "javascript:alert(1)" }, "slotgateUrl must be an absolute http(s) URL"],
    [{ ...valid, slotgateUrl: "http://auth.slotgate.test" }, "slotgateUrl must use https (http is allowed only for localhost)"],
    [{ ...valid, slotgateUrl: "https://u:p@auth.slotgate.test" }, "slotgateUrl must not contain credentials"],
    [{ ...valid, slotgateUrl: "https://auth.slotgate.test/?a=1" }, "slotgateUrl must not have a query or fragment"],
    [{ ...valid, clientId: "" }, "clientId must be a non-empty string of printable characters"],
    [{ ...valid, clientId: "has space" }, "clientId must be a non-empty string of printable characters"],
    [{ ...valid, clientId: 12 }, "clientId must be a non-empty string of printable characters"],
    [{ ...valid, clientId: "x".repeat(257) }, "clientId must be a non-empty string of printable characters"],
    [{ ...valid, redirectUri: "/callback" }, "redirectUri must be an absolute http(s) URL"],
    [{ ...valid, redirectUri: "https://game.test/cb#frag" }, "redirectUri must not have a fragment"],
    [{ ...valid, responseType: "token" }, 'responseType must be "code"'],
    [{ ...valid, popupWidth: 0 }, "popupWidth must be an integer between 100 and 10000"],
    [{ ...valid, popupWidth: 600.5 }, "popupWidth must be an integer between 100 and 10000"],
    [{ ...valid, popupWidth: "600" }, "popupWidth must be an integer between 100 and 10000"],
    [{ ...valid, popupHeight: 10_001 }, "popupHeight must be an integer between 100 and 10000"],
    [{ ...valid, fetch: "fetch" }, "fetch must be a function"],
    [{ ...valid, uiLocales: "ja,en" }, 'uiLocales must be language tags separated by single spaces, e.g. "ja en"'],
    [{ ...valid, uiLocales: "" }, 'uiLocales must be language tags separated by single spaces, e.g. "ja en"'],
  ])("rejects %o with invalid_options: %s", (options, message) => {
    const error = errorOf(options);
    expect(error).toBeInstanceOf(SlotgateError);
    expect(error).toMatchObject({ code: "invalid_options", message, name: "SlotgateError" });
  });

  it("sends uiLocales as ui_locales, and nothing when it is not set", () => {
    const open = vi.spyOn(window, "open").mockImplementation(() => null);
    new Slotgate({ ...valid, uiLocales: "ja en" }).login().catch(() => {});
    new Slotgate(valid).login().catch(() => {});
    expect(new URL(String(open.mock.calls[0]?.[0])).searchParams.get("ui_locales")).toBe("ja en");
    expect(new URL(String(open.mock.calls[1]?.[0])).searchParams.has("ui_locales")).toBe(false);
  });

  it("sends redirectUri exactly as given (registered URIs are compared character for character)", () => {
    const open = vi.spyOn(window, "open").mockImplementation(() => null);
    const redirectUri = "https://game.test/cb/?x=1";
    new Slotgate({ ...valid, redirectUri }).login().catch(() => {});
    expect(new URL(String(open.mock.calls[0]?.[0])).searchParams.get("redirect_uri")).toBe(redirectUri);
  });
});
