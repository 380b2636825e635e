import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HDNodeWallet, Interface, JsonRpcProvider, Mnemonic, Wallet, parseEther } from "ethers";
import { type SlotgateAddresses, contentTokenExchangeAbi, deploy } from "@slotgate/contracts";
import type { RpcChainConfig } from "../config.js";
import { ChainServiceError } from "../errors.js";
import { type AnvilOptions, type AnvilProcess, DEVELOPMENT_CHAIN_ID, startAnvil } from "./anvil.js";
import { readWalletLock } from "./wallet-lock.js";

/** The well-known development mnemonic of Anvil and Hardhat; its accounts hold 10000 ETH on a development chain. */
export const DEVELOPMENT_MNEMONIC = "test test test test test test test test test test test junk";

/**
 * Private key of development account `index` (m/44'/60'/0'/0/index of {@link DEVELOPMENT_MNEMONIC}).
 * Well known to everyone: for development chains only.
 *
 * @example
 * ```ts
 * developmentKey(0); // "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
 * ```
 */
export function developmentKey(index: number): string {
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEVELOPMENT_MNEMONIC), `m/44'/60'/0'/0/${index}`).privateKey;
}

/** What the development chain's first start deployed, kept in `<stateDir>/deployment.json` (mode 0600). */
export interface DevelopmentDeployment {
  chainId: string;
  addresses: SlotgateAddresses;
  /** Development keys (well known): operator (also the exchange's owner), spend recorder, paymaster signer, bundler. */
  operatorKey: string;
  spendRecorderKey: string;
  paymasterSignerKey: string;
  bundlerKey: string;
  /** Block of the deployment. */
  deployedAtBlock: number;
}

/** A running development chain with its deployment. */
export interface DevelopmentChain {
  anvil: AnvilProcess;
  deployment: DevelopmentDeployment;
  /** True when this start deployed the contracts (first start, or a chain whose state was lost). */
  deployedNow: boolean;
  /** The chain service's chain configuration for this chain. */
  chain: RpcChainConfig;
}

const ETH_FOR_PAYMASTER = parseEther("100");

async function hasCode(provider: JsonRpcProvider, addresses: SlotgateAddresses): Promise<boolean> {
  for (const address of Object.values(addresses)) {
    if ((await provider.getCode(address)) === "0x") return false;
  }
  return true;
}

/**
 * Whether the exchange at `address` has the slot registry of this Slotgate (`slot_info`: owner, slot wallet,
 * transfer count). An exchange deployed by an older Slotgate keeps a bare owner per slot; its dispatcher lacks
 * the selector.
 */
async function hasSlotRegistry(provider: JsonRpcProvider, address: string): Promise<boolean> {
  const selector = new Interface(contentTokenExchangeAbi).getFunction("slot_info")?.selector;
  return selector !== undefined && (await provider.getCode(address)).includes(selector.slice(2));
}

/**
 * Starts the development chain: Anvil with its state in `stateDir` and the Slotgate system deployed.
 * The first start deploys XOTN, the exchange, the EntryPoint, the account factory and the paymaster
 * (100 ETH deposit) with the well-known development keys (0: deployer, owner and operator; 1:
 * paymaster signer; 2: bundler; 3: spend recorder) and records addresses and keys in
 * `<stateDir>/deployment.json`; later starts reuse them. A chain whose state was lost is deployed
 * again: on an empty chain the same keys and nonces give the same addresses.
 *
 * @example
 * ```ts
 * const dev = await startDevelopmentChain({ stateDir: ".slotgate-data/chain" });
 * const service = await createChainService({ db, keyEncryptionKey, recoveryKey, chain: dev.chain });
 * ```
 */
export async function startDevelopmentChain(options: AnvilOptions & { stateDir: string }): Promise<DevelopmentChain> {
  mkdirSync(options.stateDir, { recursive: true });
  const anvil = await startAnvil(options);
  const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    const file = join(options.stateDir, "deployment.json");
    const recorded = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as DevelopmentDeployment) : null;
    const chainId = (await provider.getNetwork()).chainId;
    if (chainId !== DEVELOPMENT_CHAIN_ID) throw new ChainServiceError("chain_unavailable", `the development chain answered chain id ${chainId}`);
    if (recorded !== null && recorded.spendRecorderKey === undefined) {
      throw new ChainServiceError(
        "chain_unavailable",
        `the development chain in ${options.stateDir} was deployed by an older Slotgate whose exchange has no spend recorder; start from an empty data directory`,
      );
    }
    if (recorded !== null && (await hasCode(provider, recorded.addresses)) && !(await hasSlotRegistry(provider, recorded.addresses.exchange))) {
      throw new ChainServiceError(
        "chain_unavailable",
        `the development chain in ${options.stateDir} was deployed by an older Slotgate whose exchange has no slot registry (owner, slot wallet, transfer count); start from an empty data directory`,
      );
    }
    if (recorded !== null && (await hasCode(provider, recorded.addresses))) {
      const lock = await readWalletLock(provider, recorded.addresses);
      if (lock.missing !== null) {
        throw new ChainServiceError(
          "chain_unavailable",
          `the development chain in ${options.stateDir} was deployed by an older Slotgate whose slot wallets are not locked (${lock.missing}); start from an empty data directory`,
        );
      }
    }
    let deployment = recorded;
    let deployedNow = false;
    if (deployment === null || !(await hasCode(provider, deployment.addresses))) {
      const keys = {
        operatorKey: developmentKey(0),
        spendRecorderKey: developmentKey(3),
        paymasterSignerKey: developmentKey(1),
        bundlerKey: developmentKey(2),
      };
      const deployer = new Wallet(keys.operatorKey, provider);
      const result = await deploy(deployer, {
        paymasterSigner: new Wallet(keys.paymasterSignerKey).address,
        spendRecorder: new Wallet(keys.spendRecorderKey).address,
        paymasterDeposit: ETH_FOR_PAYMASTER,
      });
      const { xotn, exchange, entryPoint, factory, paymaster } = result;
      const addresses = { xotn, exchange, entryPoint, factory, paymaster };
      if (recorded !== null && JSON.stringify(recorded.addresses) !== JSON.stringify(addresses)) {
        throw new ChainServiceError(
          "chain_unavailable",
          `the development chain in ${options.stateDir} lost the contracts recorded in deployment.json and a new deployment got other addresses; start from an empty data directory`,
        );
      }
      deployment = { chainId: chainId.toString(), addresses, ...keys, deployedAtBlock: await provider.getBlockNumber() };
      writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`, { mode: 0o600 });
      deployedNow = true;
    }
    return {
      anvil,
      deployment,
      deployedNow,
      chain: {
        kind: "rpc",
        rpcUrl: anvil.rpcUrl,
        addresses: deployment.addresses,
        operatorKey: deployment.operatorKey,
        spendRecorderKey: deployment.spendRecorderKey,
        paymasterSignerKey: deployment.paymasterSignerKey,
        bundlerKey: deployment.bundlerKey,
        development: true,
      },
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  } finally {
    provider.destroy();
  }
}
