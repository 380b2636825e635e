#!/usr/bin/env node
// Runs the packages' unit and integration tests on the other supported Node.js lines (the full suite,
// `npm test`, runs on this machine's Node). Each line's binary comes from the npm registry's `node`
// package: `npx -p node@<line>` resolves each line's binary once, then every run spawns that binary directly
// (each `npx` call costs 10-30 s of registry look-up here). Browser and child-process end-to-end suites and the PostgreSQL
// duplicate of the server's integration suite stay on the full-suite line (they test the same code
// paths again, through Chromium or a second database); the other PostgreSQL and Redis suites run when
// SLOTGATE_TEST_DATABASE_URL / SLOTGATE_TEST_REDIS_URL say where (as `npm test` sets them).
//
// The four long suites (server, chain-service, storage, contracts) are split across the lines: with three
// lines, each line runs a third of each one's test files (vitest `--shard`), so every file runs on the
// full-suite line and on one other line, and the step costs about one line's run instead of three
// (docs/decisions/ci-time.md). The short suites run whole on every line. `--whole` runs every suite whole
// on every line (before a release, or to chase a line-specific failure).
//
//   node scripts/test-node-lines.mjs                      # lines 22, 24, 26, every package, two runs at a time
//   node scripts/test-node-lines.mjs --lines 24 --packages protocol,storage --jobs 1
//   node scripts/test-node-lines.mjs --lines 22,24,26 --whole
//
// `--jobs N` (default 2) runs N (line, package) runs at once, longest first: most of these suites wait on
// I/O (Anvil, PGlite, HTTP on 127.0.0.1), so two runs share a two-core machine well. Runs never share
// state: every suite takes ports from the OS, fresh PostgreSQL schemas and its own Redis key prefix.
// Prints one line per (Node line, package) with the outcome and the time taken, then a table; exits 1
// when any run failed.
import { spawn } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");

/**
 * Per package: the vitest arguments of its unit and integration tests (no browser, no child-process e2e).
 * Listed longest first (measured): the pool starts the long runs first so the short ones fill the end.
 */
const PACKAGES = {
  server: ["--project", "unit", "--project", "pglite"],
  "chain-service": [],
  storage: [],
  contracts: [],
  "mock-service": [],
  conformance: [],
  protocol: [],
  "client-sdk": ["--exclude", "test/e2e/**"],
  "backend-sdk": ["--exclude", "test/e2e*.server.test.ts"],
  "game-sdk-bridge": ["--exclude", "test/e2e.server.test.ts", "--exclude", "test/browser.test.ts"],
};

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1
    ? fallback
    : String(process.argv[at + 1] ?? "")
        .split(",")
        .filter(Boolean);
}

const lines = option("lines", ["22", "24", "26"]);
const packages = option("packages", Object.keys(PACKAGES));
const jobs = Math.max(1, Number(option("jobs", ["2"])[0]) || 1);
const whole = process.argv.includes("--whole");
/** The long suites, split across the lines unless `--whole`. */
const SPLIT = new Set(["server", "chain-service", "storage", "contracts"]);

/** The vitest arguments of `name` on the line at `index` of `lines`: its share of the files when split. */
function argumentsOf(name, index) {
  const shard = !whole && SPLIT.has(name) && lines.length > 1 ? ["--shard", `${index + 1}/${lines.length}`] : [];
  return [...PACKAGES[name], ...shard];
}
for (const name of packages) if (!(name in PACKAGES)) throw new Error(`unknown package ${name}; one of ${Object.keys(PACKAGES).join(", ")}`);

function withoutColour(env) {
  const { FORCE_COLOR: _force, ...rest } = env;
  return rest;
}

/**
 * The exact version and the binary a line resolves to (and a check that `npx -p node@<line>` works at all):
 * the one `npx` call per line; the runs then spawn the binary directly.
 */
function resolveLine(line) {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["-y", "-p", `node@${line}`, "node", "-p", "process.version + ' ' + process.execPath"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.on("close", (code) => {
      const [version, binary] = out.trim().split(" ");
      if (code === 0 && version && binary) resolve({ line, version, binary });
      else reject(new Error(`npx -p node@${line} failed with ${code}: ${out.trim()}`));
    });
  });
}

function run({ line, binary, index }, name) {
  const started = Date.now();
  return new Promise((resolve) => {
    // The line's directory first on PATH, as `npx -p` sets it: a test that spawns `node` gets this line's.
    const path = `${dirname(binary)}${delimiter}${process.env.PATH ?? ""}`;
    // One test file at a time inside a run: the pool already runs `--jobs` runs side by side.
    const child = spawn(binary, [vitest, "run", "--maxWorkers", "1", ...argumentsOf(name, index)], {
      cwd: join(root, "packages", name),
      env: { ...withoutColour(process.env), PATH: path, NO_COLOR: "1", NPM_CONFIG_UPDATE_NOTIFIER: "false" },
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
      resolve({
        line,
        name,
        ok: code === 0,
        seconds,
        tests,
        part: argumentsOf(name, index).includes("--shard") ? ` (files ${index + 1}/${lines.length})` : "",
      });
    });
  });
}

const started = Date.now();
const resolved = (await Promise.all(lines.map(resolveLine))).map((target, index) => ({ ...target, index }));
for (const { line, version, binary } of resolved) console.log(`=== Node ${line}: ${version} (${binary})`);
// Longest package first, the lines interleaved: the queue's tail is short runs.
const queue = packages.flatMap((name) => resolved.map((target) => ({ target, name })));
const results = [];
async function worker() {
  for (let next = queue.shift(); next; next = queue.shift()) {
    const result = await run(next.target, next.name);
    results.push(result);
    console.log(
      `node ${result.line}  ${result.name.padEnd(16)} ${result.ok ? "ok    " : "FAILED"} ${String(result.seconds).padStart(4)} s  ${result.tests}${result.part}`,
    );
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));
const cell = (line, name) => {
  const r = results.find((x) => x.line === line && x.name === name);
  return r ? `${r.ok ? "" : "FAILED "}${r.seconds}` : "-";
};
console.log(`\n| package | ${lines.map((l) => `Node ${l} (s)`).join(" | ")} |\n|---|${lines.map(() => "---:").join("|")}|`);
for (const name of packages) console.log(`| ${name} | ${lines.map((l) => cell(l, name)).join(" | ")} |`);
console.log(
  `\nNode lines ${lines.join(", ")}: ${results.filter((r) => r.ok).length}/${results.length} package runs passed in ${Math.round((Date.now() - started) / 1000)} s (${jobs} at a time; ${whole ? "every suite whole" : `${[...SPLIT].join(", ")} split across the lines`})`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
