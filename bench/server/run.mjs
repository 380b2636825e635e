// Slotgate server benchmark: one command, one run, every mode interleaved in rounds.
//
//   node bench/server/run.mjs [--rounds 5] [--duration 8] [--connections 50] [--out FILE]
//
// Figures go to bench/results/server[-<modes>][-unsettled]-node<major>-<date>.json (bench/results-file.mjs).
//
// Servers run pinned to core 1 (taskset -c 1); this process, autocannon and the PostgreSQL backends
// that serve the Slotgate targets on core 0 (re-pinned after each warm-up: the pool opens them on
// demand), so that the server under test has its core to itself as node-oidc-provider has (it keeps
// no database) and as it would with the database on another machine (BENCH_PIN_DB=off leaves them
// where the kernel puts them). Modes:
//   bare        bare Express 5 JSON route (baseline)
//   bare-classes the same route on a server built with appPrototypes() as the Slotgate server is (no
//               per-request prototype swap): the stricter baseline
//   oidc        node-oidc-provider POST /token, client_credentials, ES256 JWT access token (stores nothing)
//   oidc-code   node-oidc-provider POST /token, authorization_code with PKCE S256, client_secret_post, ES256 JWT
//               access token, codes and grant on Redis (oidc-redis-adapter.mjs): the like-for-like anchor of
//               the code exchange (it reads, checks and consumes a stored code as token-pg does)
//   token-pg    Slotgate POST /oauth/token code exchange (PKCE S256 and client_secret_post, as oidc-code), PostgreSQL
//   token-lite  Slotgate POST /oauth/token code exchange, PGlite (embedded)
//   validate    Slotgate GET /v1/oauth/validate (PostgreSQL instance)
//   status-pg   Slotgate POST /v1/oauth/status/login, PostgreSQL (status upsert + outbox row), 500 users
//   status-lite Slotgate POST /v1/oauth/status/login, PGlite
//   token-base  token-pg at another build of the server (--baseline-dist DIR, a copy of
//               packages/server/dist inside packages/server): a change's same-run baseline
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { resultsFile } from "../results-file.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_MODES = "bare,bare-classes,oidc,oidc-code,token-pg,token-lite,validate,status-pg,status-lite";
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    modes: { type: "string", default: DEFAULT_MODES },
    out: { type: "string" },
    "baseline-dist": { type: "string" },
    // on: every target runs one full garbage collection after its set-up (settle.mjs); off: none
    settle: { type: "string", default: "on" },
  },
});
// The machine as the run found it: the ratios move with the CPU model (docs/benchmarks.md).
const machine = { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, loadavg_at_start: loadavg().map((x) => Number(x.toFixed(2))) };
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const MODES = values.modes.split(",");
const OUT =
  values.out ?? resultsFile("server", [...(values.modes === DEFAULT_MODES ? [] : [MODES.join("+")]), ...(values.settle === "off" ? ["unsettled"] : [])]);

try {
  execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)], { stdio: "ignore" });
} catch {
  console.error("taskset unavailable: running unpinned");
}

function start(file, args = [], env = process.env) {
  const child = spawn("taskset", ["-c", "1", process.execPath, "--expose-gc", join(here, file), ...args], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...env, BENCH_SETTLE: values.settle },
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
    child.on("message", (msg) => {
      if (msg.type === "ready") resolve({ child, info: msg });
    });
  });
}

function ask(child, message, replyType) {
  return new Promise((resolve) => {
    const on = (msg) => {
      if (msg.type === replyType) {
        child.off("message", on);
        resolve(msg);
      }
    };
    child.on("message", on);
    child.send(message);
  });
}

// The PostgreSQL backends of the Slotgate targets carry this application_name (node-postgres reads PGAPPNAME).
const APP_NAME = "slotgate-bench";
const DATABASE_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
let pinWarned = false;
async function pinDatabaseBackends() {
  if (process.env.BENCH_PIN_DB === "off") return;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [APP_NAME]);
    for (const { pid } of rows) {
      try {
        execFileSync("taskset", ["-p", "-c", "0", String(pid)], { stdio: "ignore" });
      } catch {
        if (!pinWarned) console.error("cannot pin PostgreSQL backends (not root?): they share the servers' core");
        pinWarned = true;
      }
    }
  } finally {
    await client.end();
  }
}

