import { isPendingWrite } from "@slotgate/protocol";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@slotgate/storage";
import { JsonRpcProvider } from "ethers";
import { afterAll, describe, expect, it } from "vitest";
import { type ChainHandle, type ChainStartWarning, chainSettingsFromEnv, migrateServer, startChain } from "../../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "sg-chain-start-"));
  dirs.push(dir);
  return dir;
};

/** The development chain keeps its state in the data directory: a restart finds what the last run left. */
describe("startChain on the development chain (CHAIN=anvil)", () => {
  const settings = chainSettingsFromEnv({ CHAIN: "anvil", ANVIL_PORT: "0" });

  it("deploys once, keeps chain and deployment in the data directory, and finds the same wallets after a restart", async () => {
    const db = await openDatabase({});
    await migrateServer(db);
    const dir = dataDir();
    const firstWarnings: ChainStartWarning[] = [];
    const first = (await startChain(settings, db, { dataDir: dir, warn: (w) => firstWarnings.push(w) })) as ChainHandle;
    const wallet = await first.service.provisionWallet(77);
    const provider = await first.service.initPermissionProvider({
      client_id: "sg_chain_start",
      cuid: "chain-start",
      release_per: 10,
      owner_addr: `0x${"ef".repeat(20)}`,
    });
    if (isPendingWrite(provider)) throw new Error("the registration did not land within the wait");
    expect(first.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    await first.close();
    expect(firstWarnings.map((w) => w.code)).toContain("development_chain_deployed");
    const deployment = JSON.parse(readFileSync(join(dir, "chain", "deployment.json"), "utf8")) as { addresses: { exchange: string }; chainId: string };
    expect(deployment.chainId).toBe("31337");
    expect(statSync(join(dir, "chain", "deployment.json")).mode & 0o777).toBe(0o600);

    const warnings: ChainStartWarning[] = [];
    const second = (await startChain(settings, db, { dataDir: dir, warn: (w) => warnings.push(w) })) as ChainHandle;
    try {
      expect(warnings.map((w) => w.code)).not.toContain("development_chain_deployed");
      expect(warnings.map((w) => w.code)).not.toContain("chain_behind_database");
      expect(second.service.addresses.exchange).toBe(deployment.addresses.exchange);
      expect(await second.service.contentAddressFor(77)).toBe(wallet.content_address);
      // The registration is still on the chain: registering the cuid again is refused by the chain's own record.
      await expect(
        second.service.initPermissionProvider({ client_id: "sg_chain_start", cuid: "chain-start", release_per: 10, owner_addr: `0x${"ef".repeat(20)}` }),
      ).rejects.toMatchObject({ code: "cuid_taken" });
      expect(provider.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      // One process manages a data directory's chain.
      await expect(startChain(settings, db, { dataDir: dir, warn: () => undefined })).rejects.toMatchObject({
        code: "chain_unavailable",
        message: expect.stringContaining(`in use by process ${process.pid}`),
      });
    } finally {
      await second.close();
      await db.close();
    }
  });

  it("refuses a data directory whose exchange was deployed by an older Slotgate (no slot registry) and says what to do", async () => {
    const db = await openDatabase({});
    await migrateServer(db);
    const dir = dataDir();
    const first = (await startChain(settings, db, { dataDir: dir, warn: () => undefined })) as ChainHandle;
    // An older exchange, simulated: the exchange address now runs code without `slot_info` (the XOTN token's).
    if (first.rpcUrl === null) throw new Error("the development chain has a JSON-RPC URL");
    const rpc = new JsonRpcProvider(first.rpcUrl, undefined, { staticNetwork: true });
    await rpc.send("anvil_setCode", [first.service.addresses.exchange, await rpc.getCode(first.service.addresses.xotn)]);
    rpc.destroy();
    await first.close();
    try {
      await expect(startChain(settings, db, { dataDir: dir, warn: () => undefined })).rejects.toMatchObject({
        code: "chain_unavailable",
        message: expect.stringContaining(
          "older Slotgate whose exchange has no slot registry (owner, slot wallet, transfer count); start from an empty data directory",
        ),
      });
    } finally {
      await db.close();
    }
  });

  it("without CHAIN_KEK and CHAIN_RECOVERY_KEY keeps one generated key of each, different, in the data directory (0600)", async () => {
    const db = await openDatabase({});
    const dir = dataDir();
    const warnings: ChainStartWarning[] = [];
    const first = (await startChain(settings, db, { dataDir: dir, warn: (w) => warnings.push(w) })) as ChainHandle;
    await first.close();
    const kek = readFileSync(join(dir, "chain-kek"), "utf8");
    const recovery = readFileSync(join(dir, "chain-recovery-key"), "utf8");
    expect(kek).toMatch(/^[0-9a-f]{64}$/);
    expect(recovery).toMatch(/^[0-9a-f]{64}$/);
    expect(recovery).not.toBe(kek);
    for (const file of ["chain-kek", "chain-recovery-key"]) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const second = (await startChain(settings, db, { dataDir: dir, warn: (w) => warnings.push(w) })) as ChainHandle;
    await second.close();
    expect(readFileSync(join(dir, "chain-kek"), "utf8")).toBe(kek);
    expect(readFileSync(join(dir, "chain-recovery-key"), "utf8")).toBe(recovery);
    for (const code of ["generated_chain_kek", "generated_chain_recovery_key"]) {
      expect(warnings.filter((w) => w.code === code).map((w) => (w.message.includes(" generated in ") ? "generated" : "read"))).toEqual(["generated", "read"]);
    }
    await db.close();
  });

  it("CHAIN=off starts nothing", async () => {
    const db = await openDatabase({});
    expect(await startChain(chainSettingsFromEnv({ CHAIN: "off" }), db, { dataDir: dataDir(), warn: () => undefined })).toBeNull();
    await db.close();
  });
});
