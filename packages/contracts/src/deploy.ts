import { type BaseContract, ContractFactory, type InterfaceAbi, MaxUint256, type Signer } from "ethers";
import { type SlotgateAddresses, connectContracts } from "./contracts/connect.js";
import { ContractsError } from "./errors.js";
import { contentTokenExchangeAbi, contentTokenExchangeBytecode } from "./generated/contentTokenExchange.js";
import { entryPointAbi, entryPointBytecode } from "./generated/entryPoint.js";
import { slotgateAccountFactoryAbi, slotgateAccountFactoryBytecode } from "./generated/slotgateAccountFactory.js";
import { slotgatePaymasterAbi, slotgatePaymasterBytecode } from "./generated/slotgatePaymaster.js";
import { xotnAbi, xotnBytecode } from "./generated/xotn.js";
import { requireAddress, requireNonNegative } from "./validate.js";
import { computeAccountImplementationAddress } from "./wallet/addresses.js";

/** Options of {@link deploy}. */
export interface DeployOptions {
  /** Address of the platform key that signs paymaster sponsorships (`verifyingSigner`). Required. */
  paymasterSigner: string;
  /**
   * The exchange's operator: the platform's service key that registers providers, sets release flags,
   * records slot owners, buys within a slot's consent (`buy_for`) and releases.
   * @default the deployer's address
   */
  operator?: string;
  /**
   * The exchange's spend recorder: the platform key that records spending (`increase_used`). Give it
   * its own key so a leak of the operator key cannot rewrite spending records and the other way round.
   * @default the deployer's address
   */
  spendRecorder?: string;
  /**
   * Platform treasury: receives the initial XOTN supply and the 15% fee, and funds release settlements.
   * @default the deployer's address
   */
  treasury?: string;
  /** XOTN minted to the treasury at deployment, in wei. @default 1_000_000_000n * 10n ** 18n */
  initialSupply?: bigint;
  /** Wei deposited into the EntryPoint for the paymaster (pays users' gas). @default 10n ** 18n (1 ether) */
  paymasterDeposit?: bigint;
  /** Optional paymaster stake (external bundlers require one). @default none */
  paymasterStake?: { amount: bigint; unstakeDelaySec: number };
  /**
   * XOTN allowance the treasury gives the exchange for release settlements. Only applied when the
   * treasury is the deployer (otherwise the treasury must approve the exchange itself).
   * @default MaxUint256 when the treasury is the deployer
   */
  releaseAllowance?: bigint;
  /** Use an EntryPoint already on the chain (e.g. the canonical v0.6 one) instead of deploying one. */
  entryPoint?: string;
}

/** What {@link deploy} returns: the addresses plus the facts the server should record. */
export interface DeployResult extends SlotgateAddresses {
  /** SlotgateAccount implementation all wallets proxy to (no upgrade path: they run it for all their life). */
  accountImplementation: string;
  /**
   * The deployer, owner of XOTN, the exchange and the paymaster (move the exchange's ownership to a
   * multisig with `transferOwnership` + `acceptOwnership`).
   */
  deployer: string;
  /** The exchange's operator. */
  operator: string;
  /** The exchange's spend recorder. */
  spendRecorder: string;
  /** The treasury. */
  treasury: string;
  /** The paymaster's verifying signer. */
  paymasterSigner: string;
  /** Chain id the system lives on. */
  chainId: bigint;
}

async function step<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (cause) {
    throw new ContractsError("deploy_failed", `deploy: ${what} failed`, { cause });
  }
}

async function deployContract(signer: Signer, what: string, abi: InterfaceAbi, bytecode: string, args: unknown[]): Promise<string> {
  return step(`deploying ${what}`, async () => {
    const contract: BaseContract = await new ContractFactory(abi, bytecode, signer).deploy(...args);
    await contract.waitForDeployment();
    return contract.getAddress();
  });
}