const need = (m) => MODES.includes(m);
const pgEnv = { ...process.env, PGAPPNAME: APP_NAME };
if (need("token-base") && !values["baseline-dist"]) throw new Error("token-base needs --baseline-dist DIR");
// Fresh target processes every round: one Slotgate process could run 30-40 % slower than another of the
// same build for its whole life on these machines (docs/benchmarks.md, "Command"), so targets that
// lived for the whole run would let one unlucky process bias every round of its modes.
async function startTargets() {
  const targets = {};
  if (need("bare")) targets.bare = await start("bare-express.mjs");
  if (need("bare-classes")) targets.bareClasses = await start("bare-express.mjs", ["classes"]);
  if (need("oidc")) targets.oidc = await start("oidc-provider-target.mjs");
  if (need("oidc-code")) targets.oidcCode = await start("oidc-provider-code-target.mjs");
  if (["token-pg", "validate", "status-pg"].some(need)) targets.pg = await start("slotgate-target.mjs", ["postgres"], pgEnv);
  if (["token-lite", "status-lite"].some(need)) targets.lite = await start("slotgate-target.mjs", ["pglite"]);
  if (need("token-base")) targets.base = await start("slotgate-target.mjs", ["postgres"], { ...pgEnv, SLOTGATE_SERVER_DIST: values["baseline-dist"] });
  return targets;
}
async function stopTargets(targets) {
  await Promise.all(
    Object.values(targets).map(({ child }) => {
      child.removeAllListeners("exit");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send({ type: "stop" });
      return exited;
    }),
  );
}

function load(url, requests, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, requests }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

// The best exchange rate seen so far per mode: how many codes to mint for the next load.
const lastRates = {};
async function tokenRequests(mode, t, seconds, path = "/oauth/token") {
  const expected = Math.max(lastRates[mode] ?? 0, 8000) * (seconds + 1) * 1.5;
  const { codes } = await ask(t.child, { type: "mint", n: Math.max(10_000, Math.ceil(expected)) }, "minted");
  let i = 0;
  const { client_id, client_secret, redirect_uri, code_verifier } = t.info;
  return [
    {
      method: "POST",
      path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      setupRequest: (req) => {
        const code = codes[i++] ?? "exhausted";
        return {
          ...req,
          body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri, client_id, client_secret, code_verifier }).toString(),
        };
      },
    },
  ];
}

