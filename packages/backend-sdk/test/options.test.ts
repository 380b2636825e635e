import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ContentTokenClient, type Logger, SlotgateBackend, SlotgateBackendError, type SlotgateBackendOptions } from "../src/index.js";

const SECRET = "sgs_super_secret_value_0123456789_abcdefghijklmnop";
const valid: SlotgateBackendOptions = {
  authServerUrl: "https://auth.example/",
  clientId: "sg_client",
  clientSecret: SECRET,
  redirectUri: "https://game.example/slotgate/callback",
};

function optionsError(options: unknown): SlotgateBackendError {
  try {
    new SlotgateBackend(options as SlotgateBackendOptions);
  } catch (err) {
    expect(err).toBeInstanceOf(SlotgateBackendError);
    return err as SlotgateBackendError;
  }
  throw new Error("expected the constructor to throw");
}

describe("constructor (spec 4.13)", () => {
  it("accepts the four required options and normalises the base URL", () => {
    const b = new SlotgateBackend(valid);
    expect(b.config).toEqual({
      authServerUrl: "https://auth.example",
      clientId: "sg_client",
      redirectUri: "https://game.example/slotgate/callback",
    });
  });

  it("keeps redirectUri exactly as given (the service compares it character for character)", () => {
    const b = new SlotgateBackend({ ...valid, redirectUri: "https://game.example/cb/" });
    expect(b.config.redirectUri).toBe("https://game.example/cb/");
  });

  it.each([
    ["options", null, "options must be an object"],
    ["authServerUrl missing", { ...valid, authServerUrl: undefined }, "authServerUrl must be a non-empty string"],
    ["authServerUrl relative", { ...valid, authServerUrl: "/auth" }, "authServerUrl must be an absolute URL"],
    ["authServerUrl ftp", { ...valid, authServerUrl: "ftp://auth.example" }, "authServerUrl must be an http: or https: URL"],
    ["authServerUrl with credentials", { ...valid, authServerUrl: "https://u:p@auth.example" }, "must not contain credentials"],
    ["authServerUrl with query", { ...valid, authServerUrl: "https://auth.example/?x=1" }, "must not contain a query"],
    ["redirectUri missing", { ...valid, redirectUri: "" }, "redirectUri must be a non-empty string"],
    ["redirectUri with fragment", { ...valid, redirectUri: "https://g.example/cb#x" }, "redirectUri must not contain a #fragment"],
    ["clientId empty", { ...valid, clientId: " " }, "clientId must be a non-empty string"],
    ["clientId too long", { ...valid, clientId: "x".repeat(129) }, "clientId must be a non-empty string"],
    ["clientSecret missing", { ...valid, clientSecret: undefined }, "clientSecret must be a non-empty string"],
    ["clientSecret not a string", { ...valid, clientSecret: 42 }, "clientSecret must be a non-empty string"],
    ["fetch", { ...valid, fetch: "fetch" }, "fetch must be a function"],
    ["logger", { ...valid, logger: { warn() {} } }, "logger must have debug, warn and error methods"],
    ["statusSync.attempts", { ...valid, statusSync: { attempts: 0 } }, "statusSync.attempts must be an integer"],
    ["statusSync.baseDelayMs", { ...valid, statusSync: { baseDelayMs: -1 } }, "statusSync.baseDelayMs"],
  ])("INVALID_OPTIONS: %s", (_name, options, message) => {
    const err = optionsError(options);
    expect(err.code).toBe("invalid_options");
    expect(err.message).toContain(message);
  });

  it("never puts the secret into an error, even when the secret is what is wrong", () => {
    const long = `${SECRET}${"x".repeat(600)}`;
    const err = optionsError({ ...valid, clientSecret: long });
    expect(err.message).not.toContain(SECRET);
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(inspect(err, { depth: 10, showHidden: true })).not.toContain(SECRET);
    // A secret passed where a URL belongs is not echoed either.
    const misplaced = optionsError({ ...valid, redirectUri: SECRET });
    expect(misplaced.message).not.toContain(SECRET);
  });

  it("never shows the secret in toString, JSON, util.inspect or console output", () => {
    const b = new SlotgateBackend(valid);
    expect(String(b)).not.toContain(SECRET);
    expect(`${b}`).toBe("SlotgateBackend(sg_client @ https://auth.example)");
    expect(JSON.stringify(b)).not.toContain(SECRET);
    expect(inspect(b, { depth: 20, showHidden: true, getters: true })).not.toContain(SECRET);
    expect(inspect({ nested: b }, { depth: 20, showHidden: true })).not.toContain(SECRET);
    expect(Object.keys(b)).toEqual([]);
    expect(JSON.stringify(Object.getOwnPropertyDescriptors(b))).not.toContain(SECRET);
  });

  it("never shows the secret from the content-token client either", () => {
    const c = new ContentTokenClient({ authServerUrl: "https://auth.example", clientId: "sg_client", clientSecret: SECRET });
    expect(String(c)).not.toContain(SECRET);
    expect(inspect(c, { depth: 20, showHidden: true })).not.toContain(SECRET);
    expect(JSON.stringify(c)).not.toContain(SECRET);
  });

  it("never logs the secret or a token while handling calls", async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (m, f) => lines.push(m + JSON.stringify(f ?? {})),
      warn: (m, f) => lines.push(m + JSON.stringify(f ?? {})),
      error: (m, f) => lines.push(m + JSON.stringify(f ?? {})),
    };
    const b = new SlotgateBackend({
      ...valid,
      logger,
      fetch: async () => new Response("nope", { status: 503 }),
      statusSync: { sleep: async () => {} },
    });
    const r = await b.statusLogin({ accessToken: "ACCESS.TOKEN.VALUE", userId: "7" });
    expect(r.ok).toBe(false);
    b.handleCallback({ url: "/cb?state=AAAAAAAAAAAAAAAAAAAA&code=CODE_VALUE&success=1" }, { statusCode: 0, setHeader() {}, end() {} });
    expect(lines.length).toBeGreaterThan(0);
    const all = lines.join("\n");
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain("ACCESS.TOKEN.VALUE");
    expect(all).not.toContain("CODE_VALUE");
  });
});
