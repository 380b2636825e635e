import { Contract, type ContractRunner } from "ethers";
import { type ContentTokenExchangeContract, contentTokenExchangeAbi } from "../generated/contentTokenExchange.js";
import { type EntryPointContract, entryPointAbi } from "../generated/entryPoint.js";
import { type SlotgateAccountContract, slotgateAccountAbi } from "../generated/slotgateAccount.js";
import { type SlotgateAccountFactoryContract, slotgateAccountFactoryAbi } from "../generated/slotgateAccountFactory.js";
import { type SlotgatePaymasterContract, slotgatePaymasterAbi } from "../generated/slotgatePaymaster.js";
import { type XotnContract, xotnAbi } from "../generated/xotn.js";
import { requireAddress } from "../validate.js";

/** Addresses of a deployed Slotgate system. */
export interface SlotgateAddresses {
  /** XOTN ERC-20. */
  xotn: string;
  /** ContentTokenExchange (the "dex": purchases, spending, release, slot registry). */
  exchange: string;
  /** ERC-4337 v0.6 EntryPoint. */
  entryPoint: string;
  /** SlotgateAccountFactory. */
  factory: string;
  /** SlotgatePaymaster (verifying paymaster). */
  paymaster: string;
}

/** Typed ethers handles of a deployed Slotgate system. */
export interface SlotgateContracts {
  xotn: XotnContract;
  exchange: ContentTokenExchangeContract;
  entryPoint: EntryPointContract;
  factory: SlotgateAccountFactoryContract;
  paymaster: SlotgatePaymasterContract;
}

/**
 * Typed ethers v6 handles of every contract of a deployed system, bound to `runner` (a provider for
 * reads, a signer for transactions).
 *
 * @param addresses - the addresses {@link deploy} returned
 * @param runner - provider or signer
 * @returns the handles
 *
 * @example
 * ```ts
 * const { exchange } = connectContracts(addresses, platformSigner);
 * const [balance, used] = await exchange.balance_adex(slotWallet, "game-1");
 * ```
 */
export function connectContracts(addresses: SlotgateAddresses, runner: ContractRunner | null): SlotgateContracts {
  const at = <T>(address: string, abi: ConstructorParameters<typeof Contract>[1], what: string) =>
    new Contract(requireAddress(address, what), abi, runner) as unknown as T;
  return {
    xotn: at<XotnContract>(addresses.xotn, xotnAbi, "xotn"),
    exchange: at<ContentTokenExchangeContract>(addresses.exchange, contentTokenExchangeAbi, "exchange"),
    entryPoint: at<EntryPointContract>(addresses.entryPoint, entryPointAbi, "entryPoint"),
    factory: at<SlotgateAccountFactoryContract>(addresses.factory, slotgateAccountFactoryAbi, "factory"),
    paymaster: at<SlotgatePaymasterContract>(addresses.paymaster, slotgatePaymasterAbi, "paymaster"),
  };
}

/**
 * A typed handle of one SlotgateAccount wallet (owner(), changeOwner, execute, ...).
 *
 * @param wallet - the wallet address
 * @param runner - provider or signer
 * @returns the handle
 *
 * @example
 * ```ts
 * const owner = await connectAccount(userWallet, provider).owner();
 * ```
 */
export function connectAccount(wallet: string, runner: ContractRunner | null): SlotgateAccountContract {
  return new Contract(requireAddress(wallet, "wallet"), slotgateAccountAbi, runner) as unknown as SlotgateAccountContract;
}