const MODE_DEFS = {
  bare: { target: "bare", requests: async () => [{ method: "GET", path: "/bare" }] },
  "bare-classes": { target: "bareClasses", requests: async () => [{ method: "GET", path: "/bare" }] },
  oidc: {
    target: "oidc",
    requests: async () => [
      {
        method: "POST",
        path: "/token",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from("bench:bench-secret-0123456789abcdefghijklmnopq").toString("base64")}`,
        },
        body: "grant_type=client_credentials&scope=api",
      },
    ],
  },
  "oidc-code": { target: "oidcCode", requests: (t, s) => tokenRequests("oidc-code", t, s, "/token") },
  "token-pg": { target: "pg", requests: (t, s) => tokenRequests("token-pg", t, s) },
  "token-lite": { target: "lite", requests: (t, s) => tokenRequests("token-lite", t, s) },
  "token-base": { target: "base", requests: (t, s) => tokenRequests("token-base", t, s) },
  validate: {
    target: "pg",
    requests: async (t) => [{ method: "GET", path: "/v1/oauth/validate", headers: { authorization: `Bearer ${t.info.access_token}` } }],
  },
  ...Object.fromEntries(
    [
      ["status-pg", "pg"],
      ["status-lite", "lite"],
    ].map(([mode, target]) => [
      mode,
      {
        target,
        requests: async (t) => {
          // Rotate over 500 users (each with its own token): many rows, as real traffic.
          let n = 0;
          const users = t.info.users;
          return [
            {
              method: "POST",
              path: "/v1/oauth/status/login",
              setupRequest: (req) => {
                const u = users[n++ % users.length];
                return {
                  ...req,
                  headers: { "content-type": "application/json", authorization: `Bearer ${u.token}` },
                  body: JSON.stringify({ user_id: u.user_id, client_id: t.info.client_id }),
                };
              },
            },
          ];
        },
      },
    ]),
  ),
};

const samples = Object.fromEntries(MODES.map((m) => [m, []]));
const errors = Object.fromEntries(MODES.map((m) => [m, 0]));
const p99s = Object.fromEntries(MODES.map((m) => [m, []]));
// Each round runs the modes in its own order (a shuffle seeded by the round number, so a run can be
// repeated): the machine drifts over the minute a round takes, and a fixed order would give every
// mode the same neighbours and the same place in that drift in every round.
function orderOfRound(round) {
  let seed = round >>> 0; // mulberry32
  const next = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = [...MODES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
const orders = [];
for (let round = 1; round <= ROUNDS; round++) {
  const order = orderOfRound(round);
  orders.push(order);
  console.error(`round ${round}: starting targets…`);
  const targets = await startTargets();
  for (const mode of order) {
    const def = MODE_DEFS[mode];
    const t = targets[def.target];
    await load(t.info.url, await def.requests(t, WARMUP), WARMUP);
    await pinDatabaseBackends();
    const result = await load(t.info.url, await def.requests(t, DURATION), DURATION);
    const ok = result["2xx"] / DURATION;
    if (mode.startsWith("token") || mode === "oidc-code") lastRates[mode] = Math.max(lastRates[mode] ?? 0, ok);
    errors[mode] += result.non2xx + result.errors + result.timeouts;
    samples[mode].push(ok);
    p99s[mode].push(result.latency.p99);
    console.error(`round ${round} ${mode.padEnd(12)} ${ok.toFixed(0).padStart(7)} req/s (2xx)  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}`);
  }
  await stopTargets(targets);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = Object.fromEntries(
  MODES.map((m) => [
    m,
    {
      median: Math.round(median(samples[m])),
      min: Math.round(Math.min(...samples[m])),
      max: Math.round(Math.max(...samples[m])),
      p99_ms: median(p99s[m]),
      non2xx: errors[m],
      samples: samples[m].map(Math.round),
      p99_samples_ms: p99s[m],
    },
  ]),
);
// Per-round ratios, then their median (the baseline moves with the machine).
const ratio = (a, b) => (samples[a] && samples[b] ? median(samples[a].map((x, i) => x / samples[b][i])) : null);
const ratios = {
  "token-pg / oidc-code": ratio("token-pg", "oidc-code"),
  "token-lite / oidc-code": ratio("token-lite", "oidc-code"),
  "token-pg / oidc": ratio("token-pg", "oidc"),
  "token-lite / oidc": ratio("token-lite", "oidc"),
  "validate / bare": ratio("validate", "bare"),
  "validate / bare-classes": ratio("validate", "bare-classes"),
  "status-pg / bare": ratio("status-pg", "bare"),
  "token-pg / bare": ratio("token-pg", "bare"),
  "token-base / oidc": ratio("token-base", "oidc"),
  "token-pg / token-base": ratio("token-pg", "token-base"),
};
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  machine,
  settle: values.settle,
  rounds: ROUNDS,
  duration_s: DURATION,
  warmup_s: WARMUP,
  connections: CONNECTIONS,
  orders,
};
writeFileSync(OUT, JSON.stringify({ meta, summary, ratios }, null, 2));

console.log(`\n| mode | median req/s | min–max | p99 ms (median of rounds) | non-2xx |\n|---|---|---|---|---|`);
for (const m of MODES) console.log(`| ${m} | ${summary[m].median} | ${summary[m].min}–${summary[m].max} | ${summary[m].p99_ms} | ${summary[m].non2xx} |`);
console.log(`\n| ratio (median of per-round ratios) | value |\n|---|---|`);
for (const [k, v] of Object.entries(ratios)) if (v !== null) console.log(`| ${k} | ${v.toFixed(2)} |`);
process.exit(0);
