import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

const pkgJson = createRequire(import.meta.url).resolve("@slotgate/server/package.json");
const cli = join(dirname(pkgJson), (JSON.parse(readFileSync(pkgJson, "utf8")) as { bin: Record<string, string> }).bin["slotgate-server"] ?? "");

/** The reference server (`slotgate-server start`) on a fresh embedded database; `run` runs an operator command first. */
export async function startReferenceServer(before: (run: (args: string[]) => Record<string, unknown>) => void = () => undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), "slotgate-example-"));
  const port = await freePort();
  const env = { ...process.env, SLOTGATE_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", RATE_LIMIT: "off" };
  before((args) => {
    const r = spawnSync(process.execPath, [cli, ...args], { env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`slotgate-server ${args[0]} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  });
  const child: ChildProcess = spawn(process.execPath, [cli, "start"], { env, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slotgate-server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error("slotgate-server did not become healthy");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async close() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the example's built entry point; resolves its exit code and output. */
export function runExample(main: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [main], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("close", (code) => ok({ code, stdout, stderr }));
  });
}
