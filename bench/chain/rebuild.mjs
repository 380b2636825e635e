// Chain rebuild cost (docs/decisions/chain-rebuild.md): how fast a start-up rebuilds the writes a development chain
// lost, against how fast the same writes were sent the first time, in the same run.
//
//   node bench/chain/rebuild.mjs [--writes 30] [--rounds 3] [--out FILE]
//
// One Anvil node with a state directory, one in-memory PGlite database, the built @slotgate/chain-service (build
// first: npx turbo run build --filter=@slotgate/chain-service...). Each round: the node is stopped (its state is
// written) and that state file kept; `writes` purchases are answered one after another (baseline: first sends,
// writes per second); the node is stopped and started again from the kept file, so the chain lacks exactly those
// writes; a start of the chain service rebuilds them (its time minus the time of a start with nothing to rebuild,
// measured right after: rebuilt writes per second). The ratio rebuilt/first is the figure; both run on this machine
// in the same round.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { deploy } from "@slotgate/contracts";
import { createChainService, developmentKey, startAnvil } from "@slotgate/chain-service";
import { openDatabase } from "@slotgate/storage";
import { JsonRpcProvider, Wallet, parseEther } from "ethers";
import { resultsFile } from "../results-file.mjs";

const { values } = parseArgs({ options: { writes: { type: "string", default: "30" }, rounds: { type: "string", default: "3" }, out: { type: "string" } } });
const WRITES = Number(values.writes);
const ROUNDS = Number(values.rounds);
const loadAtStart = loadavg();
const stateDir = mkdtempSync(join(tmpdir(), "slotgate-rebuild-bench-"));
const stateFile = join(stateDir, "anvil-state.json");
const kept = join(stateDir, "kept-state.json");
const keys = { operatorKey: developmentKey(0), spendRecorderKey: developmentKey(3), paymasterSignerKey: developmentKey(1), bundlerKey: developmentKey(2) };
const secrets = { keyEncryptionKey: "11".repeat(32), recoveryKey: "22".repeat(32) };

let anvil = await startAnvil({ port: 0, stateDir });
const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1 });
const system = await deploy(new Wallet(keys.operatorKey, provider), {
  paymasterSigner: new Wallet(keys.paymasterSignerKey).address,
  spendRecorder: new Wallet(keys.spendRecorderKey).address,
  paymasterDeposit: parseEther("100"),
});
provider.destroy();
const { xotn, exchange, entryPoint, factory, paymaster } = system;
const db = await openDatabase({});
const warnings = [];
const start = async () => {
  const t0 = performance.now();
  const service = await createChainService({
    db,
    ...secrets,
    chain: { kind: "rpc", rpcUrl: anvil.rpcUrl, addresses: { xotn, exchange, entryPoint, factory, paymaster }, ...keys, development: true },
    warn: (w) => warnings.push(w),
  });
  return { service, ms: performance.now() - t0 };
};

const clientId = "sg_rebuild_bench";
const cuid = "rebuild-bench";
const user = 424242;
let { service } = await start();
await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: `0x${"ab".repeat(20)}` });
await service.devFundSlot({ user_uuid: user, xotn: String(WRITES * ROUNDS * 10), cuid, client_id: clientId });
await service.close();

const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  await anvil.stop(); // the node writes its state on a clean stop
  anvil = await startAnvil({ port: 0, stateDir });
  copyFileSync(stateFile, kept);
  ({ service } = await start());
  const t0 = performance.now();
  for (let i = 0; i < WRITES; i++) await service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid });
  const firstSeconds = (performance.now() - t0) / 1000;
  await service.close();

  // The chain loses exactly those writes.
  await anvil.stop();
  copyFileSync(kept, stateFile);
  anvil = await startAnvil({ port: 0, stateDir });
  warnings.length = 0;
  const rebuilding = await start();
  await rebuilding.service.close();
  const rebuilt = Number(
    /(\d+) kept transactions? sent again landed as they first did/.exec(warnings.find((w) => w.code === "chain_rebuilt")?.message ?? "")?.[1] ?? 0,
  );
  if (rebuilt !== WRITES || warnings.some((w) => w.code === "chain_behind_database"))
    throw new Error(`round ${round + 1}: expected ${WRITES} rebuilt writes, got ${JSON.stringify(warnings)}`);
  const quiet = await start();
  await quiet.service.close();
  const rebuildSeconds = (rebuilding.ms - quiet.ms) / 1000;
  const row = {
    first_per_s: +(WRITES / firstSeconds).toFixed(1),
    rebuilt_per_s: +(WRITES / rebuildSeconds).toFixed(1),
    ratio: +(firstSeconds / rebuildSeconds).toFixed(2),
    start_with_rebuild_ms: Math.round(rebuilding.ms),
    quiet_start_ms: Math.round(quiet.ms),
  };
  rounds.push(row);
  console.error(
    `round ${round + 1}: first sends ${row.first_per_s}/s, rebuilt ${row.rebuilt_per_s}/s (x${row.ratio}); start ${row.start_with_rebuild_ms} ms with the rebuild, ${row.quiet_start_ms} ms without`,
  );
}
await anvil.stop();
await db.close();
rmSync(stateDir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = {
  bench: "chain-rebuild",
  date: new Date().toISOString(),
  node: process.version,
  writes_per_round: WRITES,
  load_at_start: loadAtStart.map((x) => +x.toFixed(1)),
  load_at_end: loadavg().map((x) => +x.toFixed(1)),
  median: {
    first_per_s: median(rounds.map((r) => r.first_per_s)),
    rebuilt_per_s: median(rounds.map((r) => r.rebuilt_per_s)),
    ratio: median(rounds.map((r) => r.ratio)),
  },
  rounds,
};
const out = values.out ?? resultsFile("chain-rebuild");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result.median), `→ ${out}`);
