/**
 * `@slotgate/client-sdk/wallet`: the Slotgate wallet window. The user confirms, on the service's own page,
 * what your backend asked for with `createWalletConfirmation` (approving purchases, a token transfer, a slot
 * hand-over), or manages their wallet (PIN set-up and reset, recovery, approvals). A second entry point, so an
 * app that only logs in never downloads it. No runtime dependencies.
 *
 * @example
 * ```ts
 * import { SlotgateWallet } from "@slotgate/client-sdk/wallet";
 * const wallet = new SlotgateWallet({ slotgateUrl, clientId, redirectUri });
 * const confirmation = await createOnYourBackend(); // the createWalletConfirmation answer, before the click
 * button.onclick = async () => console.log((await wallet.approvePurchases(confirmation)).txHash);
 * ```
 *
 * @packageDocumentation
 */
export {
  SlotgateWallet,
  type ConfirmationKind,
  type SlotgateWalletOptions,
  type WalletConfirmation,
  type WalletOutcome,
  type WalletPageAction,
  type WalletWindowOptions,
} from "./slotgate-wallet.js";
export type { WalletStatus } from "./message.js";
export { handleWalletCallback, type HandleWalletCallbackOptions } from "./callback.js";
export { SlotgateError, type SlotgateErrorCode } from "../errors.js";
