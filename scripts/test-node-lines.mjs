#!/usr/bin/env node
// Runs every package's unit and integration tests on the other supported Node.js lines (the full suite,
// `npm test`, runs on this machine's Node). Each line's binary comes from the npm registry's `node`
// package: `npx -p node@<line> node …`. Browser and child-process end-to-end suites and the PostgreSQL
// duplicate of the server's integration suite stay on the full-suite line (they test the same code
// paths again, through Chromium or a second database); the other PostgreSQL and Redis suites run when
// SLOTGATE_TEST_DATABASE_URL / SLOTGATE_TEST_REDIS_URL say where (as `npm test` sets them).
//
//   node scripts/test-node-lines.mjs                      # lines 22, 24, 26, every package
//   node scripts/test-node-lines.mjs --lines 24 --packages protocol,storage
//
// Prints one line per (Node line, package) with the outcome and the time taken, then a table; exits 1
// when any run failed.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");

/** Per package: the vitest arguments of its unit and integration tests (no browser, no child-process e2e). */
const PACKAGES = {
  protocol: [],
  storage: [],
  contracts: [],
  "chain-service": [],
  "mock-service": [],
  conformance: [],
  "client-sdk": ["--exclude", "test/e2e/**"],
  "backend-sdk": ["--exclude", "test/e2e*.server.test.ts"],
  "game-sdk-bridge": ["--exclude", "test/e2e.server.test.ts", "--exclude", "test/browser.test.ts"],
  server: ["--project", "unit", "--project", "pglite"],
};

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : String(process.argv[at + 1] ?? "").split(",").filter(Boolean);
}

const lines = option("lines", ["22", "24", "26"]);
const packages = option("packages", Object.keys(PACKAGES));
for (const name of packages) if (!(name in PACKAGES)) throw new Error(`unknown package ${name}; one of ${Object.keys(PACKAGES).join(", ")}`);

function withoutColour(env) {
  const { FORCE_COLOR: _force, ...rest } = env;
  return rest;
}

/** The exact version a line resolves to (and a check that `npx -p node@<line>` works at all). */
function versionOf(line) {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["-y", "-p", `node@${line}`, "node", "-p", "process.version"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`npx -p node@${line} failed with ${code}`))));
  });
}

function run(line, name) {
  const args = ["-y", "-p", `node@${line}`, "node", vitest, "run", ...PACKAGES[name]];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npx", args, {
      cwd: join(root, "packages", name),
      env: { ...withoutColour(process.env), NO_COLOR: "1", NPM_CONFIG_UPDATE_NOTIFIER: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      out += c;
    });
    child.on("close", (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const tests = /^\s*Tests\s+(.+?)\s*$/m.exec(out)?.[1] ?? "no test summary";
      if (code !== 0) process.stdout.write(`${out}\n`);
      resolve({ line, name, ok: code === 0, seconds, tests });
    });
  });
}

const results = [];
const started = Date.now();
for (const line of lines) {
  console.log(`=== Node ${line}: ${await versionOf(line)}`);
  for (const name of packages) {
    const result = await run(line, name);
    results.push(result);
    console.log(`node ${line}  ${name.padEnd(16)} ${result.ok ? "ok    " : "FAILED"} ${String(result.seconds).padStart(4)} s  ${result.tests}`);
  }
}
console.log(`\nNode lines ${lines.join(", ")}: ${results.filter((r) => r.ok).length}/${results.length} package runs passed in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
