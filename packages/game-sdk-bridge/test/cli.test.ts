import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "./helpers/cli-binary.js";
import { SAMPLE_JWT } from "./helpers/fake-browser.js";

const FAKE_BROWSER = `${process.execPath} ${resolve(import.meta.dirname, "fixtures/fake-browser.mjs")}`;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout's single line, parsed. */
  line: { Success: boolean; Jwt: string | null; ErrorMessage: string | null; ErrorCode: string | null };
}

function runCli(args: string[], env: Record<string, string> = {}, onStart?: (kill: () => void) => void): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawnCli(args, env);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (chunk.includes("complete the sign-in")) onStart?.(() => child.kill("SIGTERM"));
    });
    child.once("error", fail);
    child.once("close", (code, signal) => {
      const lines = stdout.split("\n").filter((l) => l !== "");
      const line = lines.length === 1 && lines[0]!.startsWith("{") ? JSON.parse(lines[0]!) : undefined;
      done({ code, signal, stdout, stderr, line });
    });
  });
}

const base = ["--client-id", "game-cli", "--redirect-uri", "http://127.0.0.1:0/callback", "--slotgate-url", "http://127.0.0.1:9"];

describe(`slotgate-login as a child process (${process.env["SLOTGATE_LOGIN_BIN"] ? "single executable" : "node dist/cli.js"})`, () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "slotgate-cli-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints one JSON line with Success and the Jwt and exits 0 on sign-in", async () => {
    const log = join(dir, "authorize-url.txt");
    const run = await runCli(base, {
      SLOTGATE_BROWSER: FAKE_BROWSER,
      FAKE_BROWSER_MODE: "approve",
      FAKE_BROWSER_JWT: SAMPLE_JWT,
      FAKE_BROWSER_LOG: log,
    });
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(run.line).toEqual({ Success: true, Jwt: SAMPLE_JWT, ErrorMessage: null, ErrorCode: null });
    const authorize = new URL(await readFile(log, "utf8"));
    expect(authorize.origin + authorize.pathname).toBe("http://127.0.0.1:9/oauth/authorize");
    expect(authorize.searchParams.get("client_id")).toBe("game-cli");
  });

  it("exits 1 with access_denied when the player declines", async () => {
    const run = await runCli(base, { SLOTGATE_BROWSER: FAKE_BROWSER, FAKE_BROWSER_MODE: "deny" });
    expect(run.code).toBe(1);
    expect(run.line.Success).toBe(false);
    expect(run.line.Jwt).toBeNull();
    expect(run.line.ErrorCode).toBe("access_denied");
    expect(run.line.ErrorMessage).toContain("declined");
  });

  it("exits 1 with state_mismatch for a forged redirect", async () => {
    const run = await runCli(base, { SLOTGATE_BROWSER: FAKE_BROWSER, FAKE_BROWSER_MODE: "wrong-state", FAKE_BROWSER_JWT: SAMPLE_JWT });
    expect(run.code).toBe(1);
    expect(run.line.ErrorCode).toBe("state_mismatch");
    expect(run.stdout).not.toContain(SAMPLE_JWT);
  });

  it("exits 1 with TIMEOUT after --timeout-ms", async () => {
    const run = await runCli([...base, "--timeout-ms", "200"], { SLOTGATE_BROWSER: FAKE_BROWSER, FAKE_BROWSER_MODE: "ignore" });
    expect(run.code).toBe(1);
    expect(run.line.ErrorCode).toBe("timeout");
  });

  it("exits 1 with cancelled when the engine sends SIGTERM", async () => {
    const run = await runCli(base, { SLOTGATE_BROWSER: FAKE_BROWSER, FAKE_BROWSER_MODE: "ignore" }, (kill) => kill());
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.line.ErrorCode).toBe("cancelled");
  });

  describe("port in use", () => {
    let blocker: Server;
    let port = 0;
    beforeAll(async () => {
      blocker = createServer();
      await new Promise<void>((ready) => blocker.listen(0, "127.0.0.1", ready));
      port = (blocker.address() as { port: number }).port;
    });
    afterAll(async () => {
      await new Promise<void>((closed) => blocker.close(() => closed()));
    });

    it("exits 1 with port_in_use", async () => {
      const run = await runCli(["--client-id", "g", "--redirect-uri", `http://127.0.0.1:${port}/callback`], {
        SLOTGATE_BROWSER: FAKE_BROWSER,
      });
      expect(run.code).toBe(1);
      expect(run.line.ErrorCode).toBe("port_in_use");
      expect(run.line.ErrorMessage).toContain(String(port));
    });
  });

  it.each([
    [["--redirect-uri", "http://127.0.0.1:0/callback"], "--client-id is required"],
    [["--client-id", "g"], "--redirect-uri is required"],
    [["--client-id", "g", "--redirect-uri", "http://localhost:5000/callback"], "not localhost"],
    [[...base, "--loopback-port", "abc"], "--loopback-port must be a whole number"],
    [[...base, "--bogus"], "Unknown option --bogus"],
    [[...base, "extra"], "Unexpected argument"],
    [["--device", "--slotgate-url", "http://127.0.0.1:9"], "--client-id is required"],
    [["--device", ...base], "--redirect-uri does not apply to --device"],
    [["--device=yes", "--client-id", "g"], "--device takes no value"],
  ])("exits 2 with one INVALID_CONFIG line for %j", async (args, fragment) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.line.Success).toBe(false);
    expect(run.line.ErrorCode).toBe("invalid_config");
    expect(run.line.ErrorMessage).toContain(fragment);
  });

  it("--device exits 1 with network_error and no prompt line when the service is unreachable", async () => {
    const run = await runCli(["--device", "--client-id", "console-cli", "--slotgate-url", "http://127.0.0.1:9"]);
    expect(run.code).toBe(1);
    expect(run.line).toMatchObject({ Success: false, Jwt: null, ErrorCode: "network_error" });
    expect(run.line.ErrorMessage).toContain("could not be reached");
  });

  it("refuses --client-secret without echoing its value", async () => {
    const run = await runCli([...base, "--client-secret=hunter2-very-secret"]);
    expect(run.code).toBe(2);
    expect(run.line.ErrorMessage).toContain("--client-secret is not accepted");
    expect(run.stdout + run.stderr).not.toContain("hunter2-very-secret");
  });

  it("prints usage for --help and the version for --version, exiting 0", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: slotgate-login --client-id ID --redirect-uri URI");
    const version = await runCli(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe("0.1.0\n");
  });
});
