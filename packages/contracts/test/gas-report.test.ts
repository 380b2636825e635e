// Gas report: measures the main calls on the in-process chain and compares them with the committed
// gas-report.json. A call more than `tolerancePercent` above its committed figure fails the run.
// Refresh the committed figures with `npm run gas` (GAS_REPORT_UPDATE=1) and commit the file.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type BaseContract,
  ContractFactory,
  type ContractTransactionResponse,
  type InterfaceAbi,
  type TransactionReceipt,
  Wallet,
  getAddress,
  keccak256,
  toUtf8Bytes,
} from "ethers";
import { describe, expect, it } from "vitest";
import {
  C_SALT,
  type SlotgateContracts,
  computeWalletAddresses,
  connectContracts,
  contentTokenExchangeAbi,
  contentTokenExchangeBytecode,
  deploy,
  entryPointAbi,
  entryPointBytecode,
  slotgateAccountFactoryAbi,
  slotgateAccountFactoryBytecode,
  slotgatePaymasterAbi,
  slotgatePaymasterBytecode,
  slotSaleCalls,
  xotnAbi,
  xotnBytecode,
} from "../src/index.js";
import { account, startChain } from "./support/chain.js";
import { accountInterface, exchangeInterface, sendAs, xotnInterface } from "./support/wallets.js";
import type { TestSystem } from "./support/system.js";

const REPORT = join(dirname(fileURLToPath(import.meta.url)), "..", "gas-report.json");
const UPDATE = process.env.GAS_REPORT_UPDATE === "1";

interface GasReport {
  description: string;
  compiler: { solc: string; evmVersion: string; optimizerRuns: number };
  tolerancePercent: number;
  gas: Record<string, number>;
}

/** Fixed keys so signatures, hence calldata, hence gas, are the same on every run. */
function fixedKey(label: string): Wallet {
  return new Wallet(keccak256(toUtf8Bytes(`slotgate-gas-report:${label}`)));
}

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<number> {
  const receipt = (await (await tx).wait()) as TransactionReceipt;
  return Number(receipt.gasUsed);
}

async function measure(): Promise<Record<string, number>> {
  const gas: Record<string, number> = {};
  const provider = startChain();
  const [platform, providerWallet, bundler, holder] = await Promise.all([0, 1, 2, 4].map((i) => account(provider, i)));
  if (!platform || !providerWallet || !bundler || !holder) throw new Error("hardhat accounts missing");

  const deployments: Array<[string, InterfaceAbi, string, unknown[]]> = [];
  const paymasterSigner = fixedKey("paymaster");
  const addresses = await deploy(platform, { paymasterSigner: paymasterSigner.address });
  deployments.push(
    ["XOTN", xotnAbi, xotnBytecode, [platform.address, 10n ** 27n]],
    ["ContentTokenExchange", contentTokenExchangeAbi, contentTokenExchangeBytecode, [addresses.xotn, platform.address, platform.address, platform.address]],
    ["EntryPoint", entryPointAbi, entryPointBytecode, []],
    ["SlotgateAccountFactory", slotgateAccountFactoryAbi, slotgateAccountFactoryBytecode, [addresses.entryPoint, addresses.xotn, addresses.exchange]],
    ["SlotgatePaymaster", slotgatePaymasterAbi, slotgatePaymasterBytecode, [addresses.entryPoint, paymasterSigner.address]],
  );
  for (const [name, abi, bytecode, args] of deployments) {
    const contract: BaseContract = await new ContractFactory(abi, bytecode, platform).deploy(...args);
    const receipt = await contract.deploymentTransaction()?.wait();
    gas[`deploy ${name}`] = Number(receipt?.gasUsed ?? 0n);
  }

  const c = connectContracts(addresses, platform);
  const asHolder = connectContracts(addresses, holder);
  const asProvider = connectContracts(addresses, providerWallet);
  const slot = computeWalletAddresses(addresses.factory, fixedKey("slot-owner").address).slotWallet;

  gas["XOTN.transfer"] = await gasOf(c.xotn.transfer(holder.address, 10n ** 21n));
  gas["XOTN.approve"] = await gasOf(asHolder.xotn.approve(addresses.exchange, 10n ** 21n));
  gas["exchange.init_permission_provider"] = await gasOf(c.exchange.init_permission_provider("client-gas", "game-gas", 40, providerWallet.address));
  gas["exchange.set_release_enabled"] = await gasOf(c.exchange.set_release_enabled("game-gas", true));
  gas["exchange.buy_content_token (first for slot)"] = await gasOf(asHolder.exchange.buy_content_token(slot, "game-gas", 10n ** 18n + 1n));
  gas["exchange.buy_content_token (again)"] = await gasOf(asHolder.exchange.buy_content_token(slot, "game-gas", 10n ** 18n));
  gas["exchange.increase_used (first)"] = await gasOf(asProvider.exchange.increase_used(slot, "game-gas", 10n ** 17n));
  gas["exchange.increase_used (again)"] = await gasOf(asProvider.exchange.increase_used(slot, "game-gas", 10n ** 17n));
  gas["exchange.release_used_balance (pays)"] = await gasOf(c.exchange.release_used_balance("game-gas", slot));
  gas["exchange.release_used_balance (nothing new)"] = await gasOf(c.exchange.release_used_balance("game-gas", slot));
  gas["exchange.approve_purchases"] = await gasOf(asHolder.exchange.approve_purchases("game-gas", 10n ** 19n));
  gas["exchange.buy_for (first for slot)"] = await gasOf(c.exchange.buy_for(holder.address, "game-gas", 10n ** 18n));
  gas["exchange.buy_for (again)"] = await gasOf(c.exchange.buy_for(holder.address, "game-gas", 10n ** 18n));
  await measureBatch(gas, c, asHolder);
  gas["exchange.buy_slot"] = await gasOf(c.exchange.buy_slot(holder.address, 1n, "game-gas", slot));
  gas["exchange.change_slot_owner"] = await gasOf(asHolder.exchange.change_slot_owner("game-gas", 1n, platform.address));

  const system = { provider, addresses, bundler, paymasterSigner } as unknown as TestSystem;
  const owner = fixedKey("owner");
  const newOwner = fixedKey("new-owner");
  const approve = { to: addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [addresses.exchange, 1n]) };
  const first = await sendAs(system, owner, approve);
  gas["handleOps: first operation (deploys wallet + execute)"] = Number(await receiptGas(provider, first.transactionHash));
  const second = await sendAs(system, owner, approve);
  gas["handleOps: execute (nonce 1)"] = Number(await receiptGas(provider, second.transactionHash));
  const batch = await sendAs(system, owner, [
    approve,
    { to: addresses.exchange, data: exchangeInterface.encodeFunctionData("approve_purchases", ["game-gas", 5n]) },
  ]);
  gas["handleOps: executeBatch (approve + approve_purchases)"] = Number(await receiptGas(provider, batch.transactionHash));
  const rotate = await sendAs(system, owner, { callData: accountInterface.encodeFunctionData("changeOwner", [newOwner.address]) });
  gas["handleOps: changeOwner"] = Number(await receiptGas(provider, rotate.transactionHash));
  const slotWallet = await sendAs(system, owner, approve, { salt: C_SALT });
  gas["handleOps: first operation of the slot wallet"] = Number(await receiptGas(provider, slotWallet.transactionHash));
  const { userWallet: ownerWallet, slotWallet: ownerSlot } = computeWalletAddresses(addresses.factory, owner.address);
  await (await c.exchange.buy_slot(ownerWallet, 2n, "game-gas", ownerSlot)).wait();
  const buyer = computeWalletAddresses(addresses.factory, newOwner.address).userWallet;
  const calls = slotSaleCalls({
    exchange: addresses.exchange,
    xotn: addresses.xotn,
    cuid: "game-gas",
    slot: 2n,
    slotWallet: ownerSlot,
    buyerWallet: buyer,
    buyerOwner: newOwner.address,
  });
  const sale = await sendAs(system, owner, calls, { sender: ownerSlot });
  gas["handleOps: slot sale (change_slot_owner + approve(exchange, 0) + changeOwner)"] = Number(await receiptGas(provider, sale.transactionHash));
  return gas;
}

