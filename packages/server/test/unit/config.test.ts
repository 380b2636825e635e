import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/index.js";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: "127.0.0.1", databaseUrl: null, publicUrl: null, seedDemo: true, logLevel: "info" });
    expect(c.dataDir).toMatch(/\.slotgate-data$/);
    expect(c.rateLimit).toEqual({
      enabled: true,
      signInPerMinute: 60,
      tokenPerMinute: 6000,
      statusPerMinute: 6000,
      pinPerMinute: 60,
      pinPerAccountPerMinute: 10,
      slotsPerAccountPerMinute: 10,
      pinConcurrentPerAccount: 2,
      pinRefusalDelayMs: 1000,
      redisPrefix: "slotgate:rl:",
    });
    expect(c.signInBackoff).toEqual({ freeFailures: 5, lockAfterFailures: 10, lockSeconds: 900 });
    expect(c).toMatchObject({ metricsToken: null, redisUrl: null });
  });

  it("reads METRICS_TOKEN, REDIS_URL and RATE_LIMIT_REDIS_PREFIX", () => {
    const c = loadConfig({ METRICS_TOKEN: "m".repeat(32), REDIS_URL: "redis://127.0.0.1:6379/2", RATE_LIMIT_REDIS_PREFIX: "blue:rl:" });
    expect(c).toMatchObject({ metricsToken: "m".repeat(32), redisUrl: "redis://127.0.0.1:6379/2", rateLimit: { redisPrefix: "blue:rl:" } });
  });

  it("reads the PIN budgets and the sign-in backoff, and refuses a lock that comes before the free failures run out", () => {
    const c = loadConfig({
      RATE_LIMIT_PIN_PER_MINUTE: "30",
      RATE_LIMIT_PIN_PER_ACCOUNT_PER_MINUTE: "4",
      PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT: "1",
      SIGN_IN_FREE_FAILURES: "3",
      SIGN_IN_LOCK_AFTER_FAILURES: "6",
      SIGN_IN_LOCK_SECONDS: "60",
    });
    expect(c.rateLimit).toMatchObject({ pinPerMinute: 30, pinPerAccountPerMinute: 4, pinConcurrentPerAccount: 1 });
    expect(c.signInBackoff).toEqual({ freeFailures: 3, lockAfterFailures: 6, lockSeconds: 60 });
    expect(() => loadConfig({ SIGN_IN_FREE_FAILURES: "5", SIGN_IN_LOCK_AFTER_FAILURES: "5" })).toThrow(/SIGN_IN_LOCK_AFTER_FAILURES/);
    expect(() => loadConfig({ PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT: "0" })).toThrow(/PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT/);
  });

  it("reads mail, identity providers and passkey settings (defaults: development mailbox, none, the public host)", () => {
    expect(loadConfig({})).toMatchObject({ mail: { smtpUrl: null, from: "Slotgate <no-reply@slotgate.localhost>" }, identityProviders: [], passkeyRpId: null });
    const c = loadConfig({
      SMTP_URL: "smtps://user:pw@mail.example:465",
      MAIL_FROM: "Game <no-reply@game.example>",
      PUBLIC_URL: "https://auth.game.example",
      PASSKEY_RP_ID: "game.example",
      IDENTITY_PROVIDERS:
        '[{"id":"google","name":"Google","issuer":"https://accounts.google.com","client_id":"c","client_secret":"s"},{"id":"local","name":"Local","issuer":"http://127.0.0.1:9000","client_id":"c2","client_secret":"s2","scopes":"openid email"}]',
    });
    expect(c.mail).toEqual({ smtpUrl: "smtps://user:pw@mail.example:465", from: "Game <no-reply@game.example>" });
    expect(c.passkeyRpId).toBe("game.example");
    expect(c.identityProviders.map((p) => [p.id, p.scopes])).toEqual([
      ["google", "openid email profile"],
      ["local", "openid email"],
    ]);
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
    ["METRICS_TOKEN", { METRICS_TOKEN: "short" }],
    ["REDIS_URL", { REDIS_URL: "http://127.0.0.1:6379" }],
    ["RATE_LIMIT_REDIS_PREFIX", { RATE_LIMIT_REDIS_PREFIX: "has space" }],
    ["CLIENT_SECRET_PEPPER", { CLIENT_SECRET_PEPPER: "short" }],
    ["MARKETPLACE_SECRET", { MARKETPLACE_URL: "https://m.example/hook" }],
    ["SIGNING_KEYS", { SIGNING_KEYS: "{" }],
    ["SIGNING_KEYS", { SIGNING_KEYS: '[{"kty":"RSA","kid":"a"}]' }],
    ["HOST", { HOST: "bad host!" }],
    ["SMTP_URL", { SMTP_URL: "https://mail.example" }],
    ["MAIL_FROM", { MAIL_FROM: "no address" }],
    ["MAIL_FROM", { MAIL_FROM: "a@b.example\r\nBcc: x@y.example" }],
    ["PASSKEY_RP_ID", { PASSKEY_RP_ID: "Not A Host" }],
    ["PASSKEY_RP_ID", { PUBLIC_URL: "https://auth.example", PASSKEY_RP_ID: "other.example" }],
    ["IDENTITY_PROVIDERS", { IDENTITY_PROVIDERS: "{" }],
    ["IDENTITY_PROVIDERS", { IDENTITY_PROVIDERS: '{"id":"a"}' }],
    ["IDENTITY_PROVIDERS", { IDENTITY_PROVIDERS: '[{"id":"a"}]' }],
    ["IDENTITY_PROVIDERS", { IDENTITY_PROVIDERS: '[{"id":"Bad Id","name":"n","issuer":"https://i.example","client_id":"c","client_secret":"s"}]' }],
    ["IDENTITY_PROVIDERS", { IDENTITY_PROVIDERS: '[{"id":"a","name":"n","issuer":"http://idp.example","client_id":"c","client_secret":"s"}]' }],
    ["IDENTITY_PROVIDERS", { IDENTITY_PROVIDERS: '[{"id":"a","name":"n","issuer":"https://i.example","client_id":"c","client_secret":"s","scopes":"email"}]' }],
    [
      "IDENTITY_PROVIDERS",
      {
        IDENTITY_PROVIDERS:
          '[{"id":"a","name":"n","issuer":"https://i.example","client_id":"c","client_secret":"s"},{"id":"a","name":"m","issuer":"https://j.example","client_id":"c","client_secret":"s"}]',
      },
    ],
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
    expect(() => loadConfig({ IDENTITY_PROVIDERS: '[{"id":"a","name":"n","issuer":"ftp://x","client_id":"c","client_secret":"very-secret-value"}]' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ IDENTITY_PROVIDERS: '[{"id":"a","name":"n","issuer":"ftp://x","client_id":"c","client_secret":"very-secret-value"}]' });
    } catch (e) {
      expect((e as Error).message).not.toContain("very-secret-value");
    }
  });
});
