// Resident memory of every process `npm start` runs, after the demo journey's marketplace sale (steps 1-7d of
// examples/web-app/test/demo.e2e.test.ts, driven in headless Chromium), on the embedded database (PGlite) and on
// PostgreSQL (a fresh database on DATABASE_URL's server, dropped afterwards). Issue 34 item 4.
//
//   node bench/memory/demo-rss.mjs [--variants pglite,postgres] [--out FILE]
//
// Needs the packages built (npm run build) and Chromium (as the e2e test). Linux only (reads /proc).
// Figures go to bench/results/memory-demo-node<major>-<date>.json.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { resultsFile } from "../results-file.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({ options: { variants: { type: "string", default: "pglite,postgres" }, out: { type: "string" } } });
const ADMIN_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** Runs the demo journey once and answers the report the test wrote after step 7d. */
function journey(env) {
  const report = join(mkdtempSync(join(tmpdir(), "slotgate-rss-")), "rss.json");
  const run = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "test/demo.e2e.test.ts"], {
    cwd: join(root, "examples/web-app"),
    env: { ...process.env, ...env, SLOTGATE_RSS_REPORT: report, NO_COLOR: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`the demo journey failed:\n${(run.stdout + run.stderr).slice(-3000)}`);
  return JSON.parse(readFileSync(report, "utf8"));
}

/** The role of a process of the stack, from its command line. */
function role(command) {
  if (/anvil/.test(command)) return "anvil";
  if (/slotgate-server|server\/dist\/cli/.test(command)) return "server";
  if (/marketplace/.test(command)) return "marketplace";
  if (/web-app/.test(command)) return "web-app";
  if (/start\.mjs/.test(command)) return "npm start (supervisor)";
  return command;
}

const results = {};
for (const variant of values.variants.split(",")) {
  let env = {};
  let database;
  if (variant === "postgres") {
    database = `slotgate_rss_${process.pid}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    // With DATABASE_URL the server asks which chain: the development chain, as on the embedded default.
    env = { DATABASE_URL: url.toString(), CHAIN: "anvil" };
  }
  try {
    const report = journey(env);
    results[variant] = {
      when: report.when,
      processes: report.processes.map((p) => ({ role: role(p.command), pid: p.pid, rss_mb: p.rss_mb, command: p.command })),
    };
  } finally {
    if (database) {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  }
}
const out = values.out ?? resultsFile("memory-demo", []);
writeFileSync(out, JSON.stringify({ meta: { date: new Date().toISOString(), node: process.version }, results }, null, 2));
console.log("| variant | process | RSS MB |\n|---|---|---|");
for (const [variant, { processes }] of Object.entries(results)) for (const p of processes) console.log(`| ${variant} | ${p.role} | ${p.rss_mb} |`);
console.log(`\nwritten to ${out}`);
