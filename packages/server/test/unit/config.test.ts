import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/index.js";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: "127.0.0.1", databaseUrl: null, publicUrl: null, seedDemo: true, logLevel: "info" });
    expect(c.dataDir).toMatch(/\.slotgate-data$/);
    expect(c.rateLimit).toEqual({ enabled: true, signInPerMinute: 60, tokenPerMinute: 6000, statusPerMinute: 6000 });
  });

  it("honours PORT, HOST, PUBLIC_URL and DATABASE_URL (no demo seed on PostgreSQL)", () => {
    const c = loadConfig({ PORT: "9000", HOST: "0.0.0.0", PUBLIC_URL: "https://auth.example/", DATABASE_URL: "postgres://u@db:5432/x", CHAIN: "off" });
    expect(c).toMatchObject({ port: 9000, host: "0.0.0.0", publicUrl: "https://auth.example", databaseUrl: "postgres://u@db:5432/x", seedDemo: false });
  });

  it.each([
    ["PORT", { PORT: "80a" }],
    ["PORT", { PORT: "70000" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["DATABASE_URL", { DATABASE_URL: "not a url" }],
    ["PUBLIC_URL", { PUBLIC_URL: "ftp://x" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["RATE_LIMIT", { RATE_LIMIT: "maybe" }],
    ["CLIENT_SECRET_PEPPER", { CLIENT_SECRET_PEPPER: "short" }],
    ["MARKETPLACE_SECRET", { MARKETPLACE_URL: "https://m.example/hook" }],
    ["SIGNING_KEYS", { SIGNING_KEYS: "{" }],
    ["SIGNING_KEYS", { SIGNING_KEYS: '[{"kty":"RSA","kid":"a"}]' }],
    ["HOST", { HOST: "bad host!" }],
  ])("names %s when its value is invalid", (variable, env) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message.startsWith(variable)).toBe(true);
  });

  it("never echoes a rejected secret in the message", () => {
    try {
      loadConfig({ CLIENT_SECRET_PEPPER: "tiny-secret" });
    } catch (e) {
      expect((e as Error).message).not.toContain("tiny-secret");
    }
  });
});
