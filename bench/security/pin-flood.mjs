// PIN brute-force load test (issue 15): one command, on loopback.
//
//   node bench/security/pin-flood.mjs [--clients 20] [--duration 10] [--rate 100] [--rounds 3] [--db postgres|pglite] [--renice-workers] [--out FILE]
//
// Starts the built server (pin-target.mjs: CHAIN=anvil, PostgreSQL at DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/test, or --db pglite; default limits), then
//   1. idle: probes GET /v1/oauth/validate at a steady --rate per second for --duration seconds;
//   2. flood: --clients clients (pin-flood-clients.mjs, a separate process) hammer POST /v1/pin/verify
//      with wrong PINs, each for its own user and from its own address, back to back, for --duration
//      seconds, while the same probe runs;
// and reports the probe's p50/p99 in each phase and their ratio (target: flood p99 within 2x of idle
// p99), the flood's answers, and whether every targeted account ended locked (cs_pin_attempts). Each
// round floods its own --clients accounts; the verdict takes the median ratio of the rounds (the machine
// moves). Exits 1 when an account is not locked or the median ratio is over 2. --renice-workers is an
// experiment: the server's non-main threads (where PBKDF2 runs) at nice 15 (see docs/benchmarks.md).
// Figures go to bench/results/pin-flood[-pglite][-renice]-node<major>-<date>.json (bench/results-file.mjs).
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { resultsFile } from "../results-file.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "20" },
    duration: { type: "string", default: "10" },
    rate: { type: "string", default: "100" },
    rounds: { type: "string", default: "3" },
    "renice-workers": { type: "boolean", default: false },
    db: { type: "string", default: "postgres" },
    out: { type: "string" },
  },
});
const CLIENTS = Number(values.clients);
const DURATION = Number(values.duration);
const RATE = Number(values.rate);
const ROUNDS = Number(values.rounds);
const OUT = values.out ?? resultsFile("pin-flood", [...(values.db === "postgres" ? [] : [values.db]), ...(values["renice-workers"] ? ["renice"] : [])]);

function start(file, ...args) {
  const env = { ...process.env, ...(values["renice-workers"] ? { SLOTGATE_BENCH_RENICE_WORKERS: "1" } : {}) };
  const child = fork(join(here, file), args, { stdio: ["ignore", "inherit", "inherit", "ipc"], env });
  return child;
}

function reply(child, type) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`child exited with ${code} before "${type}"`));
    child.once("exit", onExit);
    const on = (msg) => {
      if (msg.type === type) {
        child.off("message", on);
        child.off("exit", onExit);
        resolve(msg);
      }
    };
    child.on("message", on);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET /v1/oauth/validate at `rate` per second for `seconds`, one request at a time; latencies in ms. */
async function probe(url, token, seconds) {
  const latencies = [];
  let failures = 0;
  const interval = 1000 / RATE;
  const start = performance.now();
  for (let i = 0; performance.now() - start < seconds * 1000; i += 1) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (res.status !== 200) failures += 1;
  }
  return { latencies, failures };
}

function stats({ latencies, failures }) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (x) => Math.round(x * 100) / 100;
  return { requests: sorted.length, non200: failures, p50_ms: round(at(0.5)), p99_ms: round(at(0.99)), max_ms: round(sorted.at(-1)) };
}

console.error(`starting the server and registering ${CLIENTS * ROUNDS} PINs…`);
const target = start("pin-target.mjs", String(CLIENTS), String(ROUNDS), values.db);
const info = await reply(target, "ready");
console.error(`server at ${info.url}`);
await probe(info.url, info.probe.token, 2); // warm-up

const rounds = [];
for (let r = 0; r < ROUNDS; r += 1) {
  const accounts = info.flooded.slice(r * CLIENTS, (r + 1) * CLIENTS);
  // The flood's process starts (and settles) before the idle phase, so its start-up is in neither phase.
  const flooder = start("pin-flood-clients.mjs", `${info.url}/.well-known/jwks.json`);
  await reply(flooder, "ready");
  await sleep(1000);
  console.error(`round ${r + 1}: idle, probing validate at ${RATE}/s for ${DURATION} s`);
  const idle = stats(await probe(info.url, info.probe.token, DURATION));
  console.error(`round ${r + 1}: flood, ${CLIENTS} clients on /v1/pin/verify with wrong PINs for ${DURATION} s, probing validate meanwhile`);
  const floodDone = reply(flooder, "done");
  flooder.send({ url: info.url, users: accounts, seconds: DURATION });
  const [during, flood] = await Promise.all([probe(info.url, info.probe.token, DURATION).then(stats), floodDone]);
  flooder.kill();
  target.send({ type: "locks" });
  const { locked } = await reply(target, "locks");
  const lockedSet = new Set(locked.map((l) => l.user_uuid));
  const notLocked = accounts.filter((u) => !lockedSet.has(u.uuid)).map((u) => u.uuid);
  const ratio = Math.round((during.p99_ms / idle.p99_ms) * 100) / 100;
  const round = {
    validate_idle: idle,
    validate_during_flood: during,
    p99_ratio: ratio,
    flood_answers: flood.counts,
    flood_requests: Object.values(flood.counts).reduce((a, b) => a + b, 0),
    accounts_locked: `${CLIENTS - notLocked.length}/${CLIENTS}`,
    not_locked: notLocked,
    loadavg_1m: Math.round(loadavg()[0] * 100) / 100,
  };
  console.error(
    `round ${r + 1}: validate p99 idle ${idle.p99_ms} ms, flood ${during.p99_ms} ms, ratio ${ratio}; locked ${round.accounts_locked}; load ${round.loadavg_1m}`,
  );
  rounds.push(round);
}
target.send({ type: "stop" });

const ratios = rounds.map((r) => r.p99_ratio).sort((a, b) => a - b);
const medianRatio = ratios[Math.floor((ratios.length - 1) / 2)];
const allLocked = rounds.every((r) => r.not_locked.length === 0);
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cores: availableParallelism(),
  clients: CLIENTS,
  duration_s: DURATION,
  probe_rate_per_s: RATE,
  database: values.db,
  renice_workers: values["renice-workers"],
  median_p99_ratio: medianRatio,
  all_accounts_locked: allLocked,
  rounds,
};
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log(
  `\n| round | validate p50 idle / flood (ms) | validate p99 idle / flood (ms) | ratio | flood requests | accounts locked | load (1 min) |\n|---|---|---|---|---|---|---|`,
);
for (const [i, r] of rounds.entries()) {
  console.log(
    `| ${i + 1} | ${r.validate_idle.p50_ms} / ${r.validate_during_flood.p50_ms} | ${r.validate_idle.p99_ms} / ${r.validate_during_flood.p99_ms} | ${r.p99_ratio} | ${r.flood_requests} | ${r.accounts_locked} | ${r.loadavg_1m} |`,
  );
}
console.log(`\nmedian p99 ratio ${medianRatio} (target <= 2); every account locked: ${allLocked}`);
const ok = allLocked && medianRatio <= 2;
console.log(ok ? "PASS" : "FAIL");
process.exit(ok ? 0 : 1);
