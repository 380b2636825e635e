import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { freeLoopbackPort, type ReferenceServer, startReferenceServer } from "@slotgate/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileHarness } from "./compile-csharp.js";
// @ts-expect-error plain ESM helper without types
import { decideDevice, verifiedPlayer } from "./player.mjs";

/**
 * The Unity example's C# (SlotgateLogin.cs), compiled with mcs and run under Mono, spawns the
 * single-executable slotgate-login named by SLOTGATE_LOGIN_BIN against the real reference server.
 */
const binary = process.env["SLOTGATE_LOGIN_BIN"]!;
let server: ReferenceServer;
let harness = "";
let desktopClient = "";
let consoleClient = "";
let redirectUri = "";

beforeAll(async () => {
  harness = compileHarness().exe;
  redirectUri = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
  const common = ["--download-url", "https://game.example/dl", "--web-url", "https://game.example"];
  server = await startReferenceServer({
    chain: "off",
    env: { LOG_LEVEL: "warn", RATE_LIMIT: "off", SLOTGATE_SEED_DEMO: "false", DEVICE_POLL_INTERVAL_SECONDS: "1" },
    before(run) {
      desktopClient = String((run(["client", "create", "--name", "Unity desktop", "--redirect-uri", redirectUri, ...common, "--platform", "desktop"]) as Record<string, unknown>)["client_id"]);
      consoleClient = String(
        (run(["client", "create", "--name", "Unity console", "--redirect-uri", "https://game.example/unused", ...common, "--platform", "game", "--grant-type", "urn:ietf:params:oauth:grant-type:device_code"]) as Record<string, unknown>)["client_id"],
      );
    },
  });
}, 180_000);
afterAll(() => server?.close());

/** Runs the harness under Mono; `onLine` sees every stdout line as it arrives. */
function runHarness(args: string[], env: Record<string, string>, onLine: (line: Record<string, unknown>) => void = () => {}) {
  const child = spawn("mono", [harness, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout }).on("line", (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    onLine(line);
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }>((resolve) => child.once("close", (code) => resolve({ code, lines, stderr })));
}

const validate = async (jwt: unknown) => (await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${String(jwt)}` } })).json() as Promise<Record<string, unknown>>;

describe("Unity standalone: SlotgateLogin.cs spawns the single executable", () => {
  it("LoginAsync: the player approves in the (scripted) browser and the JWT validates", async () => {
    const player = `${process.execPath} ${import.meta.dirname}/player.mjs`;
    const run = await runHarness(["login", binary, desktopClient, redirectUri, server.url], { SLOTGATE_BROWSER: player, PLAYER_DATA_DIR: server.dataDir });
    expect(run.code, run.stderr).toBe(0);
    const result = run.lines.at(-1)!;
    expect(result).toMatchObject({ Success: true, ErrorMessage: null, ErrorCode: null });
    expect(await validate(result["Jwt"])).toMatchObject({ valid: true, client_id: desktopClient, token_use: "user_jwt" });
  });

  it("LoginAsync: a denial is Success false with access_denied", async () => {
    const player = `${process.execPath} ${import.meta.dirname}/player.mjs`;
    const run = await runHarness(["login", binary, desktopClient, redirectUri, server.url], { SLOTGATE_BROWSER: player, PLAYER_DECISION: "deny", PLAYER_DATA_DIR: server.dataDir });
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toMatchObject({ Success: false, Jwt: null, ErrorCode: "access_denied" });
  });

  it("LoginWithDeviceCodeAsync: the prompt reaches C#, the player approves elsewhere, the JWT validates", async () => {
    const account = await verifiedPlayer(server.url, server.dataDir, desktopClient, redirectUri);
    let decided: Promise<string | undefined> = Promise.resolve(undefined);
    const run = await runHarness(["device", binary, consoleClient, server.url], {}, (line) => {
      if (line["prompt"]) decided = decideDevice(String(line["VerificationUriComplete"]), account);
    });
    expect(await decided).toBe("device_approved");
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines[0]).toMatchObject({ prompt: true, UserCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), ExpiresIn: 600 });
    expect(run.lines.at(-1)).toMatchObject({ Success: true, ErrorCode: null });
    expect(await validate(run.lines.at(-1)!["Jwt"])).toMatchObject({ valid: true, client_id: consoleClient, token_use: "user_jwt" });
  });
});
