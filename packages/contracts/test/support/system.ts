import type { BrowserProvider, JsonRpcSigner, Wallet } from "ethers";
import { beforeAll, beforeEach } from "vitest";
import { type DeployResult, type SlotgateContracts, connectContracts, deploy } from "../../src/index.js";
import { account, offlineKey, snapshot, startChain } from "./chain.js";

export const CUID = "game-1";
export const CLIENT_ID = "client-abc";
export const RELEASE_PER = 40;

/** A deployed system on a fresh in-process chain, with one registered provider cuid. */
export interface TestSystem {
  provider: BrowserProvider;
  /** Deployer: the platform (owner of everything) and the treasury. */
  platform: JsonRpcSigner;
  /** Provider's revenue wallet (`owner_addr`). */
  providerWallet: JsonRpcSigner;
  /** Sends handleOps. */
  bundler: JsonRpcSigner;
  /** An unrelated account. */
  stranger: JsonRpcSigner;
  /** A holder of XOTN that can send transactions itself. */
  holder: JsonRpcSigner;
  /** The paymaster's verifying signer (offline key). */
  paymasterSigner: Wallet;
  addresses: DeployResult;
  /** Handles bound to the platform. */
  platformContracts: SlotgateContracts;
  /** Handles bound to the provider wallet. */
  providerContracts: SlotgateContracts;
  /** Handles bound to the stranger. */
  strangerContracts: SlotgateContracts;
  /** Handles bound to the holder. */
  holderContracts: SlotgateContracts;
}

export const XOTN = 10n ** 18n;

export async function startSystem(): Promise<TestSystem> {
  const provider = startChain();
  const [platform, providerWallet, bundler, stranger, holder] = await Promise.all([0, 1, 2, 3, 4].map((index) => account(provider, index)));
  if (!platform || !providerWallet || !bundler || !stranger || !holder) throw new Error("hardhat accounts missing");
  const paymasterSigner = offlineKey();
  const addresses = await deploy(platform, { paymasterSigner: paymasterSigner.address });
  const platformContracts = connectContracts(addresses, platform);
  await (await platformContracts.exchange.init_permission_provider(CLIENT_ID, CUID, RELEASE_PER, providerWallet.address)).wait();
  await (await platformContracts.xotn.transfer(holder.address, 1_000n * XOTN)).wait();
  return {
    provider,
    platform,
    providerWallet,
    bundler,
    stranger,
    holder,
    paymasterSigner,
    addresses,
    platformContracts,
    providerContracts: connectContracts(addresses, providerWallet),
    strangerContracts: connectContracts(addresses, stranger),
    holderContracts: connectContracts(addresses, holder),
  };
}

/**
 * The test system of a `describe` block: started once before its tests (then `setup` runs), and
 * each test runs on a chain snapshot that is reverted afterwards. The returned object is filled in
 * by the `beforeAll` hook, so read its fields inside tests and hooks only.
 */
export function useTestSystem(setup?: (s: TestSystem) => Promise<void>): TestSystem {
  const system = {} as TestSystem;
  beforeAll(async () => {
    Object.assign(system, await startSystem());
    await setup?.(system);
  });
  beforeEach(async () => {
    const restore = await snapshot(system.provider);
    return () => restore();
  });
  return system;
}
