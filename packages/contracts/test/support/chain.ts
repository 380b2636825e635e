import { createRequire } from "node:module";
import { BrowserProvider, type Eip1193Provider, type JsonRpcSigner, Wallet } from "ethers";
import { expect } from "vitest";
import { decodeContractError } from "../../src/index.js";

const require = createRequire(import.meta.url);

interface HardhatRuntime {
  network: { provider: Eip1193Provider };
}

/** The in-process Hardhat network of this test file (hardhat.config.cjs of the package). */
export function startChain(): BrowserProvider {
  const hre = require("hardhat") as HardhatRuntime;
  return new BrowserProvider(hre.network.provider, undefined, { cacheTimeout: -1 });
}

/** Unlocked Hardhat account `index` (10000 ETH each). */
export function account(provider: BrowserProvider, index: number): Promise<JsonRpcSigner> {
  return provider.getSigner(index);
}

/** A fresh EOA that only signs (an owner key or the paymaster's key); never sends transactions. */
export function offlineKey(): Wallet {
  return Wallet.createRandom() as unknown as Wallet;
}

/** Takes a chain snapshot; the returned function restores it. */
export async function snapshot(provider: BrowserProvider): Promise<() => Promise<void>> {
  const id: string = await provider.send("evm_snapshot", []);
  return async () => {
    await provider.send("evm_revert", [id]);
  };
}

/** Moves chain time forward and mines a block. */
export async function increaseTime(provider: BrowserProvider, seconds: number): Promise<void> {
  await provider.send("evm_increaseTime", [seconds]);
  await provider.send("evm_mine", []);
}

/** Asserts that `action` reverts with the custom error `name` (and, if given, these arguments). */
export async function expectRevert(action: Promise<unknown>, name: string, args?: readonly unknown[]): Promise<void> {
  let thrown: unknown;
  try {
    await action;
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected a revert with ${name}`).toBeDefined();
  const decoded = decodeContractError(thrown);
  expect(decoded?.name, `revert data of: ${String((thrown as Error)?.message).slice(0, 300)}`).toBe(name);
  if (args !== undefined) expect(decoded?.args).toEqual(args);
}
