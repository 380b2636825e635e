import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectContracts, deploy } from "@slotgate/contracts";
import { encryptHex } from "@slotgate/protocol/crypto";
import { type Database, openDatabase } from "@slotgate/storage";
import { JsonRpcProvider, Wallet, parseEther } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilProcess, type ChainServiceWarning, type RpcChainConfig, startAnvil } from "../src/index.js";
import { listChainLosses } from "../src/storage/chain-losses.js";
import { TEST_KEYS, deployTestSystem, freshKeys, landed, newUserId } from "./helpers/setup.js";
import { createChainService } from "../src/index.js";

// Its own chain, with a state directory: the tests stop the node, put back a state file written earlier
// (fewer blocks than the database recorded) and start a fresh node from it, as a development chain killed
// within its state interval comes back; or roll the chain back (evm_revert).
const stateDir = mkdtempSync(join(tmpdir(), "slotgate-rebuild-"));
const stateFile = join(stateDir, "anvil-state.json");
let anvil: AnvilProcess;
let chain: RpcChainConfig;
let db: Database;
const keys = freshKeys();

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, stateDir });
  chain = await deployTestSystem(anvil.rpcUrl);
  db = await openDatabase({});
});
afterAll(async () => {
  await db?.close();
  await anvil?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Starts the chain service on the current node; warnings are collected. */
async function start(
  warnings: ChainServiceWarning[] = [],
  overrides: { sponsorshipSeconds?: number; database?: Database; chain?: Partial<RpcChainConfig> } = {},
) {
  return createChainService({
    db: overrides.database ?? db,
    ...keys,
    chain: { ...chain, rpcUrl: anvil.rpcUrl, ...overrides.chain },
    warn: (w) => warnings.push(w),
    ...(overrides.sponsorshipSeconds === undefined ? {} : { sponsorshipSeconds: overrides.sponsorshipSeconds }),
  });
}

/** Stops the node (its state is written on the way out) and starts a fresh one from `file` (the state it loads). */
async function restartNodeFrom(file: string | null): Promise<void> {
  await anvil.stop();
  if (file !== null) copyFileSync(file, stateFile);
  anvil = await startAnvil({ port: 0, stateDir });
}

/** Balances, `used_balances` and owners of slots, read from the chain. */
async function readSlots(slots: readonly string[], cuid: string) {
  const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    const { exchange, xotn } = connectContracts(chain.addresses, provider);
    const read = [];
    for (const slot of slots) {
      const [balance, used] = await exchange.balance_adex(slot, cuid);
      read.push({ slot, balance: balance.toString(), used: used.toString(), xotn: (await xotn.balanceOf(slot)).toString() });
    }
    return read;
  } finally {
    provider.destroy();
  }
}

const codes = (warnings: readonly ChainServiceWarning[]) => warnings.map((w) => w.code);

describe("start-up rebuild of the blocks the chain lost", () => {
  const cuid = "rebuild-game";
  const clientId = "sg_rebuild_client";
  let aes = { key: "", iv: "" };
  const users = [newUserId(), newUserId()];
  let slots: string[] = [];
  let before: Awaited<ReturnType<typeof readSlots>>;

  it("sends the kept transactions again on a fresh node given fewer blocks than the database: purchases, spends, fundings, registrations and release flags land as they first did", async () => {
    let service = landed(await start());
    const registration = await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 40, owner_addr: `0x${"ab".repeat(20)}` });
    aes = { key: registration.aes_key!, iv: registration.aes_iv! };
    slots = [];
    for (const user of users) slots.push((await service.devFundSlot({ user_uuid: user, xotn: "1000", cuid, client_id: clientId })).address);
    await service.buyContentToken({ client_id: clientId, user_dbkey: String(users[0]), amount: "100", cuid });
    await service.close();
    // The node writes its state on a clean stop: this file has every block so far, and none of what follows.
    await restartNodeFrom(null);
    const early = join(stateDir, "early-state.json");
    copyFileSync(stateFile, early);

    // More answered writes, on both slots, in a short sponsorship window (a funding rebuilt later than
    // its window would be refused by the paymaster, were its block not given its first time).
    const spend = (user: number, amount: string) => ({
      encrypted_message: encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount, cuid }), aes.key, aes.iv),
    });
    service = landed(await start([], { sponsorshipSeconds: 4 }));
    await service.enableRelease(cuid, true);
    await service.devFundSlot({ user_uuid: users[1] as number, xotn: "200", cuid, client_id: clientId });
    for (const [user, amount] of [
      [users[0], "50"],
      [users[1], "300"],
      [users[0], "25"],
      [users[1], "150"],
    ] as const) {
      await service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount, cuid });
    }
    await service.increaseUsed(clientId, spend(users[0] as number, "60"));
    await service.increaseUsed(clientId, spend(users[1] as number, "200"));
    await service.increaseUsed(clientId, spend(users[0] as number, "15"));
    before = await readSlots(slots, cuid);
    expect(before.map((s) => [s.balance, s.used])).toEqual([
      ["100", "75"],
      ["250", "200"],
    ]);
    await service.close();
    const kept = await db.query<{ n: string }>("SELECT count(*) AS n FROM cs_transactions WHERE status IN ('mined', 'reverted')");

    // A fresh node from the early state file: the chain ends before those writes; the database recorded them.
    await restartNodeFrom(early);
    expect((await readSlots(slots, cuid)).map((s) => [s.balance, s.used])).toEqual([
      ["100", "0"],
      ["0", "0"],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 5000)); // past every sponsorship window of the lost blocks

    const warnings: ChainServiceWarning[] = [];
    service = landed(await start(warnings));
    expect(codes(warnings)).toContain("chain_rebuilt");
    expect(codes(warnings)).not.toContain("chain_behind_database");
    const rebuilt = warnings.find((w) => w.code === "chain_rebuilt")?.message ?? "";
    // enable release, one funding (a bundle), four purchases, three spends (batched or not: at least two transactions).
    const count = Number(/(\d+) kept transactions? sent again landed as they first did/.exec(rebuilt)?.[1]);
    expect(count).toBeGreaterThanOrEqual(8);
    expect(count).toBeLessThan(Number(kept[0]?.n));
    expect(await readSlots(slots, cuid)).toEqual(before);
    const { exchange } = connectContracts(chain.addresses, new JsonRpcProvider(anvil.rpcUrl, undefined, { staticNetwork: true }));
    expect(await exchange._cuid_releaseTokenEnabled(cuid)).toBe(true);
    expect(await listChainLosses(db)).toEqual([]);
    // The service goes on from the rebuilt chain: the next write of each key takes the next nonce.
    await service.buyContentToken({ client_id: clientId, user_dbkey: String(users[1]), amount: "10", cuid });
    await service.increaseUsed(clientId, spend(users[1] as number, "10"));
    before = await readSlots(slots, cuid);
    expect(before.map((s) => [s.balance, s.used])).toEqual([
      ["100", "75"],
      ["250", "210"],
    ]);
    await service.close();

    // In step again: the next start says nothing about the chain.
    const quiet: ChainServiceWarning[] = [];
    await (await start(quiet)).close();
    expect(codes(quiet)).not.toContain("chain_rebuilt");
    expect(codes(quiet)).not.toContain("chain_behind_database");
  });

  it("records by write id what cannot be rebuilt (the spend recorder's nonce used by another transaction), and rebuilds the rest", async () => {
    const early = join(stateDir, "before-spends.json");
    await restartNodeFrom(null);
    copyFileSync(stateFile, early);
    const spend = (user: number, amount: string) => ({
      encrypted_message: encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount, cuid }), aes.key, aes.iv),
    });
    const [lastBefore] = await db.query<{ id: string }>("SELECT coalesce(max(id), 0)::text AS id FROM cs_writes");
    let service = landed(await start());
    await service.buyContentToken({ client_id: clientId, user_dbkey: String(users[0]), amount: "5", cuid });
    await service.increaseUsed(clientId, spend(users[0] as number, "20"));
    await service.increaseUsed(clientId, spend(users[0] as number, "30"));
    await service.close();
    const spends = (await db.query<{ id: string }>("SELECT id::text AS id FROM cs_writes WHERE kind = 'spend' AND id > $1 ORDER BY id", [lastBefore?.id])).map(
      (r) => r.id,
    );
    expect(spends).toHaveLength(2);

    // The fresh node lost the three writes, and the spend recorder's key sent something else with the first spend's nonce.
    await restartNodeFrom(early);
    const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
    const recorder = new Wallet(TEST_KEYS.spendRecorderKey, provider);
    await (await recorder.sendTransaction({ to: recorder.address, value: 1n })).wait();
    provider.destroy();

    const warnings: ChainServiceWarning[] = [];
    service = landed(await start(warnings));
    expect(warnings.find((w) => w.code === "chain_rebuilt")?.message).toMatch(/1 kept transaction sent again landed as they first did/);
    const behind = warnings.find((w) => w.code === "chain_behind_database")?.message ?? "";
    expect(behind).toContain(`refused: write ${spends[0]}`);
    // The second spend landed again, but after a chain without the first its event says another balance.
    expect(behind).toContain(`outcome_changed: write ${spends[1]}`);
    const losses = await listChainLosses(db);
    expect(losses.map((l) => [l.writeId, l.reason])).toEqual([
      [spends[0], "refused"],
      [spends[1], "outcome_changed"],
    ]);
    expect(losses[0]?.message).toMatch(/nonce/i);
    // The purchase was rebuilt; the chain has the second spend only.
    expect((await readSlots([slots[0] as string], cuid)).map((s) => [s.balance, s.used])).toEqual([["75", "105"]]);
    await service.close();
    const quiet: ChainServiceWarning[] = [];
    await (await start(quiet)).close();
    expect(codes(quiet)).toEqual(["development_chain"]);
  });

  it("refuses a database that belongs to another deployment", async () => {
    const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1 });
    const other = await deploy(new Wallet(TEST_KEYS.operatorKey, provider), {
      paymasterSigner: new Wallet(TEST_KEYS.paymasterSignerKey).address,
      spendRecorder: new Wallet(TEST_KEYS.spendRecorderKey).address,
      paymasterDeposit: parseEther("1"),
    });
    provider.destroy();
    const { xotn, exchange, entryPoint, factory, paymaster } = other;
    await expect(start([], { chain: { addresses: { xotn, exchange, entryPoint, factory, paymaster } } })).rejects.toMatchObject({
      code: "chain_unavailable",
      message: expect.stringContaining("this database belongs to chain 31337 and the exchange at"),
    });
  });
});
