// Child process of bench/chain/run.mjs, pinned to core 1: chain services on ONE Anvil development chain.
// Anvil itself is moved to core 0 (with the runner and the JSON-RPC proxy: the chain node stands for
// another machine), so core 1 is the service's alone. The mining mode is switched per burst on the same
// node (`evm_setAutomine`, `evm_setIntervalMining`): automine, or a block every `blockTime` seconds.
//
//   argv: users blockTimeSeconds db phases
//     db       pglite (default): each service its own in-memory PGlite database, in this process and core;
//              postgres: each service its own schema (dropped at the end) on DATABASE_URL or
//              postgres://postgres@127.0.0.1:5432/test, the server's processes off this core's process
//     phases   the runner's phases (comma-separated): without `spends`, the proxy services are not set up
//
// Four services, each with its own database (services on one database with one key would share that
// key's writer lease, and one planner would send every service's writes):
//   direct/batched   the defaults: spends in increase_used_batch (spendBatchLimit 50), bundler up to 24
//                    operations per handleOps
//   direct/single    one transaction per write: spendBatchLimit 1 (one increase_used per spend),
//                    bundler maxBatchSize 1
//   proxy/batched, proxy/single   the same through the runner's 50 ms JSON-RPC proxy (a remote node)
// Each service has `users` slot wallets (PIN registered, wallet deployed, content tokens bought).
//
// Messages (runner -> target, answered with the same type):
//   { type: "spends", route, mode, chain }   `users` encrypted spends at once through increaseUsed (one
//                                             per slot): latencies, distinct transactions, receipts' gas
//   { type: "ops", mode }                     `users` sponsored operations at once through verifyPin
//                                             (PIN unlock with PBKDF2, paymaster and owner signatures, bundle)
//   { type: "pbkdf2", seconds }               the PBKDF2 ceiling: share_pin derivations per second with the
//                                             service's parameters, as many at once as the service allows
//   { type: "gas" }                           one increase_used_batch of 50 slots and one increase_used,
//                                             sent directly with the spend-recorder key (receipts' gasUsed)
import { execFileSync } from "node:child_process";
import { createHash, pbkdf2, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { Contract, JsonRpcProvider, Wallet } from "ethers";
import { DEFAULT_PIN_PBKDF2_SALT, createChainService, startDevelopmentChain } from "@slotgate/chain-service";
import { LIMITS } from "@slotgate/protocol";
import { encryptHex } from "@slotgate/protocol/crypto";
import { openDatabase } from "@slotgate/storage";

const USERS = Number(process.argv[2] ?? 50);
const BLOCK_TIME = Number(process.argv[3] ?? 2);
const DB = process.argv[4] ?? "pglite";
if (DB !== "pglite" && DB !== "postgres") throw new Error("db must be pglite or postgres");
const ROUTES = (process.argv[5] ?? "spends,ops").split(",").includes("spends") ? ["direct", "proxy"] : ["direct"];
const DATABASE_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const schemaRun = randomBytes(4).toString("hex");
const stateDir = mkdtempSync(join(tmpdir(), "slotgate-bench-anvil-"));
const dev = await startDevelopmentChain({ stateDir, port: 0 });
try {
  execFileSync("taskset", ["-a", "-p", "-c", "0", String(dev.anvil.pid)], { stdio: "ignore" });
} catch {
  console.error("[ops-target] could not move anvil to core 0: it shares core 1 with the service");
}
const node = new JsonRpcProvider(dev.anvil.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });

// The runner answers with its proxy's URL (the proxy forwards to this Anvil).
const proxyUrl = await new Promise((resolve) => {
  const on = (msg) => {
    if (msg.type === "proxy") {
      process.off("message", on);
      resolve(msg.url);
    }
  };
  process.on("message", on);
  process.send({ type: "anvil", rpcUrl: dev.anvil.rpcUrl });
});

// With BENCH_QUERY_STATS=1, each service's database counts its statements (by their first 90 characters):
// each ops burst answers how many it ran, and the most frequent (the runner prints them).
const queryStats = process.env.BENCH_QUERY_STATS === "1" ? new Map() : undefined;
function counted(db) {
  if (queryStats === undefined) return db;
  const on = (q) => ({
    query(sql, params) {
      const key = sql.replace(/\s+/g, " ").trim().slice(0, 90);
      queryStats.set(key, (queryStats.get(key) ?? 0) + 1);
      return q.query(sql, params);
    },
  });
  return { kind: db.kind, ...on(db), transaction: (fn) => db.transaction((tx) => fn(on(tx))), close: () => db.close() };
}

const keys = { keyEncryptionKey: randomBytes(32).toString("hex"), recoveryKey: randomBytes(32).toString("hex") };
const MODES = {
  batched: { bundler: { kind: "built-in" } },
  single: { bundler: { kind: "built-in", maxBatchSize: 1 }, spendBatchLimit: 1 },
};
/** route -> mode -> { service, db, client, cuid, spendKey, users } */
const targets = { direct: {}, proxy: {} };
let nextUser = 1;

