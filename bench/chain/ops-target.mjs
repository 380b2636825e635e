// Child process of bench/chain/run.mjs, pinned to core 1: two chain services on one in-process chain,
// one with the built-in bundler batching (up to 24 operations per handleOps, 10 ms window) and one
// without (one operation per handleOps). Each round: `users` distinct wallets each submit one sponsored
// UserOperation at once through verifyPin (PIN unlock, paymaster signature, owner signature, bundle).
import { createHash, randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { createChainService, fromPGlite } from "@slotgate/chain-service";

const USERS = Number(process.argv[2] ?? 48);
const services = {};
const users = {};
let nextUser = 1;
for (const [mode, bundler] of [
  ["batched", { kind: "built-in" }],
  ["unbatched", { kind: "built-in", maxBatchSize: 1 }],
]) {
  const service = await createChainService({ db: fromPGlite(new PGlite()), keyEncryptionKey: randomBytes(32).toString("hex"), bundler, warn: () => undefined });
  services[mode] = service;
  users[mode] = [];
  for (let i = 0; i < USERS; i++) {
    const salt = randomBytes(32).toString("hex");
    const pin = { pin_hash: createHash("sha256").update(`1234${salt}`).digest("hex"), pin_salt: salt };
    const user_uuid = nextUser++;
    const { data } = await service.registerPin({ user_uuid, ...pin });
    const credentials = { user_uuid, ...pin, key_share_user: data[0].key_share_user };
    // First operation deploys the slot wallet; keep deployment out of the timed rounds.
    await service.verifyPin({ ...credentials, operation: { kind: "approve_purchases", amount: "1" } });
    users[mode].push(credentials);
  }
}
process.send({ type: "ready" });
process.on("message", async (msg) => {
  if (msg.type === "round") {
    const service = services[msg.mode];
    const started = performance.now();
    const results = await Promise.all(users[msg.mode].map((c, i) => service.verifyPin({ ...c, operation: { kind: "approve_purchases", amount: String(1000 + msg.round * 100 + i) } })));
    const seconds = (performance.now() - started) / 1000;
    const txs = new Set(results.map((r) => r.tx_hash)).size;
    process.send({ type: "round", mode: msg.mode, ops: results.length, seconds, handleOps: txs });
  }
  if (msg.type === "stop") {
    for (const s of Object.values(services)) await s.close();
    process.exit(0);
  }
});
