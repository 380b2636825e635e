// Chain benchmark of the Slotgate server: one command, every mode interleaved in rounds.
//
//   node bench/chain/run.mjs [--rounds 5] [--users 50] [--block-time 2] [--proxy-delay 50] [--pbkdf2-seconds 3]
//                            [--phases spends,ops] [--db pglite|postgres] [--duration 5] [--pin-loops 8] [--out FILE]
//
// Figures go to bench/results/chain[-<phases>][-postgres]-node<major>-<date>.json (bench/results-file.mjs).
// --db: the target's services on in-memory PGlite (default, in the target's process and core) or on
// PostgreSQL (DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, a schema of their own each,
// dropped at the end). With --phases ops (no spends) only the two direct services are set up.
//
// The target (ops-target.mjs) runs pinned to core 1 (taskset -c 1); this process, the JSON-RPC proxy and
// the target's Anvil node on core 0 (the node stands for another machine). Needs the dist builds
// (npx turbo run build --filter=@slotgate/server...). One Anvil for everything; each round runs every
// mode once, in this order:
//   spends  `users` encrypted spends at once through ChainService.increaseUsed (one per slot), with
//           p50/p99 latency, the transactions they went in and the receipts' gas:
//             batched (spendBatchLimit 50, the default) vs single (spendBatchLimit 1: one
//             increase_used per spend), each on
//             automine        Anvil mining each transaction at once
//             proxy-50ms      automine through rpc-proxy.mjs, which holds every JSON-RPC request for
//                             `proxy-delay` ms (a remote node)
//             block-time-2s   Anvil mining a block every `block-time` s (evm_setIntervalMining)
//   ops     `users` sponsored UserOperations at once through ChainService.verifyPin (PIN unlock with
//           PBKDF2, paymaster and owner signatures, built-in bundler), automine: batched (up to 24 per
//           handleOps) vs single (one per handleOps)
//           (BENCH_QUERY_STATS=1: the target counts each burst's database statements and the runner prints them)
//   pbkdf2  the PBKDF2 ceiling on the target's core: share_pin derivations per second with the
//           service's parameters, `pbkdf2-seconds` long
// After the rounds, `gas`: one increase_used_batch of 50 slots vs one increase_used (receipts).
// The `http` phase (issue 5; not in the default phases) starts server-target.mjs:
//   pin-verify                    POST /v1/pin/verify latency over HTTP, one request at a time
//   validate / validate+pin       GET /v1/oauth/validate (autocannon, 50 connections) alone, and while
//                                 `pin-loops` clients run PIN verifications against the same server
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { resultsFile } from "../results-file.mjs";
import { startRpcProxy } from "./rpc-proxy.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    users: { type: "string", default: "50" },
    "proxy-delay": { type: "string", default: "50" },
    "pbkdf2-seconds": { type: "string", default: "3" },
    "pin-loops": { type: "string", default: "8" },
    "pin-samples": { type: "string", default: "100" },
    phases: { type: "string", default: "spends,ops" },
    db: { type: "string", default: "pglite" },
    "block-time": { type: "string", default: "2" },
    out: { type: "string" },
  },
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const USERS = Number(values.users);
const PIN_LOOPS = Number(values["pin-loops"]);
const PIN_SAMPLES = Number(values["pin-samples"]);
const PHASES = values.phases.split(",");
const DB = values.db;
if (DB !== "pglite" && DB !== "postgres") throw new Error("--db must be pglite or postgres");
const OUT = values.out ?? resultsFile("chain", [...(values.phases === "spends,ops" ? [] : [PHASES.join("+")]), ...(DB === "pglite" ? [] : [DB])]);
const BLOCK_TIME = Number(values["block-time"]);
const PROXY_DELAY = Number(values["proxy-delay"]);
const PBKDF2_SECONDS = Number(values["pbkdf2-seconds"]);
const startedAt = Date.now();
const loadAtStart = loadavg();

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
  return new Promise((resolve, reject) => {
    const died = (code) => reject(new Error(`the target exited with ${code} during ${message.type}`));
    const on = (msg) => {
      if (msg.type === replyType) {
        child.off("message", on);
        child.off("exit", died);
        resolve(msg);
      }
    };
    child.on("message", on);
    child.once("exit", died);
    child.send(message);
  });
}