async function setUp(route, mode) {
  const schema = `sg_bench_chain_${schemaRun}_${route}_${mode}`;
  const db = counted(DB === "postgres" ? await openDatabase({ databaseUrl: DATABASE_URL, schema }) : await openDatabase({}));
  const chain = route === "proxy" ? { ...dev.chain, rpcUrl: proxyUrl } : dev.chain;
  // writeWaitMs: a spend answers when it landed (not `pending` after the default 30 s), so every latency is a landing.
  const service = await createChainService({ db, ...keys, chain, ...MODES[mode], writeWaitMs: 180_000, warn: () => undefined });
  const client = `sg_bench_${route}_${mode}`;
  const cuid = `bench-${route}-${mode}`;
  const registered = await service.initPermissionProvider({ client_id: client, cuid, release_per: 50, owner_addr: `0x${"77".repeat(20)}` });
  const users = [];
  const one = async () => {
    const salt = randomBytes(32).toString("hex");
    const pin = { pin_hash: createHash("sha256").update(`1234${salt}`).digest("hex"), pin_salt: salt };
    const user_uuid = nextUser++;
    const { data } = await service.registerPin({ user_uuid, ...pin });
    const credentials = { user_uuid, ...pin, key_share_user: data[0].key_share_user };
    // The first operation deploys the slot wallet and consents to purchases for the cuid.
    await service.verifyPin({ ...credentials, operation: { kind: "approve_purchases", cuid, amount: "1000000000" } });
    await service.fundWallet({ user_uuid, xotn: "1000000" });
    await service.buyContentToken({ client_id: client, user_dbkey: String(user_uuid), amount: "100000", cuid });
    users.push({ credentials, slot: await service.contentAddressFor(user_uuid) });
  };
  for (let i = 0; i < USERS; i += 10) await Promise.all(Array.from({ length: Math.min(10, USERS - i) }, one));
  targets[route][mode] = {
    service,
    db,
    schema: DB === "postgres" ? schema : undefined,
    client,
    cuid,
    spendKey: { key: registered.aes_key, iv: registered.aes_iv },
    users,
  };
}
for (const route of ROUTES) for (const mode of ["batched", "single"]) await setUp(route, mode);

async function mining(chain) {
  if (chain === "block-time") {
    await node.send("evm_setAutomine", [false]);
    await node.send("evm_setIntervalMining", [BLOCK_TIME]);
  } else {
    await node.send("evm_setIntervalMining", [0]);
    await node.send("evm_setAutomine", [true]);
  }
}