/**
 * Deploys and wires the whole Slotgate system with one signer: XOTN (initial supply to the treasury),
 * the ContentTokenExchange, the ERC-4337 v0.6 EntryPoint (unless one is given), the account factory
 * and the verifying paymaster with its EntryPoint deposit. The signer becomes the owner of XOTN, the
 * exchange and the paymaster; the exchange's operator and spend recorder are the given keys (the
 * deployer by default). Transactions are sent one after another and each is awaited.
 *
 * @param signer - deployer, connected to a provider
 * @param options - paymaster signer and optional treasury, supply, deposit, stake, EntryPoint
 * @returns the addresses and deployment facts
 *
 * @example
 * ```ts
 * import { deploy } from "@slotgate/contracts";
 *
 * const addresses = await deploy(deployer, {
 *   paymasterSigner: platformSigner.address,
 *   operator: operatorKey.address,
 *   spendRecorder: spendRecorderKey.address,
 * });
 * console.log(addresses.exchange, addresses.entryPoint);
 * ```
 */
export async function deploy(signer: Signer, options: DeployOptions): Promise<DeployResult> {
  if (signer.provider == null) throw new ContractsError("invalid_argument", "signer must be connected to a provider");
  const paymasterSigner = requireAddress(options.paymasterSigner, "paymasterSigner");
  const deployer = await step("reading the deployer address", () => signer.getAddress());
  const treasury = requireAddress(options.treasury ?? deployer, "treasury");
  const operator = requireAddress(options.operator ?? deployer, "operator");
  const spendRecorder = requireAddress(options.spendRecorder ?? deployer, "spendRecorder");
  const initialSupply = requireNonNegative(options.initialSupply ?? 1_000_000_000n * 10n ** 18n, "initialSupply");
  const paymasterDeposit = requireNonNegative(options.paymasterDeposit ?? 10n ** 18n, "paymasterDeposit");
  const releaseAllowance = requireNonNegative(options.releaseAllowance ?? MaxUint256, "releaseAllowance");
  const { chainId } = await step("reading the chain id", () => (signer.provider as NonNullable<Signer["provider"]>).getNetwork());

  const xotn = await deployContract(signer, "XOTN", xotnAbi, xotnBytecode, [treasury, initialSupply]);
  const exchange = await deployContract(signer, "ContentTokenExchange", contentTokenExchangeAbi, contentTokenExchangeBytecode, [
    xotn,
    treasury,
    operator,
    spendRecorder,
  ]);
  const entryPoint =
    options.entryPoint === undefined
      ? await deployContract(signer, "EntryPoint", entryPointAbi, entryPointBytecode, [])
      : requireAddress(options.entryPoint, "entryPoint");
  const factory = await deployContract(signer, "SlotgateAccountFactory", slotgateAccountFactoryAbi, slotgateAccountFactoryBytecode, [
    entryPoint,
    xotn,
    exchange,
  ]);
  const paymaster = await deployContract(signer, "SlotgatePaymaster", slotgatePaymasterAbi, slotgatePaymasterBytecode, [entryPoint, paymasterSigner]);

  const contracts = connectContracts({ xotn, exchange, entryPoint, factory, paymaster }, signer);
  if (paymasterDeposit > 0n) {
    await step("funding the paymaster deposit", async () => {
      await (await contracts.paymaster.deposit({ value: paymasterDeposit })).wait();
    });
  }
  if (options.paymasterStake !== undefined) {
    const { amount, unstakeDelaySec } = options.paymasterStake;
    await step("staking the paymaster", async () => {
      await (await contracts.paymaster.addStake(unstakeDelaySec, { value: requireNonNegative(amount, "paymasterStake.amount") })).wait();
    });
  }
  if (treasury === deployer && releaseAllowance > 0n) {
    await step("approving release settlements", async () => {
      await (await contracts.xotn.approve(exchange, releaseAllowance)).wait();
    });
  }

  return {
    xotn,
    exchange,
    entryPoint,
    factory,
    paymaster,
    accountImplementation: computeAccountImplementationAddress(factory),
    deployer,
    operator,
    spendRecorder,
    treasury,
    paymasterSigner,
    chainId,
  };
}
