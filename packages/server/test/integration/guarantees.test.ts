import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/index.js";
import { purgeExpiredCodes } from "../../src/oauth/token/authorization-code.js";
import { purgeFinished } from "../../src/status/outbox/outbox-store.js";
import { authorizeCode, call, devSignup, exchange, randomEmail, registerClient } from "../support/flows.js";
import { attachMail, startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
let client: Awaited<ReturnType<typeof registerClient>>;
beforeAll(async () => {
  server = await startTestServer();
  client = await registerClient(server.url);
});
afterAll(async () => server?.close());

describe("transactions", () => {
  it("a status change and its outbox row commit together: when the outbox write fails, the status is unchanged", async () => {
    const { code } = await authorizeCode(server.url, client);
    const token = await exchange(server.url, client, code);
    const body = { user_id: String(token.json["user_id"]), client_id: client.client_id };
    await server.sql("ALTER TABLE outbox ADD CONSTRAINT test_block_outbox CHECK (topic <> 'marketplace.login_status') NOT VALID");
    try {
      const res = await call(server.url, "POST", "/v1/oauth/status/login", { token: String(token.json["access_token"]), body });
      expect(res.status).toBe(500);
      expect(res.json).toMatchObject({ success: false, error: "internal_error" });
      expect(await server.sql("SELECT 1 FROM login_status WHERE user_id = $1", [body.user_id])).toHaveLength(0);
    } finally {
      await server.sql("ALTER TABLE outbox DROP CONSTRAINT test_block_outbox");
    }
    const ok = await call(server.url, "POST", "/v1/oauth/status/login", { token: String(token.json["access_token"]), body });
    expect(ok.status).toBe(200);
    expect(await server.sql("SELECT 1 FROM outbox WHERE payload->>'user_id' = $1", [body.user_id])).toHaveLength(1);
  });

  it("a code redeemed by concurrent requests yields exactly one token", async () => {
    const { code } = await authorizeCode(server.url, client);
    const results = await Promise.all(Array.from({ length: 8 }, () => exchange(server.url, client, code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.json["error"] === "invalid_grant")).toHaveLength(7);
  });
});

describe("rate limits", () => {
  it("answers 429 rate_limited with Retry-After once the sign-in budget is spent", async () => {
    const limited = await startTestServer({ RATE_LIMIT: "on", RATE_LIMIT_SIGN_IN_PER_MINUTE: "3" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await call(limited.url, "POST", "/v1/dev-user/login_devuser", { body: { email: randomEmail(), password: "whatever-123" } });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.json["error"]).toBe("rate_limited");
          expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("logs", () => {
  it("contain no password, client secret, code or token after a full flow with failures", async () => {
    const lines: string[] = [];
    const log = createLogger("debug", (l) => lines.push(l));
    const { startServer } = await import("../../src/index.js");
    const { openDatabase } = await import("@slotgate/storage");
    const { migrateServer, createKeyStore, generateSigningKey } = await import("../../src/index.js");
    const db = await openDatabase({});
    await migrateServer(db);
    const config = server.config;
    const running = await startServer(config, {
      log,
      resources: { db, keys: await createKeyStore([await generateSigningKey()]), config, warnings: ["test warning"] },
      scrypt: { N: 1024, r: 8, p: 1 },
    });
    attachMail(running.url, server.mail);
    try {
      const dev = await devSignup(running.url);
      const c = await registerClient(running.url);
      const a = await authorizeCode(running.url, c);
      const t = await exchange(running.url, c, a.code);
      await exchange(running.url, c, a.code); // replay: logged as a warning
      await call(running.url, "POST", "/v1/dev-user/login_devuser", { body: { email: dev.email, password: "wrong-password-x" } });
      const all = lines.join("\n");
      expect(all).toContain("replayed");
      for (const secret of [dev.password, c.client_secret, a.code, a.password, String(t.json["access_token"]), dev.token, "wrong-password-x"]) {
        expect(all).not.toContain(secret);
      }
    } finally {
      await running.close();
    }
  });
});

describe("housekeeping", () => {
  it("purges codes expired over a day ago and outbox messages finished over a week ago, nothing else", async () => {
    const { code } = await authorizeCode(server.url, client);
    await server.sql("UPDATE authorization_codes SET expires_at = now() - interval '2 days' WHERE used_at IS NULL");
    const db = server.slotgate.services.db;
    expect(await purgeExpiredCodes(db)).toBeGreaterThan(0);
    expect((await exchange(server.url, client, code)).json["error"]).toBe("invalid_grant");
    await server.sql(
      "INSERT INTO outbox (topic, payload, max_attempts, delivered_at) VALUES ('t', '{}', 1, now() - interval '8 days'), ('t', '{}', 1, now()), ('t', '{}', 1, NULL)",
    );
    const before = Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM outbox WHERE topic = 't'"))[0]!.n);
    expect(await purgeFinished(db)).toBe(1);
    expect(Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM outbox WHERE topic = 't'"))[0]!.n)).toBe(before - 1);
  });
});
