// PIN brute-force load test (issue 15): one command, on loopback.
//
//   node bench/security/pin-flood.mjs [--clients 20] [--duration 10] [--rate 100] [--out bench/security/results.json]
//
// Starts the built server (pin-target.mjs: CHAIN=anvil, embedded database, default limits), then
//   1. idle: probes GET /v1/oauth/validate at a steady --rate per second for --duration seconds;
//   2. flood: --clients clients (pin-flood-clients.mjs, a separate process) hammer POST /v1/pin/verify
//      with wrong PINs, each for its own user and from its own address, back to back, for --duration
//      seconds, while the same probe runs;
// and reports the probe's p50/p99 in each phase and their ratio (target: flood p99 within 2x of idle
// p99), the flood's answers, and whether every targeted account ended locked (cs_pin_attempts). Exits 1
// when an account is not locked or the ratio is over 2.
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "20" },
    duration: { type: "string", default: "10" },
    rate: { type: "string", default: "100" },
    out: { type: "string", default: join(here, "results.json") },
  },
});
const CLIENTS = Number(values.clients);
const DURATION = Number(values.duration);
const RATE = Number(values.rate);

function start(file, ...args) {
  const child = fork(join(here, file), args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
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

console.error(`starting the server and registering ${CLIENTS} PINs…`);
const target = start("pin-target.mjs", String(CLIENTS));
const info = await reply(target, "ready");
console.error(`server at ${info.url}`);

await probe(info.url, info.probe.token, 2); // warm-up
console.error(`idle: probing validate at ${RATE}/s for ${DURATION} s`);
const idle = stats(await probe(info.url, info.probe.token, DURATION));

console.error(`flood: ${CLIENTS} clients on /v1/pin/verify with wrong PINs for ${DURATION} s, probing validate meanwhile`);
const flooder = start("pin-flood-clients.mjs");
const floodDone = reply(flooder, "done");
flooder.send({ url: info.url, users: info.flooded, seconds: DURATION });
const [during, flood] = await Promise.all([probe(info.url, info.probe.token, DURATION).then(stats), floodDone]);
flooder.kill();

target.send({ type: "locks" });
const { locked } = await reply(target, "locks");
const lockedSet = new Set(locked.map((l) => l.user_uuid));
const notLocked = info.flooded.filter((u) => !lockedSet.has(u.uuid)).map((u) => u.uuid);
target.send({ type: "stop" });

const ratio = Math.round((during.p99_ms / idle.p99_ms) * 100) / 100;
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cores: availableParallelism(),
  loadavg_1m_at_end: Math.round(loadavg()[0] * 100) / 100,
  clients: CLIENTS,
  duration_s: DURATION,
  probe_rate_per_s: RATE,
  validate_idle: idle,
  validate_during_flood: during,
  p99_ratio: ratio,
  flood_answers: flood.counts,
  flood_requests: Object.values(flood.counts).reduce((a, b) => a + b, 0),
  accounts_locked: `${CLIENTS - notLocked.length}/${CLIENTS}`,
  not_locked: notLocked,
};
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log(`\nvalidate p99: idle ${idle.p99_ms} ms, during the flood ${during.p99_ms} ms, ratio ${ratio} (target <= 2)`);
console.log(`accounts locked: ${result.accounts_locked}`);
const ok = notLocked.length === 0 && ratio <= 2;
console.log(ok ? "PASS" : "FAIL");
process.exit(ok ? 0 : 1);
