// Slotgate server benchmark: one command, one run, every mode interleaved in rounds.
//
//   node bench/server/run.mjs [--rounds 5] [--duration 8] [--connections 50] [--out bench/server/results.json]
//
// Servers run pinned to core 1 (taskset -c 1), this process and autocannon on core 0. Modes:
//   bare        bare Express 5 JSON route (baseline)
//   oidc        node-oidc-provider POST /token, client_credentials, ES256 JWT access token
//   token-pg    Slotgate POST /oauth/token code exchange, PostgreSQL
//   token-lite  Slotgate POST /oauth/token code exchange, PGlite (embedded)
//   validate    Slotgate GET /v1/oauth/validate (PostgreSQL instance)
//   status-pg   Slotgate POST /v1/oauth/status/login, PostgreSQL (status upsert + outbox row), 500 users
//   status-lite Slotgate POST /v1/oauth/status/login, PGlite
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    modes: { type: "string", default: "bare,oidc,token-pg,token-lite,validate,status-pg,status-lite" },
    out: { type: "string", default: join(here, "results.json") },
  },
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const MODES = values.modes.split(",");

try {
  execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)], { stdio: "ignore" });
} catch {
  console.error("taskset unavailable: running unpinned");
}

function start(file, ...args) {
  const child = spawn("taskset", ["-c", "1", process.execPath, join(here, file), ...args], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
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

const need = (m) => MODES.includes(m);
console.error("starting targets…");
const targets = {};
if (need("bare")) targets.bare = await start("bare-express.mjs");
if (need("oidc")) targets.oidc = await start("oidc-provider-target.mjs");
if (["token-pg", "validate", "status-pg"].some(need)) targets.pg = await start("slotgate-target.mjs", "postgres");
if (["token-lite", "status-lite"].some(need)) targets.lite = await start("slotgate-target.mjs", "pglite");

function load(url, requests, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, requests }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function tokenRequests(t, seconds) {
  const expected = Math.max(t.lastRate ?? 0, 8000) * (seconds + 1) * 1.5;
  const { codes } = await ask(t.child, { type: "mint", n: Math.max(10_000, Math.ceil(expected)) }, "minted");
  let i = 0;
  const { client_id, client_secret, redirect_uri } = t.info;
  return [
    {
      method: "POST",
      path: "/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      setupRequest: (req) => {
        const code = codes[i++] ?? "exhausted";
        return { ...req, body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri, client_id, client_secret }).toString() };
      },
    },
  ];
}

const MODE_DEFS = {
  bare: { target: "bare", requests: async () => [{ method: "GET", path: "/bare" }] },
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
  "token-pg": { target: "pg", requests: (t, s) => tokenRequests(t, s) },
  "token-lite": { target: "lite", requests: (t, s) => tokenRequests(t, s) },
  validate: {
    target: "pg",
    requests: async (t) => [{ method: "GET", path: "/v1/oauth/validate", headers: { authorization: `Bearer ${t.info.access_token}` } }],
  },
  ...Object.fromEntries(
    [["status-pg", "pg"], ["status-lite", "lite"]].map(([mode, target]) => [
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
for (let round = 1; round <= ROUNDS; round++) {
  for (const mode of MODES) {
    const def = MODE_DEFS[mode];
    const t = targets[def.target];
    await load(t.info.url, await def.requests(t, WARMUP), WARMUP);
    const result = await load(t.info.url, await def.requests(t, DURATION), DURATION);
    const ok = result["2xx"] / DURATION;
    if (mode.startsWith("token")) t.lastRate = Math.max(t.lastRate ?? 0, ok);
    errors[mode] += result.non2xx + result.errors + result.timeouts;
    samples[mode].push(ok);
    p99s[mode].push(result.latency.p99);
    console.error(`round ${round} ${mode.padEnd(12)} ${ok.toFixed(0).padStart(7)} req/s (2xx)  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}`);
  }
}

for (const t of Object.values(targets)) t.child.send({ type: "stop" });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = Object.fromEntries(
  MODES.map((m) => [m, { median: Math.round(median(samples[m])), min: Math.round(Math.min(...samples[m])), max: Math.round(Math.max(...samples[m])), p99_ms: median(p99s[m]), non2xx: errors[m], samples: samples[m].map(Math.round), p99_samples_ms: p99s[m] }]),
);
// Per-round ratios, then their median (the baseline moves with the machine).
const ratio = (a, b) => (samples[a] && samples[b] ? median(samples[a].map((x, i) => x / samples[b][i])) : null);
const ratios = {
  "token-pg / oidc": ratio("token-pg", "oidc"),
  "token-lite / oidc": ratio("token-lite", "oidc"),
  "validate / bare": ratio("validate", "bare"),
  "status-pg / bare": ratio("status-pg", "bare"),
  "token-pg / bare": ratio("token-pg", "bare"),
};
const meta = { date: new Date().toISOString(), node: process.version, rounds: ROUNDS, duration_s: DURATION, warmup_s: WARMUP, connections: CONNECTIONS };
writeFileSync(values.out, JSON.stringify({ meta, summary, ratios }, null, 2));

console.log(`\n| mode | median req/s | min–max | p99 ms (median of rounds) | non-2xx |\n|---|---|---|---|---|`);
for (const m of MODES) console.log(`| ${m} | ${summary[m].median} | ${summary[m].min}–${summary[m].max} | ${summary[m].p99_ms} | ${summary[m].non2xx} |`);
console.log(`\n| ratio (median of per-round ratios) | value |\n|---|---|`);
for (const [k, v] of Object.entries(ratios)) if (v !== null) console.log(`| ${k} | ${v.toFixed(2)} |`);
process.exit(0);
