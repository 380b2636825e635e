import { type Provider, ZeroAddress, getAddress } from "ethers";
import { type SlotgateAddresses, connectAccount, connectContracts } from "@slotgate/contracts";
import { ChainServiceError } from "../errors.js";

/** The ERC-1967 slot that holds a proxy's implementation address. */
const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

/**
 * @internal Whether a deployment's slot wallets can be handed over without anything their owner set
 * outliving the sale (docs/decisions/marketplace.md): its factory's wallet implementation has no
 * upgrade path and restricts slot wallets (`isSlotWallet`), and its exchange ends consents at every owner
 * change (`owner_epoch`). A deployment made before issue 28 has neither.
 */
export interface WalletLock {
  /** The factory's wallet implementation, which every wallet it made runs for all its life. */
  implementation: string;
  /** The exchange keeps consents per owner epoch (`owner_epoch`). */
  ownerEpochs: boolean;
  /** Null when slot wallets can be sold; otherwise what the deployment lacks. */
  missing: string | null;
}

/** Whether `call` answers rather than reverting (a contract without the function reverts). */
const answers = (call: () => Promise<unknown>): Promise<boolean> =>
  call().then(
    () => true,
    () => false,
  );

/**
 * @internal Reads the deployment's {@link WalletLock} from the chain (three calls).
 */
export async function readWalletLock(provider: Provider, addresses: SlotgateAddresses): Promise<WalletLock> {
  const { factory, exchange } = connectContracts(addresses, provider);
  const implementation = getAddress(await factory.accountImplementation());
  const [locked, ownerEpochs] = await Promise.all([
    answers(() => connectAccount(implementation, provider).isSlotWallet()),
    answers(() => exchange.owner_epoch(ZeroAddress)),
  ]);
  const missing = [
    ...(locked ? [] : ["its wallets can be upgraded by their owners and make any call"]),
    ...(ownerEpochs ? [] : ["its exchange keeps purchase consents across owner changes"]),
  ];
  return { implementation, ownerEpochs, missing: missing.length === 0 ? null : missing.join("; ") };
}

/**
 * @internal Refuses (`slot_wallet_unsafe`, before anything is signed) the hand-over of a slot wallet the
 * chain cannot show to be clean: the deployment must lock slot wallets, and a deployed wallet must run
 * the factory's implementation (its ERC-1967 slot; no wallet of this implementation can change it) as a
 * slot wallet. Such a wallet never could approve anyone on XOTN but the exchange, and the sale itself
 * ends its exchange consents and zeroes that approval. A wallet not deployed yet is clean: the sale's
 * own initCode deploys it from the factory, as a slot wallet.
 */
export async function requireCleanSlotWallet(ctx: { provider: Provider; walletLock: WalletLock }, wallet: string): Promise<void> {
  // What the caller can do: nothing about this wallet makes a retry succeed, so say what to do instead.
  const thisSlot = "this slot cannot be sold and stays with its seller; retrying does not help: list another slot instead";
  const refuse = (reason: string, message: string, whatToDo: string): never => {
    throw new ChainServiceError("slot_wallet_unsafe", `${message}; nothing was moved; ${whatToDo}`, { details: { reason } });
  };
  if (ctx.walletLock.missing !== null) {
    refuse(
      "deployment_predates_lock",
      `this deployment was made before slot wallets were locked (${ctx.walletLock.missing})`,
      "no slot of it can be sold until its operator deploys this version's contracts for a new deployment (docs/decisions/marketplace.md)",
    );
  }
  if ((await ctx.provider.getCode(wallet)) === "0x") return;
  const implementation = getAddress(`0x${(await ctx.provider.getStorage(wallet, IMPLEMENTATION_SLOT)).slice(-40)}`);
  if (implementation !== ctx.walletLock.implementation) {
    refuse("foreign_implementation", `the slot wallet ${wallet} runs code (${implementation}) other than the factory's wallet implementation`, thisSlot);
  }
  if (!(await connectAccount(wallet, ctx.provider).isSlotWallet())) {
    refuse("not_a_slot_wallet", `the wallet ${wallet} is not restricted to the calls a slot needs`, thisSlot);
  }
}
