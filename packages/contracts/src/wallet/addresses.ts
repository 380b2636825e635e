import { AbiCoder, Interface, concat, getBytes, getCreate2Address, getCreateAddress, keccak256, toBeHex } from "ethers";
import { ContractsError } from "../errors.js";
import { erc1967ProxyBytecode } from "../generated/erc1967Proxy.js";
import { slotgateAccountAbi } from "../generated/slotgateAccount.js";
import { slotgateAccountFactoryAbi } from "../generated/slotgateAccountFactory.js";
import { requireAddress } from "../validate.js";

/**
 * CREATE2 salt of a user's wallet (spec 2.6 `W_SALT`): the user's canonical on-chain identity.
 * @see {@link computeWalletAddress}
 */
export const W_SALT = 0n;

/**
 * CREATE2 salt of a user's slot (content) wallet (spec 2.6 `C_SALT`, the `content_address`), same owner EOA.
 * @see {@link computeWalletAddress}
 */
export const C_SALT = 1n;

/**
 * CREATE2 salt of slot `metaIdx` of `cuid` for every slot but a user's first (which uses the user's
 * {@link C_SALT} wallet): `uint256(keccak256(abi.encode("slotgate.slot", cuid, metaIdx)))`, with the
 * owner EOA that opened the slot. After a sale or a recovery the owner changes and the address stays:
 * keep the address, never recompute it.
 *
 * @param cuid - the slot's cuid
 * @param metaIdx - the slot number within the cuid
 * @returns the salt
 *
 * @example
 * ```ts
 * const slotWallet = computeWalletAddress(addresses.factory, ownerEoa, slotSalt("game-1", 3n));
 * ```
 */
export function slotSalt(cuid: string, metaIdx: bigint): bigint {
  if (typeof cuid !== "string" || cuid === "") throw new ContractsError("invalid_argument", "cuid must be a non-empty string");
  if (typeof metaIdx !== "bigint" || metaIdx < 0n || metaIdx > MAX_SALT) throw new ContractsError("invalid_argument", "metaIdx must be a non-negative bigint");
  return BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(["string", "string", "uint256"], ["slotgate.slot", cuid, metaIdx])));
}

const MAX_SALT = (1n << 256n) - 1n;
const accountInterface = new Interface(slotgateAccountAbi);
const factoryInterface = new Interface(slotgateAccountFactoryAbi);

function checkedSalt(salt: bigint): bigint {
  if (typeof salt !== "bigint" || salt < 0n || salt > MAX_SALT) {
    throw new ContractsError("invalid_argument", "salt must be a bigint between 0 and 2^256-1");
  }
  return salt;
}

/**
 * The address of the wallet implementation a {@link deploy}ed factory created in its constructor
 * (the factory's first CREATE, nonce 1).
 *
 * @param factory - the SlotgateAccountFactory address
 * @returns the SlotgateAccount implementation address
 *
 * @example
 * ```ts
 * const implementation = computeAccountImplementationAddress(addresses.factory);
 * ```
 */
export function computeAccountImplementationAddress(factory: string): string {
  return getCreateAddress({ from: requireAddress(factory, "factory"), nonce: 1 });
}

/**
 * The CREATE2 address of the wallet of (`owner`, `salt`), computed off-chain. It equals
 * `factory["getAddress(address,uint256)"](owner, salt)` on chain and is where the first UserOperation's
 * `initCode` deploys the wallet (spec 2.6).
 *
 * @param factory - the SlotgateAccountFactory address
 * @param owner - the owner EOA
 * @param salt - {@link W_SALT} for the user wallet, {@link C_SALT} for the slot wallet
 * @returns the checksummed wallet address
 *
 * @example
 * ```ts
 * const userWallet = computeWalletAddress(addresses.factory, ownerEoa, W_SALT);
 * const contentAddress = computeWalletAddress(addresses.factory, ownerEoa, C_SALT);
 * ```
 */
export function computeWalletAddress(factory: string, owner: string, salt: bigint): string {
  // A pure function of its arguments, called several times per operation: computed once per (factory, owner, salt).
  const key = typeof salt === "bigint" ? `${factory}:${owner}:${salt}` : undefined;
  const known = key === undefined ? undefined : walletAddresses.get(key);
  if (known !== undefined) return known;
  const factoryAddress = requireAddress(factory, "factory");
  const ownerAddress = requireAddress(owner, "owner");
  const initialize = accountInterface.encodeFunctionData("initialize", [ownerAddress]);
  const constructorArgs = getBytes(AbiCoder.defaultAbiCoder().encode(["address", "bytes"], [computeAccountImplementationAddress(factoryAddress), initialize]));
  const initCode = new Uint8Array(PROXY_BYTECODE.length + constructorArgs.length);
  initCode.set(PROXY_BYTECODE);
  initCode.set(constructorArgs, PROXY_BYTECODE.length);
  const address = getCreate2Address(factoryAddress, toBeHex(checkedSalt(salt), 32), keccak256(initCode));
  if (key !== undefined) {
    if (walletAddresses.size >= WALLET_ADDRESS_CACHE) walletAddresses.delete(walletAddresses.keys().next().value as string);
    walletAddresses.set(key, address);
  }
  return address;
}

/** The proxy's creation code as bytes, converted once (it is most of what a wallet address hashes). */
const PROXY_BYTECODE = getBytes(erc1967ProxyBytecode);
/** The wallet addresses computed last, by their exact arguments (oldest dropped first). */
const walletAddresses = new Map<string, string>();
const WALLET_ADDRESS_CACHE = 4096;

/** The two wallets of one owner EOA (spec 2.6). */
export interface WalletAddresses {
  /** The user's wallet (salt {@link W_SALT}). */
  userWallet: string;
  /** The slot / content wallet, `content_address` (salt {@link C_SALT}). */
  slotWallet: string;
}

/**
 * Both wallet addresses of an owner EOA: the user wallet (W_SALT) and the slot wallet (C_SALT).
 *
 * @param factory - the SlotgateAccountFactory address
 * @param owner - the owner EOA
 * @returns the user wallet and the slot wallet
 *
 * @example
 * ```ts
 * const { userWallet, slotWallet } = computeWalletAddresses(addresses.factory, ownerEoa);
 * ```
 */
export function computeWalletAddresses(factory: string, owner: string): WalletAddresses {
  return {
    userWallet: computeWalletAddress(factory, owner, W_SALT),
    slotWallet: computeWalletAddress(factory, owner, C_SALT),
  };
}

/**
 * The `initCode` of a UserOperation that deploys the wallet of (`owner`, `salt`): the factory address
 * followed by `createAccount(owner, salt)`. Use it only on the wallet's first operation.
 *
 * @param factory - the SlotgateAccountFactory address
 * @param owner - the owner EOA
 * @param salt - the CREATE2 salt
 * @returns hex initCode
 *
 * @example
 * ```ts
 * const initCode = encodeInitCode(addresses.factory, ownerEoa, W_SALT);
 * ```
 */
export function encodeInitCode(factory: string, owner: string, salt: bigint): string {
  const factoryAddress = requireAddress(factory, "factory");
  const call = factoryInterface.encodeFunctionData("createAccount", [requireAddress(owner, "owner"), checkedSalt(salt)]);
  return concat([factoryAddress, call]);
}