async function stop(child) {
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send({ type: "stop" });
  await exited;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs });

// ---------------------------------------------------------------- spends, sponsored operations, PBKDF2
const CHAINS = ["automine", "proxy", "block-time"];
const chainName = { automine: "automine", proxy: `proxy-${PROXY_DELAY}ms`, "block-time": `block-time-${BLOCK_TIME}s` };
const MODES = ["batched", "single"];
const spendRuns = {}; // chain name -> mode -> [{ per_s, p50_ms, p99_ms, transactions, latencies, gas }]
const opsRuns = { batched: [], single: [] };
const pbkdf2Runs = [];
let gas = null;
let targetInfo = {};
const wantSpends = PHASES.includes("spends");
const wantOps = PHASES.includes("ops");
if (wantSpends || wantOps) {
  console.error(`[chain bench] target: ${wantSpends ? 4 : 2} chain services on ${DB}, ${USERS} slot wallets each (set-up takes a minute or two)`);
  const target = spawn("taskset", ["-c", "1", process.execPath, join(here, "ops-target.mjs"), String(USERS), String(BLOCK_TIME), DB, PHASES.join(",")], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let proxy;
  await new Promise((resolve, reject) => {
    target.once("error", reject);
    target.once("exit", (code) => reject(new Error(`ops-target.mjs exited with ${code}`)));
    target.on("message", async (msg) => {
      if (msg.type === "anvil") {
        // No delay while the target sets its users up; the rounds run with it.
        proxy = await startRpcProxy({ upstream: msg.rpcUrl, delayMs: 0 });
        target.send({ type: "proxy", url: proxy.url });
      }
      if (msg.type === "ready") resolve();
    });
  });
  target.removeAllListeners("exit");
  target.removeAllListeners("message");
  proxy.delayMs = PROXY_DELAY;
  targetInfo = { setup_s: Math.round((Date.now() - startedAt) / 1000) };
  console.error(`[chain bench] set up in ${targetInfo.setup_s} s; ${ROUNDS} rounds`);

  // Warm-up, not counted: one burst per spend service (every slot has spent before the counted rounds,
  // so each counted spend is the steady state, as today's 42,322 gas) and one per operation service.
  if (wantSpends)
    for (const route of ["direct", "proxy"]) for (const mode of MODES) await ask(target, { type: "spends", route, mode, chain: "automine" }, "spends");
  if (wantOps) for (const mode of MODES) await ask(target, { type: "ops", mode }, "ops");
  console.error("[chain bench] warmed up");

  for (let round = 0; round < ROUNDS; round++) {
    if (wantSpends) {
      for (const chain of CHAINS) {
        // Alternate which mode goes first, so neither always follows the other.
        for (const mode of round % 2 ? [...MODES].reverse() : MODES) {
          const requestsBefore = proxy.requests;
          const r = await ask(target, { type: "spends", route: chain === "proxy" ? "proxy" : "direct", mode, chain }, "spends");
          // JSON-RPC requests (HTTP requests; ethers may put several calls in one) the burst made through the proxy.
          const rpcRequests = chain === "proxy" ? proxy.requests - requestsBefore : undefined;
          const row = {
            per_s: +((r.spends - r.pending) / r.seconds).toFixed(1), // landed spends only
            p50_ms: Math.round(percentile(r.latencies, 50)),
            p99_ms: Math.round(percentile(r.latencies, 99)),
            pending: r.pending,
            transactions: r.transactions.length,
            largest_batch: Math.max(...r.transactions.map((t) => t.spends)),
            gas_per_spend: Math.round(r.transactions.reduce((a, t) => a + t.gasUsed, 0) / Math.max(1, r.spends - r.pending)),
            cpu_ms_per_spend: +(r.cpu_ms / r.spends).toFixed(1),
            rpc_requests: rpcRequests,
            latencies: r.latencies,
          };
          const byMode = spendRuns[chainName[chain]] ?? {};
          spendRuns[chainName[chain]] = byMode;
          byMode[mode] = [...(byMode[mode] ?? []), row];
          console.error(
            `  round ${round + 1} spends ${chainName[chain]} ${mode}: ${r.spends - r.pending} landed in ${r.seconds.toFixed(2)} s = ${row.per_s}/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, ${row.transactions} tx (largest ${row.largest_batch}), ${row.gas_per_spend} gas/spend, ${row.cpu_ms_per_spend} ms CPU/spend${rpcRequests === undefined ? "" : `, ${rpcRequests} RPC requests`}${r.pending ? `, ${r.pending} answered pending` : ""}`,
          );
        }
      }
    }
    if (wantOps) {
      for (const mode of round % 2 ? [...MODES].reverse() : MODES) {
        const r = await ask(target, { type: "ops", mode }, "ops");
        opsRuns[mode].push({
          per_s: +(r.ops / r.seconds).toFixed(1),
          handleOps: r.handleOps,
          cpu_ms_per_op: +(r.cpu_ms / r.ops).toFixed(1),
          cpu_share: +(r.cpu_ms / 1000 / r.seconds).toFixed(2),
          cpu_system_ms_per_op: +(r.cpu_system_ms / r.ops).toFixed(1),
          threads_ms_per_op: Object.fromEntries(Object.entries(r.threads_ms).map(([thread, ms]) => [thread, +(ms / r.ops).toFixed(1)])),
        });
        if (r.queries) {
          console.error(
            `  round ${round + 1} ops ${mode}: ${r.queries.total} database statements (${(r.queries.total / r.ops).toFixed(1)} per op), most frequent:`,
          );
          for (const [sql, n] of r.queries.top) console.error(`    ${String(n).padStart(5)}  ${sql}`);
        }
        console.error(
          `  round ${round + 1} ops ${mode}: ${r.ops} ops in ${r.seconds.toFixed(2)} s = ${(r.ops / r.seconds).toFixed(1)} ops/s, ${r.handleOps} handleOps, ${(r.cpu_ms / r.ops).toFixed(1)} ms CPU/op (${((100 * r.cpu_ms) / 1000 / r.seconds).toFixed(0)} % of a core; per op by thread: ${Object.entries(
            r.threads_ms,
          )
            .filter(([, ms]) => ms > 0)
            .map(([thread, ms]) => `${thread} ${(ms / r.ops).toFixed(1)}`)
            .join(", ")} ms; system ${(r.cpu_system_ms / r.ops).toFixed(1)} ms)`,
        );
      }
      const p = await ask(target, { type: "pbkdf2", seconds: PBKDF2_SECONDS }, "pbkdf2");
      pbkdf2Runs.push({
        per_s: +(p.derivations / p.seconds).toFixed(1),
        at_once: p.atOnce,
        cores: p.cores,
        cpu_ms_per_derivation: +(p.cpu_ms / p.derivations).toFixed(1),
        cpu_share: +(p.cpu_ms / 1000 / p.seconds).toFixed(2),
      });
      console.error(
        `  round ${round + 1} pbkdf2 ceiling: ${(p.derivations / p.seconds).toFixed(1)} derivations/s (${p.atOnce} at once, ${p.cores} core(s)), ${(p.cpu_ms / p.derivations).toFixed(1)} ms CPU each (${((100 * p.cpu_ms) / 1000 / p.seconds).toFixed(0)} % of a core)`,
      );
    }
  }
  if (wantSpends) {
    gas = await ask(target, { type: "gas" }, "gas");
    console.error(
      `[chain bench] gas: increase_used_batch of ${gas.batchSize} = ${gas.batch} (${Math.round(gas.batch / gas.batchSize)} per spend), increase_used = ${gas.single}`,
    );
  }
  targetInfo.proxy_requests = proxy.requests;
  await stop(target);
  await proxy.close();
}

// ---------------------------------------------------------------- HTTP: PIN verify and validate
const pinVerify = {};
const validate = { validate: [], "validate+pin": [] };
if (PHASES.includes("http")) {
  const server = await start("server-target.mjs");
  const base = server.info.url;
  const { signUpPlayer } = await import("@slotgate/server/testing");
  console.error(`[chain bench] server on ${base}`);

  async function json(method, path, { body, headers = {} } = {}) {
    const res = await fetch(base + path, {
      method,
      redirect: "manual",
      headers: {
        ...(body === undefined ? {} : { "content-type": typeof body === "string" ? "application/x-www-form-urlencoded" : "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text.startsWith("{") ? JSON.parse(text) : {} };
  }

  const dev = await json("POST", "/v1/dev-user/signup", {
    body: { email: `bench-${randomBytes(4).toString("hex")}@example.test`, password: "bench-password-1" },
  });
  const redirect = "https://bench.example/cb";
  const client = (
    await json("POST", "/v1/dev-user/clients", {
      headers: { authorization: `Bearer ${dev.json.token}` },
      body: {
        name: "Bench",
        redirect_uris: [redirect],
        download_url: "https://bench.example/d",
        web_url: "https://bench.example/",
        platform: "web",
        blockchain: true,
      },
    })
  ).json;

  async function newUser() {
    const player = {
      client_id: client.client_id,
      redirect_uri: redirect,
      state: "s",
      email: `u-${randomBytes(5).toString("hex")}@example.test`,
      password: "user-password-1",
    };
    const res = await signUpPlayer(base, server.info.dataDir, player);
    const code = new URL(res.headers.get("location")).searchParams.get("code");
    const token = await json("POST", "/oauth/token", {
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirect,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }).toString(),
    });
    const salt = randomBytes(32).toString("hex");
    const pin = { pin_hash: createHash("sha256").update(`2580${salt}`).digest("hex"), pin_salt: salt };
    const uuid = Number(token.json.user_id);
    const reg = await json("POST", "/v1/pin/register", { headers: { authorization: `Bearer ${token.json.access_token}` }, body: { user_uuid: uuid, ...pin } });
    return { token: token.json.access_token, body: { user_uuid: uuid, ...pin, key_share_user: reg.json.data[0].key_share_user } };
  }

  const users = [];
  for (let i = 0; i < Math.max(PIN_LOOPS, 1); i++) users.push(await newUser());
  const verify = (u) => json("POST", "/v1/pin/verify", { headers: { authorization: `Bearer ${u.token}` }, body: u.body });

  // PIN verify latency, one at a time.
  for (let i = 0; i < 10; i++) await verify(users[0]);
  const latencies = [];
  for (let i = 0; i < PIN_SAMPLES; i++) {
    const t = performance.now();
    const r = await verify(users[0]);
    if (r.status !== 200) throw new Error(`pin verify answered ${r.status}`);
    latencies.push(performance.now() - t);
  }
  Object.assign(pinVerify, { p50_ms: +percentile(latencies, 50).toFixed(1), p99_ms: +percentile(latencies, 99).toFixed(1), samples: PIN_SAMPLES });
  console.error(`[chain bench] PIN verify latency: p50 ${pinVerify.p50_ms} ms, p99 ${pinVerify.p99_ms} ms`);

  // validate alone and under PIN verification load.
  function cannon(duration) {
    return new Promise((resolve, reject) => {
      autocannon({ url: `${base}/v1/oauth/validate`, connections: 50, duration, headers: { authorization: `Bearer ${users[0].token}` } }, (err, result) =>
        err ? reject(err) : resolve(result),
      );
    });
  }
  async function pinLoad(untilRef) {
    let count = 0;
    await Promise.all(
      users.slice(0, PIN_LOOPS).map(async (u) => {
        while (!untilRef.stop) {
          const r = await verify(u);
          if (r.status !== 200) throw new Error(`pin verify answered ${r.status}`);
          count++;
        }
      }),
    );
    return count;
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ["validate", "validate+pin"]) {
      await cannon(WARMUP);
      const ref = { stop: false };
      const load = mode === "validate+pin" ? pinLoad(ref) : Promise.resolve(0);
      const result = await cannon(DURATION);
      ref.stop = true;
      const pins = await load;
      const row = {
        rps: Math.round(result.requests.average),
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        non2xx: result.non2xx,
        pin_verifies_per_s: +(pins / DURATION).toFixed(1),
      };
      validate[mode].push(row);
      console.error(
        `  round ${round + 1} ${mode}: ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms${mode === "validate+pin" ? `, ${row.pin_verifies_per_s} PIN verifies/s` : ""}`,
      );
    }
  }
  await stop(server.child);
}

const ratio = (a, b) => +(a / b).toFixed(2);
const spendSummary = Object.fromEntries(
  Object.entries(spendRuns).map(([chain, modes]) => [
    chain,
    Object.fromEntries(
      Object.entries(modes).map(([mode, rows]) => {
        const pooled = rows.flatMap((r) => r.latencies);
        return [
          mode,
          {
            per_s: summary(rows.map((r) => r.per_s)),
            p50_ms: summary(rows.map((r) => r.p50_ms)),
            p99_ms: summary(rows.map((r) => r.p99_ms)),
            pooled_p50_ms: Math.round(percentile(pooled, 50)),
            pooled_p99_ms: Math.round(percentile(pooled, 99)),
            samples: pooled.length,
            transactions_per_round: rows.map((r) => r.transactions),
            largest_batch_per_round: rows.map((r) => r.largest_batch),
            gas_per_spend_per_round: rows.map((r) => r.gas_per_spend),
            cpu_ms_per_spend: summary(rows.map((r) => r.cpu_ms_per_spend)),
            ...(rows[0].rpc_requests === undefined ? {} : { rpc_requests_per_round: rows.map((r) => r.rpc_requests) }),
            answered_pending: rows.reduce((a, r) => a + r.pending, 0),
          },
        ];
      }),
    ),
  ]),
);
// Per round, batched / single from the same round, then the median of those ratios.
const perRoundRatio = (chain) => {
  const m = spendRuns[chain];
  if (!m?.batched || !m?.single) return null;
  return summary(m.batched.map((r, i) => ratio(r.per_s, m.single[i].per_s)));
};
const spendRatio = Object.fromEntries(Object.keys(spendRuns).map((chain) => [chain, perRoundRatio(chain)]));
const ceiling = pbkdf2Runs.length ? summary(pbkdf2Runs.map((r) => r.per_s)) : null;
const opsRatio = pbkdf2Runs.length ? summary(opsRuns.batched.map((r, i) => ratio(r.per_s, pbkdf2Runs[i].per_s))) : null;
const blockP99 = spendSummary[`block-time-${BLOCK_TIME}s`]?.batched?.pooled_p99_ms;
const SINGLE_TODAY = 42322;
const targets = {
  batched_vs_single_through_proxy: { want: ">= 10", got: spendRatio[`proxy-${PROXY_DELAY}ms`]?.median ?? null },
  batched_vs_single_plain_anvil: { want: ">= 1", got: spendRatio.automine?.median ?? null },
  gas_per_spend_batch_of_50: {
    want: `<= ${Math.floor(SINGLE_TODAY / 3)} (1/3 of ${SINGLE_TODAY})`,
    got: gas?.batchSize === 50 ? Math.round(gas.batch / 50) : null,
  },
  spend_p99_block_time: { want: `< ${2 * BLOCK_TIME * 1000} ms (2 blocks)`, got: blockP99 ?? null },
  sponsored_ops_vs_pbkdf2_ceiling: { want: ">= 0.9", got: opsRatio?.median ?? null },
};
targets.batched_vs_single_through_proxy.met = targets.batched_vs_single_through_proxy.got !== null && targets.batched_vs_single_through_proxy.got >= 10;
targets.batched_vs_single_plain_anvil.met = targets.batched_vs_single_plain_anvil.got !== null && targets.batched_vs_single_plain_anvil.got >= 1;
targets.gas_per_spend_batch_of_50.met = targets.gas_per_spend_batch_of_50.got !== null && targets.gas_per_spend_batch_of_50.got <= SINGLE_TODAY / 3;
targets.spend_p99_block_time.met = blockP99 !== undefined && blockP99 < 2 * BLOCK_TIME * 1000;
targets.sponsored_ops_vs_pbkdf2_ceiling.met = targets.sponsored_ops_vs_pbkdf2_ceiling.got !== null && targets.sponsored_ops_vs_pbkdf2_ceiling.got >= 0.9;

const results = {
  date: new Date().toISOString(),
  node: process.version,
  command: `node bench/chain/run.mjs ${process.argv.slice(2).join(" ")}`.trim(),
  machine: {
    load_average_at_start: loadAtStart.map((x) => +x.toFixed(2)),
    load_average_at_end: loadavg().map((x) => +x.toFixed(2)),
    run_s: Math.round((Date.now() - startedAt) / 1000),
    ...targetInfo,
  },
  rounds: ROUNDS,
  users: USERS,
  db: DB,
  block_time_s: BLOCK_TIME,
  proxy_delay_ms: PROXY_DELAY,
  targets,
  spends: spendSummary,
  spends_batched_over_single: spendRatio,
  gas: gas && {
    batch_size: gas.batchSize,
    increase_used_batch: gas.batch,
    per_spend_in_batch: Math.round(gas.batch / gas.batchSize),
    increase_used: gas.single,
    per_spend_ratio_to_single: ratio(gas.batch / gas.batchSize, gas.single),
    today_increase_used: SINGLE_TODAY,
  },
  sponsored_ops_per_s: Object.fromEntries(
    Object.entries(opsRuns)
      .filter(([, rows]) => rows.length)
      .map(([mode, rows]) => [
        mode,
        {
          ...summary(rows.map((r) => r.per_s)),
          handleOps_per_round: rows.map((r) => r.handleOps),
          cpu_ms_per_op: summary(rows.map((r) => r.cpu_ms_per_op)),
          cpu_share_of_core: summary(rows.map((r) => r.cpu_share)),
          cpu_system_ms_per_op: summary(rows.map((r) => r.cpu_system_ms_per_op)),
          threads_ms_per_op: rows.map((r) => r.threads_ms_per_op),
        },
      ]),
  ),
  pbkdf2_ceiling_per_s: ceiling && {
    ...ceiling,
    at_once: pbkdf2Runs[0].at_once,
    cores: pbkdf2Runs[0].cores,
    cpu_ms_per_derivation: summary(pbkdf2Runs.map((r) => r.cpu_ms_per_derivation)),
    cpu_share_of_core: summary(pbkdf2Runs.map((r) => r.cpu_share)),
  },
  sponsored_ops_over_pbkdf2_ceiling: opsRatio,
  ...(PHASES.includes("http")
    ? {
        pin_verify_latency: pinVerify,
        validate: Object.fromEntries(
          Object.entries(validate).map(([mode, rows]) => [
            mode,
            {
              rps: summary(rows.map((r) => r.rps)),
              p99_ms: summary(rows.map((r) => r.p99_ms)),
              p50_ms: summary(rows.map((r) => r.p50_ms)),
              pin_verifies_per_s: summary(rows.map((r) => r.pin_verifies_per_s)),
              non2xx: rows.reduce((a, r) => a + r.non2xx, 0),
            },
          ]),
        ),
      }
    : {}),
};
writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify({ targets, spends_batched_over_single: spendRatio, gas: results.gas, sponsored_ops_over_pbkdf2_ceiling: opsRatio }, null, 2));
