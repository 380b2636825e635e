// Child process of bench/chain/run.mjs, pinned to core 1: the real Slotgate server (dist build) with the
// development chain (Anvil on a free port) on an embedded database in a temporary data directory.
// Reports its URL over IPC.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, startServer } from "@slotgate/server";

const dataDir = mkdtempSync(join(tmpdir(), "slotgate-bench-chain-"));
const config = loadConfig({
  PORT: "0",
  HOST: "127.0.0.1",
  SLOTGATE_DATA_DIR: dataDir,
  LOG_LEVEL: "error",
  RATE_LIMIT: "off",
  SLOTGATE_SEED_DEMO: "off",
  CHAIN: "anvil",
  ANVIL_PORT: "0",
});
const running = await startServer(config);
process.send({ type: "ready", url: running.url, dataDir });
process.on("message", async (msg) => {
  if (msg.type === "fund") {
    const chain = running.slotgate.services.chain.service;
    for (const user of msg.users) await chain.fundWallet({ user_uuid: user, xotn: "1000000", wallet: "user" });
    process.send({ type: "funded" });
  }
  if (msg.type === "stop") {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
