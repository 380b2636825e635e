// Chain benchmark of the Slotgate server: one command, every mode interleaved in rounds.
//
//   node bench/chain/run.mjs [--rounds 5] [--duration 5] [--users 48] [--pin-loops 8] [--phases ops,http] [--out bench/chain/results.json]
//
// Targets run pinned to core 1 (taskset -c 1); this process and autocannon on core 0. Needs the dist builds
// (npx turbo run build --filter=@slotgate/server...). Measures:
//   ops-batched / ops-unbatched   sponsored UserOperations per second through ChainService.verifyPin
//                                 (PIN unlock, paymaster + owner signatures, built-in bundler), `users`
//                                 wallets at once; batched = up to 24 ops per handleOps, unbatched = 1
//   pin-verify                    POST /v1/pin/verify latency over HTTP, one request at a time
//   validate / validate+pin       GET /v1/oauth/validate (autocannon, 50 connections) alone, and while
//                                 `pin-loops` clients run PIN verifications against the same server
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    users: { type: "string", default: "48" },
    "pin-loops": { type: "string", default: "8" },
    "pin-samples": { type: "string", default: "100" },
    phases: { type: "string", default: "ops,http" },
    out: { type: "string", default: join(here, "results.json") },
  },
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const USERS = Number(values.users);
const PIN_LOOPS = Number(values["pin-loops"]);
const PIN_SAMPLES = Number(values["pin-samples"]);
const PHASES = values.phases.split(",");

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

// ---------------------------------------------------------------- sponsored operations
const opsRuns = { "ops-batched": [], "ops-unbatched": [] };
const handleOps = { "ops-batched": [], "ops-unbatched": [] };
if (PHASES.includes("ops")) {
  console.error(`[chain bench] sponsored operations: ${USERS} wallets, ${ROUNDS} rounds per mode`);
  const ops = await start("ops-target.mjs", String(USERS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ["batched", "unbatched"]) {
      const r = await ask(ops.child, { type: "round", mode, round }, "round");
      opsRuns[`ops-${mode}`].push(Math.round(r.ops / r.seconds));
      handleOps[`ops-${mode}`].push(r.handleOps);
      console.error(`  round ${round + 1} ${mode}: ${r.ops} ops in ${r.seconds.toFixed(2)} s = ${Math.round(r.ops / r.seconds)} ops/s, ${r.handleOps} handleOps`);
    }
  }
  await stop(ops.child);
}

// ---------------------------------------------------------------- HTTP: PIN verify and validate
const pinVerify = {};
const validate = { validate: [], "validate+pin": [] };
if (PHASES.includes("http")) {
  const server = await start("server-target.mjs");
  const base = server.info.url;
  console.error(`[chain bench] server on ${base}`);

  async function json(method, path, { body, headers = {} } = {}) {
    const res = await fetch(base + path, {
      method,
      redirect: "manual",
      headers: { ...(body === undefined ? {} : { "content-type": typeof body === "string" ? "application/x-www-form-urlencoded" : "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text.startsWith("{") ? JSON.parse(text) : {} };
  }

  const dev = await json("POST", "/v1/dev-user/signup", { body: { email: `bench-${randomBytes(4).toString("hex")}@example.test`, password: "bench-password-1" } });
  const redirect = "https://bench.example/cb";
  const client = (
    await json("POST", "/v1/dev-user/clients", {
      headers: { authorization: `Bearer ${dev.json.token}` },
      body: { name: "Bench", redirect_uris: [redirect], download_url: "https://bench.example/d", web_url: "https://bench.example/", platform: "web", blockchain: true },
    })
  ).json;

  async function newUser() {
    const params = new URLSearchParams({ client_id: client.client_id, redirect_uri: redirect, response_type: "code", state: "s" });
    const page = await fetch(`${base}/oauth/authorize?${params}`, { headers: { accept: "text/html" } });
    const html = await page.text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)[1];
    const cookie = page.headers.get("set-cookie").split(";")[0];
    const form = new URLSearchParams({ ...Object.fromEntries(params), csrf_token: csrf, email: `u-${randomBytes(5).toString("hex")}@example.test`, password: "user-password-1", intent: "signup", decision: "approve" });
    const res = await fetch(`${base}/oauth/authorize`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: form });
    const code = new URL(res.headers.get("location")).searchParams.get("code");
    const token = await json("POST", "/oauth/token", { body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirect, client_id: client.client_id, client_secret: client.client_secret }).toString() });
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
      autocannon(
        { url: `${base}/v1/oauth/validate`, connections: 50, duration, headers: { authorization: `Bearer ${users[0].token}` } },
        (err, result) => (err ? reject(err) : resolve(result)),
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
      const row = { rps: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99, non2xx: result.non2xx, pin_verifies_per_s: +(pins / DURATION).toFixed(1) };
      validate[mode].push(row);
      console.error(`  round ${round + 1} ${mode}: ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms${mode === "validate+pin" ? `, ${row.pin_verifies_per_s} PIN verifies/s` : ""}`);
    }
  }
  await stop(server.child);
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  rounds: ROUNDS,
  users: USERS,
  sponsored_ops_per_s: {
    batched: { ...summary(opsRuns["ops-batched"]), handleOps_per_round: handleOps["ops-batched"] },
    unbatched: { ...summary(opsRuns["ops-unbatched"]), handleOps_per_round: handleOps["ops-unbatched"] },
  },
  pin_verify_latency: pinVerify,
  validate: Object.fromEntries(
    Object.entries(validate).map(([mode, rows]) => [
      mode,
      { rps: summary(rows.map((r) => r.rps)), p99_ms: summary(rows.map((r) => r.p99_ms)), p50_ms: summary(rows.map((r) => r.p50_ms)), pin_verifies_per_s: summary(rows.map((r) => r.pin_verifies_per_s)), non2xx: rows.reduce((a, r) => a + r.non2xx, 0) },
    ]),
  ),
};
writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
