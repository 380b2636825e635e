import { ContractFactory, type JsonRpcProvider, type Signer } from "ethers";
import { PRE_LOCK_FACTORY_BYTECODE } from "../fixtures/pre-lock-factory.js";

// How a test makes a deployed slot wallet one the hand-over must refuse (`slot_wallet_unsafe`,
// docs/decisions/marketplace.md), by writing its storage on Anvil. Shared by the chain-service's
// back-door test and the server's HTTP test of the same refusal (packages/server/test/integration).

/** The ERC-1967 slot that holds a proxy's implementation address. */
export const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

/**
 * Replaces the implementation of slot wallet `wallet` (its ERC-1967 slot) by the wallet code of Slotgate
 * before issue 28, as its factory made it (deployed here by `deployer`, which pays the gas): a wallet that
 * reads the same owner, makes any call and can be upgraded by its owner. Every check of the hand-over but
 * the implementation's passes; it refuses `foreign_implementation`. Answers the foreign implementation's
 * address.
 */
export async function runForeignImplementation(provider: JsonRpcProvider, deployer: Signer, entryPoint: string, wallet: string): Promise<string> {
  const preLock = await new ContractFactory(
    ["constructor(address entryPoint)", "function accountImplementation() view returns (address)"],
    PRE_LOCK_FACTORY_BYTECODE,
    deployer,
  ).deploy(entryPoint);
  const foreign = await (preLock as unknown as { accountImplementation(): Promise<string> }).accountImplementation();
  await provider.send("anvil_setStorageAt", [wallet, IMPLEMENTATION_SLOT, `0x${foreign.slice(2).padStart(64, "0")}`]);
  return foreign;
}

/**
 * Makes slot wallet `wallet` unrestricted, as a user's W_SALT wallet is: clears its `isSlotWallet` flag
 * (storage slot 0, packed after Initializable's two bytes and the owner's twenty); the implementation and
 * the owner stay. The hand-over refuses it `not_a_slot_wallet`.
 */
export async function clearSlotWalletFlag(provider: JsonRpcProvider, wallet: string): Promise<void> {
  const packed = BigInt(await provider.getStorage(wallet, 0n));
  const cleared = packed & ~(0xffn << (22n * 8n));
  await provider.send("anvil_setStorageAt", [wallet, "0x0", `0x${cleared.toString(16).padStart(64, "0")}`]);
}