/** Slots of the batch measurements: fixed addresses, so the figures repeat. */
const BATCH = 50;
const batchSlots = Array.from({ length: BATCH }, (_, i) => getAddress(`0x${(0x5107_0000 + i).toString(16).padStart(40, "0")}`));

/**
 * `increase_used_batch` of 50 slots, for slots spending for the first time and again, against 50
 * single `increase_used` calls: the per-spend figures are total / 50 (the batch amortises the 21,000
 * transaction base cost and the role and cuid checks).
 */
async function measureBatch(gas: Record<string, number>, c: SlotgateContracts, asHolder: SlotgateContracts): Promise<void> {
  await (await asHolder.xotn.approve(await c.exchange.getAddress(), 10n ** 21n)).wait();
  for (const slot of batchSlots) await (await asHolder.exchange.buy_content_token(slot, "game-gas", 1_000n)).wait();
  const amounts = batchSlots.map(() => 10n);
  const first = await gasOf(c.exchange.increase_used_batch("game-gas", batchSlots, amounts));
  const again = await gasOf(c.exchange.increase_used_batch("game-gas", batchSlots, amounts));
  gas[`exchange.increase_used_batch (${BATCH} slots, first)`] = first;
  gas[`exchange.increase_used_batch (${BATCH} slots, again)`] = again;
  gas[`exchange.increase_used_batch per spend (${BATCH} slots, first)`] = Math.round(first / BATCH);
  gas[`exchange.increase_used_batch per spend (${BATCH} slots, again)`] = Math.round(again / BATCH);
}

async function receiptGas(provider: ReturnType<typeof startChain>, hash: string): Promise<bigint> {
  const receipt = await provider.getTransactionReceipt(hash);
  if (receipt === null) throw new Error(`no receipt for ${hash}`);
  return receipt.gasUsed;
}

describe("gas report", () => {
  it(UPDATE ? "writes gas-report.json" : "stays within the committed gas-report.json", async () => {
    const measured = await measure();
    if (UPDATE) {
      const report: GasReport = {
        description: "Gas used on the in-process Hardhat chain (test/gas-report.test.ts). Refresh: npm run gas -w @slotgate/contracts",
        compiler: { solc: "0.8.26", evmVersion: "paris", optimizerRuns: 1_000_000 },
        tolerancePercent: 5,
        gas: measured,
      };
      writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const committed = JSON.parse(readFileSync(REPORT, "utf8")) as GasReport;
    const regressions: string[] = [];
    for (const [name, used] of Object.entries(measured)) {
      const baseline = committed.gas[name];
      if (baseline === undefined) {
        regressions.push(`${name}: ${used} gas has no committed figure (run npm run gas)`);
      } else if (used > baseline * (1 + committed.tolerancePercent / 100)) {
        regressions.push(`${name}: ${used} gas, committed ${baseline} (+${(((used - baseline) / baseline) * 100).toFixed(1)}%)`);
      }
    }
    for (const name of Object.keys(committed.gas)) {
      if (!(name in measured)) regressions.push(`${name}: committed but no longer measured (run npm run gas)`);
    }
    expect(regressions).toEqual([]);
  });
});
