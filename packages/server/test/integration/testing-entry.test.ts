import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { openDatabase } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeLoopbackPort, type ReferenceServer, readMailbox, signUpPlayer, startReferenceServer } from "../../src/testing/index.js";

// @slotgate/server/testing runs the built `slotgate-server` bin (dist/cli.js) as a child process: on the embedded
// database in the pglite project, on a fresh PostgreSQL schema in the postgres project.
const PG_URL = process.env["SLOTGATE_TEST_DB"] === "postgres" ? process.env["SLOTGATE_TEST_PG_URL"] : undefined;

/** The schemas of reference servers in the PostgreSQL database. */
async function referenceSchemas(): Promise<string[]> {
  const db = await openDatabase({ databaseUrl: PG_URL, poolSize: 1 });
  try {
    return (await db.query<{ name: string }>("SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'sg_reference_%'")).map((r) => r.name);
  } finally {
    await db.close();
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

describe("@slotgate/server/testing", () => {
  let server: ReferenceServer;
  let created: unknown;
  let listedBefore: unknown;

  beforeAll(async () => {
    server = await startReferenceServer({
      chain: "off",
      ...(PG_URL ? { database: PG_URL } : {}),
      env: { LOG_LEVEL: "warn", RATE_LIMIT: "off", SLOTGATE_SEED_DEMO: "false" },
      before(run) {
        created = run([
          "client",
          "create",
          "--name",
          "Testing entry",
          "--redirect-uri",
          "http://127.0.0.1:9/cb",
          "--download-url",
          "https://game.example/dl",
          "--web-url",
          "https://game.example",
          "--platform",
          "web",
        ]);
        listedBefore = run(["client", "list"]);
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("freeLoopbackPort gives a port that can be bound on 127.0.0.1", async () => {
    const port = await freeLoopbackPort();
    expect(port).toBeGreaterThan(0);
    expect(await canListen(port)).toBe(true);
  });

  it("serves /healthz on 127.0.0.1 with a fresh data directory", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(server.dataDir)).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("runs the CLI before start and returns its parsed JSON", () => {
    expect(created).toMatchObject({ success: true, client_id: expect.any(String), client_secret: expect.any(String) });
    const clientId = (created as { client_id: string }).client_id;
    expect(listedBefore).toMatchObject({ success: true, clients: [{ client_id: clientId }] });
  });

  it("runs the CLI in the server's environment after start: parsed on PostgreSQL, refused on the busy embedded database", async () => {
    if (PG_URL) {
      const listed = await server.run(["client", "list"]);
      expect(listed).toMatchObject({ success: true, clients: [{ client_id: (created as { client_id: string }).client_id }] });
    } else {
      await expect(server.run(["client", "list"])).rejects.toThrow(/in use by process/);
    }
  }, 60_000);

  it("signUpPlayer signs a player up through the form and the development mailbox (no SMTP_URL): the code mail is in the data directory", async () => {
    const email = `player-${randomBytes(4).toString("hex")}@example.test`;
    const client = created as { client_id: string };
    const res = await signUpPlayer(server.url, server.dataDir, {
      client_id: client.client_id,
      redirect_uri: "http://127.0.0.1:9/cb",
      state: "s-1",
      email,
      password: "player-password-1",
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const mails = readMailbox(server.dataDir, { to: email });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: email, subject: expect.stringContaining("Confirm your email") });
    expect(mails[0]!.text).toMatch(/sign-up code is [0-9]{6}/);
  });

  it("runs with CHAIN=off", async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ status: "ok", chain: "off" });
  });

  it("rejects a CLI command that fails, with its stderr", async () => {
    await expect(server.run(["client", "nonsense"])).rejects.toThrow(/slotgate-server client nonsense/);
  });

  it("close() stops the server, removes the data directory (and its PostgreSQL schema) and frees the port", async () => {
    const port = Number(new URL(server.url).port);
    if (PG_URL) expect(await referenceSchemas()).toContain(server.schema);
    else expect(server.schema).toBeNull();
    await server.close();
    if (PG_URL) expect(await referenceSchemas()).not.toContain(server.schema);
    expect(existsSync(server.dataDir)).toBe(false);
    expect(
      await fetch(`${server.url}/healthz`).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");
    expect(await canListen(port)).toBe(true);
    await server.close();
  });
});

describe("startReferenceServer failures", () => {
  it("rejects when the server exits before it is healthy", async () => {
    await expect(startReferenceServer({ chain: "off", env: { LOG_LEVEL: "nonsense" }, timeoutMs: 30_000 })).rejects.toThrow(/exited/);
  }, 60_000);
});
