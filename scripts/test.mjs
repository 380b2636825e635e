#!/usr/bin/env node
// `npm test`: probes the integration services, says which suites will run, then runs every package's tests through turbo.
// On CI (CI=true) PostgreSQL, Redis and Chromium are required: a missing one fails the run before any test starts.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";

const onCi = process.env.CI === "true" || process.env.CI === "1";

function reachable(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

const databaseUrl = process.env.SLOTGATE_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.SLOTGATE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const chromium = process.env.SLOTGATE_CHROMIUM ?? "/usr/bin/chromium";

/** True when `command --version` runs (Mono's mcs and mono are found on PATH). */
function runs(command) {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** True when `godot3-server --version` prints a Godot 3 version (it exits 255 after printing it). */
function godot3() {
  try {
    return /^3\.\d/.test(execFileSync("godot3-server", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  } catch (error) {
    return /^3\.\d/.test(String(error.stdout ?? ""));
  }
}

const pg = new URL(databaseUrl);
const redis = new URL(redisUrl);
const services = [
  {
    name: "PostgreSQL",
    env: "SLOTGATE_TEST_DATABASE_URL",
    value: databaseUrl,
    ok: await reachable(pg.hostname, Number(pg.port || 5432)),
    what: "server storage suites and the three-instance fault test on PostgreSQL",
  },
  {
    name: "Redis",
    env: "SLOTGATE_TEST_REDIS_URL",
    value: redisUrl,
    ok: await reachable(redis.hostname, Number(redis.port || 6379)),
    what: "backend SDK shared pending store across two instances",
  },
  { name: "Chromium", env: "SLOTGATE_CHROMIUM", value: chromium, ok: existsSync(chromium), what: "browser end-to-end suites (client SDK, game bridge, demo)" },
  // No variable to point elsewhere: the C# suites call `mcs` and `mono` from PATH (their vitest config checks again).
  {
    name: "Mono",
    env: null,
    value: "mcs and mono on PATH",
    ok: runs("mcs") && runs("mono"),
    what: "the Unity C# suites (engines/unity and examples/unity-login test/csharp-*.test.ts)",
  },
  { name: "Godot 3", env: null, value: "godot3-server on PATH", ok: godot3(), what: "the Godot add-on suite (engines/godot test/godot-*.test.ts)" },
];

const missing = services.filter((s) => !s.ok);
for (const s of services) {
  if (!s.env) continue;
  if (s.ok) process.env[s.env] = s.value;
  else delete process.env[s.env];
}
if (missing.length > 0) {
  const lines = missing.map((s) => `  - ${s.name} (${s.value}) unreachable: left out ${s.what}`);
  if (onCi) {
    console.error(`CI requires every integration service:\n${lines.join("\n")}`);
    process.exit(1);
  }
  console.warn(
    `Integration suites left out on this machine:\n${lines.join("\n")}\n(Start the service, or set the variable named in scripts/test.mjs, to include them. CI always runs them.)\n`,
  );
} else {
  console.log("PostgreSQL, Redis, Chromium, Mono and Godot 3 found: every integration suite runs.\n");
}

const args = ["turbo", "run", "test", "--concurrency=2", "--continue", ...process.argv.slice(2)];
// Stream turbo's output through, and add up vitest's per-package "Tests" lines for one closing summary.
const totals = { passed: 0, failed: 0, skipped: 0 };
const child = spawn("npx", args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" } });
let pending = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) count(line);
});
function count(line) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
  const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
  const match = /\bTests\s+(.+)\(\d+\)\s*$/.exec(plain);
  if (!match) return;
  for (const [, n, kind] of match[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(n);
}
const status = await new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
count(pending);
if (missing.length > 0) {
  console.warn(`\nReminder: left out ${missing.map((s) => s.what).join("; ")} (service unreachable).`);
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(status === 0 && totals.failed > 0 ? 1 : status);
