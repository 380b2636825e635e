import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type LoginConfig, login } from "../src/index.js";
import { resolveLoginConfig } from "../src/config.js";
import { idleBrowser } from "./helpers/fake-browser.js";

/** Runs login with a config that must be refused before anything listens or opens. */
async function refused(config: unknown, timeoutMs?: number) {
  const browser = idleBrowser();
  const result = await login(config as LoginConfig, { openBrowser: browser.openBrowser, timeoutMs });
  expect(browser.opened).toHaveLength(0);
  expect(result.Success).toBe(false);
  expect(result.ErrorCode).toBe("invalid_config");
  return result.ErrorMessage ?? "";
}

describe("config validation (login resolves INVALID_CONFIG, never throws)", () => {
  it.each([
    ["localhost", "http://localhost:53682/callback", "not localhost"],
    ["::1", "http://[::1]:53682/callback", "not [::1]"],
    ["https", "https://127.0.0.1:53682/callback", "must use http"],
    ["a LAN address", "http://192.168.1.10:53682/callback", "got host 192.168.1.10"],
    ["0.0.0.0", "http://0.0.0.0:53682/callback", "got host 0.0.0.0"],
    ["another path", "http://127.0.0.1:53682/cb", "path /callback"],
    ["a trailing slash", "http://127.0.0.1:53682/callback/", "path /callback"],
    ["a query", "http://127.0.0.1:53682/callback?x=1", "without user info, query or fragment"],
    ["a custom scheme", "com.example.game:/callback", "must use http"],
    ["garbage", "not a url", "not a valid URL"],
    ["an empty string", "", "RedirectUri is required"],
  ])("refuses a RedirectUri with %s", async (_label, redirectUri, fragment) => {
    expect(await refused({ ClientId: "game-1", RedirectUri: redirectUri })).toContain(fragment);
  });

  it("explains the localhost pitfall and names the fix", async () => {
    const message = await refused({ ClientId: "game-1", RedirectUri: "http://localhost:53682/callback" });
    expect(message).toContain("may resolve to ::1");
    expect(message).toContain("http://127.0.0.1/callback");
  });

  it("refuses a LoopbackPort that differs from the RedirectUri port", async () => {
    const message = await refused({ ClientId: "g", RedirectUri: "http://127.0.0.1:53682/callback", LoopbackPort: 53683 });
    expect(message).toContain("LoopbackPort (53683) differs from the port in RedirectUri (53682)");
  });

  it.each([[-1], [65536], [1.5], ["8080"]])("refuses LoopbackPort %s", async (port) => {
    expect(await refused({ ClientId: "g", RedirectUri: "http://127.0.0.1/callback", LoopbackPort: port })).toContain("LoopbackPort must be an integer");
  });

  it.each([["ClientSecret"], ["clientSecret"], ["client_secret"]])("refuses a config carrying %s and does not echo it", async (key) => {
    const message = await refused({ ClientId: "g", RedirectUri: "http://127.0.0.1:0/callback", [key]: "s3cr3t-value" });
    expect(message).toContain("client secret was passed");
    expect(message).not.toContain("s3cr3t-value");
  });

  it.each([
    ["missing", undefined, "ClientId is required"],
    ["empty", "", "ClientId is required"],
    ["with spaces", "my game", "printable ASCII"],
    ["too long", "x".repeat(257), "printable ASCII"],
  ])("refuses a ClientId that is %s", async (_label, clientId, fragment) => {
    expect(await refused({ ClientId: clientId, RedirectUri: "http://127.0.0.1:0/callback" })).toContain(fragment);
  });

  it.each([
    ["plain http to a remote host", "http://auth.slotgate.io", "must use https"],
    ["credentials", "https://user:pw@auth.slotgate.io", "user name or password"],
    ["a query", "https://auth.slotgate.io/?a=1", "query or fragment"],
    ["no scheme", "auth.slotgate.io", "not a valid absolute URL"],
  ])("refuses a SlotgateUrl with %s", async (_label, slotgateUrl, fragment) => {
    const message = await refused({ ClientId: "g", RedirectUri: "http://127.0.0.1:0/callback", SlotgateUrl: slotgateUrl });
    expect(message).toContain(fragment);
    expect(message).not.toContain("pw@");
  });

  it("refuses PascalCase and camelCase names set to different values", async () => {
    const message = await refused({ ClientId: "a", clientId: "b", RedirectUri: "http://127.0.0.1:0/callback" });
    expect(message).toContain("ClientId and clientId are both set");
  });

  it.each([[null], [undefined], ["config"], [42]])("resolves INVALID_CONFIG for a non-object config %s", async (config) => {
    expect(await refused(config)).toContain("config object");
  });

  it.each([[0], [-5], [1.5], [Number.POSITIVE_INFINITY]])("refuses timeoutMs %s", async (timeoutMs) => {
    expect(await refused({ ClientId: "g", RedirectUri: "http://127.0.0.1:0/callback" }, timeoutMs)).toContain("timeoutMs must be an integer");
  });

  it("refuses an openBrowser that is not a function", async () => {
    const result = await login({ ClientId: "g", RedirectUri: "http://127.0.0.1:0/callback" }, { openBrowser: "firefox" as unknown as () => void });
    expect(result.ErrorCode).toBe("invalid_config");
  });
});

describe("port resolution", () => {
  it.each([
    ["http://127.0.0.1:53682/callback", undefined, 53682],
    ["http://127.0.0.1:53682/callback", 53682, 53682],
    ["http://127.0.0.1:80/callback", undefined, 80],
    ["http://127.0.0.1:0/callback", 4000, 4000],
    ["http://127.0.0.1/callback", 4000, 4000],
    ["http://127.0.0.1:0/callback", undefined, 0],
    ["http://127.0.0.1/callback", undefined, 0],
    ["HTTP://127.0.0.1:8123/callback", undefined, 8123],
  ])("RedirectUri %s with LoopbackPort %s listens on %s", (redirectUri, loopbackPort, port) => {
    expect(resolveLoginConfig({ ClientId: "g", RedirectUri: redirectUri, LoopbackPort: loopbackPort }).port).toBe(port);
  });

  it("only ever accepts redirect URIs of the form http://127.0.0.1[:port]/callback", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (redirectUri) => {
        let accepted: boolean;
        try {
          resolveLoginConfig({ ClientId: "g", RedirectUri: redirectUri });
          accepted = true;
        } catch {
          accepted = false;
        }
        expect(accepted).toBe(/^http:\/\/127\.0\.0\.1(:\d+)?\/callback$/i.test(redirectUri));
      }),
    );
    for (const port of [0, 1, 8080, 65535]) {
      expect(() => resolveLoginConfig({ ClientId: "g", RedirectUri: `http://127.0.0.1:${port}/callback` })).not.toThrow();
    }
  });
});
