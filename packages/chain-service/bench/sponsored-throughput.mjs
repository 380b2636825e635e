// Throughput of sponsored UserOperations on the in-process chain: built-in bundler batching
// (up to 24 operations per handleOps) against one operation per handleOps, in interleaved rounds.
// PBKDF2 runs with 1,000 iterations here so the figure is the bundler's, not the PIN derivation's
// (100,000 iterations cost about 25 ms of one core per operation on these machines).
// Run: cd packages/chain-service && npx tsup && node bench/sponsored-throughput.mjs
import { createHash, randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { createChainService, fromPGlite } from "../dist/index.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WALLETS = 4;
const OPS_PER_WALLET = 10;
const db = fromPGlite(new PGlite());

async function mode(maxBatchSize) {
  const service = await createChainService({
    db,
    keyEncryptionKey: randomBytes(32),
    bundler: { kind: "built-in", maxBatchSize, batchIntervalMs: 10 },
    pinPbkdf2Iterations: 1000,
    warn: () => undefined,
  });
  const users = [];
  for (let i = 0; i < WALLETS; i++) {
    const id = Math.floor(Math.random() * 1e12) + 1;
    const salt = randomBytes(32).toString("hex");
    const pin = { pin_hash: createHash("sha256").update(`1234${salt}`).digest("hex"), pin_salt: salt };
    const reg = (await service.registerPin({ user_uuid: id, ...pin })).data[0];
    await service.fundWallet({ user_uuid: id, xotn: "1000000", wallet: "user" });
    users.push({ id, pin, reg });
  }
  const round = async () => {
    const to = `0x${randomBytes(20).toString("hex")}`;
    const started = performance.now();
    await Promise.all(
      users.flatMap((u) =>
        Array.from({ length: OPS_PER_WALLET }, () =>
          service.verifyPin({
            user_uuid: u.id,
            ...u.pin,
            key_share_user: u.reg.key_share_user,
            operation: { kind: "erc20_transfer", from_address: u.reg.address, to_address: to, amount: "1", contract_address: service.addresses.xotn },
          }),
        ),
      ),
    );
    return (WALLETS * OPS_PER_WALLET * 1000) / (performance.now() - started);
  };
  await round(); // warm-up, also deploys the wallets
  return { service, round };
}

const batched = await mode(24);
const single = await mode(1);
const results = { batched: [], single: [] };
for (let i = 0; i < ROUNDS; i++) {
  results.batched.push(await batched.round());
  results.single.push(await single.round());
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `median ${median(xs).toFixed(1)} ops/s (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;
console.log(`${WALLETS} wallets x ${OPS_PER_WALLET} concurrent operations per round, ${ROUNDS} interleaved rounds`);
console.log(`batched (<=24 per handleOps): ${fmt(results.batched)}`);
console.log(`one per handleOps:            ${fmt(results.single)}`);
console.log(`ratio batched / single: ${(median(results.batched) / median(results.single)).toFixed(2)}`);
await batched.service.close();
await single.service.close();
