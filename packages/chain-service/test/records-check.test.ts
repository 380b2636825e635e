import { connectContracts, deploy } from "@slotgate/contracts";
import { type Database, openDatabase } from "@slotgate/storage";
import { JsonRpcProvider, Wallet, parseEther } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilProcess, type ChainService, type ChainServiceWarning, type RpcChainConfig, createChainService, startAnvil } from "../src/index.js";
import { TEST_KEYS, deployTestSystem, freshKeys } from "./helpers/setup.js";

// Its own chain: the test rolls the chain back (evm_revert), as a development chain killed within its
// state interval would come back.
let anvil: AnvilProcess;
let provider: JsonRpcProvider;
let chain: RpcChainConfig;
let db: Database;

beforeAll(async () => {
  anvil = await startAnvil({ port: 0 });
  provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1 });
  chain = await deployTestSystem(anvil.rpcUrl);
  db = await openDatabase({});
});
afterAll(async () => {
  provider?.destroy();
  await db?.close();
  await anvil?.stop();
});

const keys = freshKeys();
const start = (warnings: ChainServiceWarning[] = [], overrides: Partial<RpcChainConfig> = {}, database?: Database) =>
  createChainService({ db: database ?? db, ...keys, chain: { ...chain, ...overrides }, warn: (w) => warnings.push(w) });

describe("start-up check of the records against the chain", () => {
  it("makes lost provider registrations and release flags again, and says what it cannot restore", async () => {
    let service: ChainService = await start();
    const clientId = "sg_records_check_client";
    const snapshot = (await provider.send("evm_snapshot", [])) as string;
    await service.initPermissionProvider({ client_id: clientId, cuid: "records-a", release_per: 40, owner_addr: `0x${"ab".repeat(20)}` });
    await service.enableRelease("records-a", true);
    expect((await service.balanceOf(`0x${"cd".repeat(20)}`, "records-a")).balance).toBe("0");
    await service.close();

    // The chain loses the blocks of the registration and the release flag; the database keeps them.
    await provider.send("evm_revert", [snapshot]);
    const { exchange } = connectContracts(chain.addresses, provider);
    expect((await exchange.get_provider("records-a")).registered).toBe(false);
    expect(await exchange._cuid_releaseTokenEnabled("records-a")).toBe(false);

    const warnings: ChainServiceWarning[] = [];
    service = await start(warnings);
    const behind = warnings.find((w) => w.code === "chain_behind_database");
    expect(behind?.message).toContain("provider registration of cuid records-a");
    expect(behind?.message).toContain("release flag of cuid records-a");
    expect(behind?.message).toContain("cannot be made again");
    const registered = await exchange.get_provider("records-a");
    expect(registered.registered).toBe(true);
    expect(Number(registered.releasePer)).toBe(40);
    expect(registered.ownerAddr.toLowerCase()).toBe(`0x${"ab".repeat(20)}`);
    expect(registered.clientId).toBe(clientId);
    expect(await exchange._cuid_releaseTokenEnabled("records-a")).toBe(true);
    // The same registration still belongs to its client: the provider's key and records were kept.
    expect((await service.testEncryption({ client_id: clientId, test_string: "still mine" })).encrypted_string).toMatch(/^[0-9a-f]+$/);
    await service.close();

    // Once repaired, the next start is in step and says nothing.
    const quiet: ChainServiceWarning[] = [];
    await (await start(quiet)).close();
    expect(quiet.map((w) => w.code)).not.toContain("chain_behind_database");
  });

  it("refuses a database that belongs to another deployment", async () => {
    const other = await deploy(new Wallet(TEST_KEYS.operatorKey, provider), {
      paymasterSigner: new Wallet(TEST_KEYS.paymasterSignerKey).address,
      spendRecorder: new Wallet(TEST_KEYS.spendRecorderKey).address,
      paymasterDeposit: parseEther("1"),
    });
    const { xotn, exchange, entryPoint, factory, paymaster } = other;
    await expect(start([], { addresses: { xotn, exchange, entryPoint, factory, paymaster } })).rejects.toMatchObject({
      code: "chain_unavailable",
      message: expect.stringContaining("this database belongs to chain 31337 and the exchange at"),
    });
  });
});