let round = 0;
async function spends({ route, mode, chain }) {
  await mining(chain);
  const t = targets[route][mode];
  round += 1;
  const latencies = [];
  const hashes = [];
  let pending = 0;
  const started = performance.now();
  await Promise.all(
    t.users.map(async (u) => {
      const message = encryptHex(
        JSON.stringify({ client_id: t.client, user_dbkey: String(u.credentials.user_uuid), amount: "1", cuid: t.cuid }),
        t.spendKey.key,
        t.spendKey.iv,
      );
      const s = performance.now();
      const answer = await t.service.increaseUsed(t.client, { encrypted_message: message });
      latencies.push(performance.now() - s);
      if (answer.tx_hash) hashes.push(answer.tx_hash);
      else pending += 1;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // Transactions and their gas (receipts read from Anvil directly, after the timing).
  const sizes = new Map();
  for (const h of hashes) sizes.set(h, (sizes.get(h) ?? 0) + 1);
  const transactions = [];
  for (const [hash, spendsInTx] of sizes) {
    const receipt = await node.getTransactionReceipt(hash);
    transactions.push({ spends: spendsInTx, gasUsed: Number(receipt.gasUsed), block: receipt.blockNumber });
  }
  return { spends: latencies.length, pending, seconds, latencies, transactions };
}

async function ops({ mode }) {
  await mining("automine");
  const t = targets.direct[mode];
  round += 1;
  queryStats?.clear();
  const started = performance.now();
  const results = await Promise.all(
    t.users.map(({ credentials }, i) =>
      t.service.verifyPin({ ...credentials, operation: { kind: "approve_purchases", cuid: t.cuid, amount: String(1000 + round * 100 + i) } }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const queries = queryStats && {
    total: [...queryStats.values()].reduce((a, b) => a + b, 0),
    top: [...queryStats].sort((a, b) => b[1] - a[1]).slice(0, 25),
  };
  return { ops: results.length, seconds, handleOps: new Set(results.map((r) => r.tx_hash)).size, ...(queries ? { queries } : {}) };
}

// The service runs at most max(1, cores - 1) derivations at once (src/keys/share-pin.ts); the ceiling
// is measured the same way, with the same parameters, on the cores this process is given.
const DERIVATIONS_AT_ONCE = Math.max(1, availableParallelism() - 1);
async function pbkdf2Ceiling({ seconds }) {
  const password = randomBytes(32);
  const derive = () =>
    new Promise((resolve, reject) =>
      pbkdf2(password, DEFAULT_PIN_PBKDF2_SALT, LIMITS.pbkdf2Iterations, LIMITS.keyShareBytes, LIMITS.pbkdf2Digest, (e, k) => (e ? reject(e) : resolve(k))),
    );
  let count = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: DERIVATIONS_AT_ONCE }, async () => {
      while (performance.now() < end) {
        await derive();
        count += 1;
      }
    }),
  );
  return { derivations: count, seconds: (performance.now() - started) / 1000, atOnce: DERIVATIONS_AT_ONCE, cores: availableParallelism() };
}

async function gas() {
  await mining("automine");
  const t = targets.direct.batched;
  const recorder = new Wallet(dev.deployment.spendRecorderKey, node);
  const exchange = new Contract(
    dev.deployment.addresses.exchange,
    ["function increase_used(address slot, string cuid, uint256 amount)", "function increase_used_batch(string cuid, address[] slots, uint256[] amounts)"],
    recorder,
  );
  const slots = t.users.slice(0, 50).map((u) => u.slot); // a full batch with --users 50 or more
  // Every slot has spent before (the rounds): the steady state, as today's 42,322 of a single increase_used.
  const batch = await (
    await exchange.increase_used_batch(
      t.cuid,
      slots,
      slots.map(() => 1n),
    )
  ).wait();
  const single = await (await exchange.increase_used(slots[0], t.cuid, 1n)).wait();
  return { batch: Number(batch.gasUsed), batchSize: slots.length, single: Number(single.gasUsed) };
}

process.send({ type: "ready" });
process.on("message", async (msg) => {
  try {
    await answer(msg);
  } catch (error) {
    console.error("[ops-target]", error);
    process.exit(1);
  }
});
// With BENCH_CPU_PROFILE=<dir>, each counted spends/ops burst is CPU-profiled (<dir>/<type>-<route>-<mode>-<chain>-<n>.cpuprofile).
const profileDir = process.env.BENCH_CPU_PROFILE;
const inspector = profileDir ? new Session() : undefined;
inspector?.connect();
const post = (method, params) => new Promise((resolve, reject) => inspector.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
let profiled = 0;
/**
 * CPU ticks (user + system) of this process's threads by thread name, from /proc (Linux; empty elsewhere):
 * the main thread is the process's own name, libuv's pool (PBKDF2) `libuv-worker`, V8's GC and compiler `V8 Worker`.
 */
function threadTicks() {
  const ticks = {};
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = tid === String(process.pid) ? "main" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      ticks[name] = (ticks[name] ?? 0) + Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    // not Linux: no per-thread figures
  }
  return ticks;
}

/** Runs `fn` and adds the process's CPU time (user + system, all threads: PBKDF2 runs on libuv's pool) to its answer, and per thread name. */
async function measured(name, fn) {
  if (inspector) {
    await post("Profiler.enable");
    await post("Profiler.start");
  }
  const ticksBefore = threadTicks();
  const cpu = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  const ticksAfter = threadTicks();
  // Clock ticks are 10 ms on Linux (USER_HZ 100).
  const threads_ms = Object.fromEntries(Object.entries(ticksAfter).map(([thread, t]) => [thread, (t - (ticksBefore[thread] ?? 0)) * 10]));
  if (inspector) {
    const { profile } = await post("Profiler.stop");
    writeFileSync(join(profileDir, `${name}-${++profiled}.cpuprofile`), JSON.stringify(profile));
  }
  return {
    ...result,
    cpu_ms: Math.round((used.user + used.system) / 1000),
    cpu_user_ms: Math.round(used.user / 1000),
    cpu_system_ms: Math.round(used.system / 1000),
    threads_ms,
  };
}
async function answer(msg) {
  const name = [msg.type, msg.route, msg.mode, msg.chain].filter(Boolean).join("-");
  if (msg.type === "spends") process.send({ type: "spends", ...(await measured(name, () => spends(msg))) });
  if (msg.type === "ops") process.send({ type: "ops", ...(await measured(name, () => ops(msg))) });
  if (msg.type === "pbkdf2") process.send({ type: "pbkdf2", ...(await measured(name, () => pbkdf2Ceiling(msg))) });
  if (msg.type === "gas") process.send({ type: "gas", ...(await gas()) });
  if (msg.type === "stop") {
    for (const route of Object.values(targets)) {
      for (const t of Object.values(route)) {
        await t.service.close();
        if (t.schema) await t.db.query(`DROP SCHEMA ${t.schema} CASCADE`).catch(() => undefined);
        await t.db.close();
      }
    }
    await dev.anvil.stop();
    rmSync(stateDir, { recursive: true, force: true });
    process.exit(0);
  }
}
