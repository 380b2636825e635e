import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "slotgate-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI; `secret` is what the user would type or pipe on stdin (never read unless asked for). */
async function runWith(options: { env?: Record<string, string>; secret?: string }, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const prompts: string[] = [];
  const readSecret = async (prompt: string) => {
    prompts.push(prompt);
    if (options.secret === undefined) throw new Error("stdin was read but the test typed nothing");
    return options.secret;
  };
  const code = await runCli(
    argv,
    { SLOTGATE_DATA_DIR: dir, LOG_LEVEL: "silent", ...options.env },
    { out: (l) => out.push(l), err: (l) => err.push(l), readSecret },
  );
  return { code, out: out.join("\n"), err: err.join("\n"), prompts };
}

async function run(...argv: string[]) {
  return runWith({}, ...argv);
}

describe("slotgate-server CLI (embedded database in a temp data dir)", () => {
  it("migrate, dev-user create, client create (id + one-time secret as JSON), client list, keys rotate", async () => {
    const migrate = await run("migrate");
    expect(migrate.code).toBe(0);
    expect(JSON.parse(migrate.out)).toEqual({ success: true, applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], database: "pglite" });
    expect(JSON.parse((await run("migrate")).out).applied).toEqual([]);

    const dev = await runWith({ secret: "ops-password-1" }, "dev-user", "create", "--email", "ops@example.test");
    expect(dev.code).toBe(0);
    expect(dev.prompts).toEqual(["Password for ops@example.test: "]);
    expect(JSON.parse(dev.out)).toMatchObject({ success: true, email: "ops@example.test" });
    expect(dev.out).not.toContain("ops-password-1");

    const created = await run(
      "client",
      "create",
      "--name",
      "Game",
      "--redirect-uri",
      "https://g.example/cb",
      "--redirect-uri",
      "http://127.0.0.1:7777/callback",
      "--download-url",
      "https://g.example/dl",
      "--web-url",
      "https://g.example/",
      "--platform",
      "game",
      "--blockchain",
      "--owner",
      "ops@example.test",
      "--grant-type",
      "refresh_token",
      "--grant-type",
      "urn:ietf:params:oauth:grant-type:device_code",
    );
    expect(created.code).toBe(0);
    const client = JSON.parse(created.out) as Record<string, unknown>;
    expect(client).toMatchObject({
      success: true,
      platform: "game",
      blockchain: true,
      redirect_uris: ["https://g.example/cb", "http://127.0.0.1:7777/callback"],
    });
    expect(client["grant_types"]).toEqual(["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]);
    expect(client["client_id"]).toMatch(/^sg_/);
    expect(client["client_secret"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client["token_endpoint_auth_method"]).toBe("client_secret_basic");

    const game = await run(
      "client",
      "create",
      "--name",
      "Public game",
      "--redirect-uri",
      "http://127.0.0.1/callback",
      "--download-url",
      "https://g.example/dl",
      "--web-url",
      "https://g.example/",
      "--platform",
      "game",
      "--owner",
      "ops@example.test",
      "--public",
    );
    expect(game.code, game.err).toBe(0);
    const publicClient = JSON.parse(game.out) as Record<string, unknown>;
    expect(publicClient).toMatchObject({ success: true, token_endpoint_auth_method: "none", redirect_uris: ["http://127.0.0.1/callback"] });
    expect(publicClient).not.toHaveProperty("client_secret");
    const webPublic = await run(
      "client",
      "create",
      "--name",
      "Public web",
      "--redirect-uri",
      "https://g.example/cb",
      "--download-url",
      "https://g.example/dl",
      "--web-url",
      "https://g.example/",
      "--platform",
      "web",
      "--public",
    );
    expect(webPublic.code).toBe(2);
    expect(webPublic.err).toContain("redirect_uris.0 a public client (token_endpoint_auth_method none) may only register loopback IP redirect URIs");

    const list = await run("client", "list");
    const clients = (JSON.parse(list.out) as { clients: Array<Record<string, unknown>> }).clients;
    expect(clients.map((c) => c["client_id"])).toEqual([client["client_id"], publicClient["client_id"]]);
    expect(list.out).not.toContain(String(client["client_secret"]));

    const rotated = await run("keys", "rotate");
    expect(JSON.parse(rotated.out)).toMatchObject({ success: true, active_kid: expect.any(String) });
    expect(statSync(join(dir, "signing-keys.json")).mode & 0o077).toBe(0);
  }, 120_000);

  it("rejects bad input with exit code 2 and a message naming the problem", async () => {
    const bad = await run(
      "client",
      "create",
      "--name",
      "X",
      "--redirect-uri",
      "not a url",
      "--download-url",
      "https://a.example",
      "--web-url",
      "https://a.example",
      "--platform",
      "web",
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("redirect_uris.0");
    const unknownFlag = await run("client", "list", "--bogus");
    expect(unknownFlag.code).toBe(2);
    const config = await runCli(["migrate"], { PORT: "x" }, { out: () => undefined, err: (l) => expect(l).toContain("PORT") });
    expect(config).toBe(2);
    expect((await run("frobnicate")).code).toBe(2);
    expect((await run("help")).code).toBe(0);
  }, 60_000);

  it("refuses a duplicate developer email with exit code 1 and the email_taken code", async () => {
    const again = await runWith({ env: { SLOTGATE_DEV_USER_PASSWORD: "ops-password-1" } }, "dev-user", "create", "--email", "ops@example.test");
    expect(again.code).toBe(1);
    expect(again.err).toContain("email_taken");
  }, 60_000);

  it("dev-user create refuses --password on the command line (exit 2, says how to pass it) and creates nothing", async () => {
    for (const argv of [["--password", "argv-password-1"], ["--password=argv-password-1"]]) {
      const refused = await runWith({ secret: "typed-password-1" }, "dev-user", "create", "--email", "argv@example.test", ...argv);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain("--password is refused");
      expect(refused.err).toContain("SLOTGATE_DEV_USER_PASSWORD");
      expect(refused.err).toContain("stdin");
      expect(refused.prompts, "nothing is read once argv carries a password").toEqual([]);
    }
    // The email is still free: no account was made from the refused command.
    const made = await runWith({ env: { SLOTGATE_DEV_USER_PASSWORD: "env-password-1" } }, "dev-user", "create", "--email", "argv@example.test");
    expect(made.code).toBe(0);
    expect(made.prompts, "the environment variable wins over stdin").toEqual([]);
    expect(JSON.parse(made.out)).toMatchObject({ success: true, email: "argv@example.test" });
  }, 60_000);

  it("dev-user create validates the password read from stdin: too short -> exit 2 naming the field", async () => {
    const short = await runWith({ secret: "short" }, "dev-user", "create", "--email", "short@example.test");
    expect(short.code).toBe(2);
    expect(short.err).toContain("password");
    const noEmail = await runWith({ secret: "long-enough-1" }, "dev-user", "create");
    expect(noEmail.code).toBe(2);
    expect(noEmail.err).toContain("email");
    expect(noEmail.prompts).toEqual([]);
  }, 60_000);

  it("manages a client: update, rotate-secret, disable, enable, audit, deliveries, delete — JSON out, bad input exit 2, others' clients refused", async () => {
    const created = JSON.parse(
      (
        await run(
          "client",
          "create",
          "--name",
          "Managed",
          "--redirect-uri",
          "https://m.example/cb",
          "--download-url",
          "https://m.example/dl",
          "--web-url",
          "https://m.example/",
          "--platform",
          "web",
          "--owner",
          "ops@example.test",
        )
      ).out,
    ) as { client_id: string; client_secret: string };
    const id = created.client_id;
    const updated = await run("client", "update", "--client-id", id, "--redirect-uri", "https://m.example/cb2", "--name", "Managed 2");
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.out)).toMatchObject({ success: true, client_id: id, name: "Managed 2", redirect_uris: ["https://m.example/cb2"] });
    const rotated = JSON.parse((await run("client", "rotate-secret", "--client-id", id, "--owner", "ops@example.test")).out) as Record<string, unknown>;
    expect(rotated["client_secret"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated["client_secret"]).not.toBe(created.client_secret);
    expect(Date.parse(String(rotated["previous_secret_valid_until"])) - Date.now()).toBeGreaterThan(86_000_000);
    expect(JSON.parse((await run("client", "disable", "--client-id", id)).out)).toMatchObject({ disabled: true });
    expect(JSON.parse((await run("client", "enable", "--client-id", id)).out)).toMatchObject({ disabled: false });
    const audit = JSON.parse((await run("client", "audit", "--client-id", id)).out) as { entries: Array<{ actor: string; action: string }> };
    expect(audit.entries.map((e) => e.action)).toEqual(["client.enabled", "client.disabled", "secret.rotated", "client.updated", "client.registered"]);
    expect(audit.entries.every((e) => e.actor === "cli")).toBe(true);
    expect(JSON.parse((await run("client", "deliveries", "--client-id", id)).out)).toEqual({ success: true, deliveries: [] });
    const missing = await run("client", "retry-delivery", "--client-id", id, "--delivery-id", "42");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("delivery_not_found");

    const bad = await run("client", "update", "--client-id", id, "--redirect-uri", "javascript:alert(1)");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("redirect_uris.0");
    expect((await run("client", "update", "--client-id", id)).code).toBe(2);
    expect((await run("client", "disable")).code).toBe(2);
    expect((await run("client", "retry-delivery", "--client-id", id, "--delivery-id", "x")).code).toBe(2);
    await run("dev-user", "create", "--email", "other@example.test", "--password", "other-password-1");
    const foreign = await run("client", "disable", "--client-id", id, "--owner", "other@example.test");
    expect(foreign.code).toBe(1);
    expect(foreign.err).toContain("client_not_found");
    const list = JSON.parse((await run("client", "list")).out) as { clients: Array<{ client_id: string; name: string; disabled: boolean }> };
    expect(list.clients.find((c) => c.client_id === id)).toMatchObject({ name: "Managed 2", disabled: false });

    expect(JSON.parse((await run("client", "delete", "--client-id", id)).out)).toEqual({ success: true, client_id: id, deleted: true });
    expect((JSON.parse((await run("client", "list")).out) as { clients: Array<{ client_id: string }> }).clients.map((c) => c.client_id)).not.toContain(id);
    const gone = await run("client", "audit", "--client-id", id);
    expect(gone.code).toBe(1);
    expect(gone.err).toContain("client_not_found");
  }, 60_000);
});
