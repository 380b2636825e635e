// Child process of pin-flood.mjs: the real Slotgate server (built package) with its development chain
// (CHAIN=anvil) on PostgreSQL (a schema of its own, dropped at the end) or the embedded PGlite, default
// brute-force limits, TRUST_PROXY=1 so that each flood
// client speaks from its own address (X-Forwarded-For). Prepares one end user for the validate probe and
// `targets` end users with a registered PIN (a wallet) for the flood; answers IPC questions about locks.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, startServer } from "@slotgate/server";

const targets = Number(process.argv[2] ?? "20") * Number(process.argv[3] ?? "1"); // clients x rounds
const kind = process.argv[4] ?? "postgres"; // "postgres" | "pglite"
const schema = `sg_pin_flood_${randomBytes(4).toString("hex")}`;
const dataDir = mkdtempSync(join(tmpdir(), "slotgate-pin-flood-"));
const env = {
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "error",
  SLOTGATE_SEED_DEMO: "off",
  CHAIN: "anvil",
  ANVIL_PORT: "0",
  SLOTGATE_DATA_DIR: dataDir,
  TRUST_PROXY: "1",
  RATE_LIMIT: "on",
  ...(kind === "postgres" ? { DATABASE_URL: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test" } : {}),
};
const running = await startServer(loadConfig(env), kind === "postgres" ? { schema } : {});
const base = running.url;
const { db, tokens } = running.slotgate.services;

async function json(method, path, body, headers = {}) {
  const res = await fetch(base + path, { method, headers: { "content-type": "application/json", ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
}

const dev = (await json("POST", "/v1/dev-user/signup", { email: `bench-${randomBytes(4).toString("hex")}@example.test`, password: "bench-password-1" })).body;
const client = (
  await json(
    "POST",
    "/v1/dev-user/clients",
    {
      name: "pin flood",
      redirect_uris: ["https://bench.example/cb"],
      download_url: "https://bench.example/dl",
      web_url: "https://bench.example/",
      platform: "web",
      blockchain: true,
    },
    { authorization: `Bearer ${dev.token}` },
  )
).body;

// End users straight in the database (the sign-in page is scrypt-bound and not what is measured), each
// with an access token signed by the server's key.
const tag = randomBytes(4).toString("hex");
const rows = await db.query(
  "INSERT INTO end_users (email, password_hash, nickname) SELECT 'flood-' || g || '-' || $1 || '@example.test', 'unusable', 'bench' FROM generate_series(1, $2::int) AS g RETURNING id::text AS id",
  [tag, targets + 1],
);
const users = await Promise.all(
  rows.map(async (r) => ({
    uuid: Number(r.id),
    token: await tokens.signAccessToken(r.id, client.client_id, `flood-${tag}-${r.id}`, new Date(Date.now() + 3_600_000)),
  })),
);
const [probe, ...flooded] = users;

// Each flooded user registers a PIN (a wallet with its key split), two at a time, from its own address.
const pinOf = (pin) => {
  const salt = randomBytes(32).toString("hex");
  return {
    pin_hash: createHash("sha256")
      .update(pin + salt)
      .digest("hex"),
    pin_salt: salt,
  };
};
const shares = new Map();
for (let i = 0; i < flooded.length; i += 2) {
  await Promise.all(
    flooded.slice(i, i + 2).map(async (u, j) => {
      const pin = pinOf("246810");
      const res = await json(
        "POST",
        "/v1/pin/register",
        { user_uuid: u.uuid, ...pin },
        { authorization: `Bearer ${u.token}`, "x-forwarded-for": `10.200.0.${i + j + 1}` },
      );
      if (res.status !== 200) throw new Error(`register ${u.uuid}: ${res.status} ${JSON.stringify(res.body)}`);
      shares.set(u.uuid, { ...pin, key_share_user: res.body.data[0].key_share_user });
    }),
  );
}

// Experiment (--renice-workers): every thread of this process but the main one (libuv's pool, where the
// PBKDF2 derivations run, and V8's helpers) at nice 15, so the event loop wins the CPU from derivations.
// Linux only: a thread id given to setpriority(PRIO_PROCESS) changes that thread alone.
if (process.env.SLOTGATE_BENCH_RENICE_WORKERS === "1") {
  const { readdirSync } = await import("node:fs");
  const { setPriority } = await import("node:os");
  for (const tid of readdirSync("/proc/self/task").map(Number)) if (tid !== process.pid) setPriority(tid, 15);
}
process.on("message", async (msg) => {
  if (msg.type === "locks") {
    const locked = await db.query("SELECT user_uuid::int AS user_uuid, failures FROM cs_pin_attempts WHERE locked_until > now()");
    process.send({ type: "locks", locked });
  }
  if (msg.type === "stop") {
    if (kind === "postgres") await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
process.send({
  type: "ready",
  url: base,
  probe,
  flooded: flooded.map((u) => ({ ...u, ...shares.get(u.uuid) })),
});
