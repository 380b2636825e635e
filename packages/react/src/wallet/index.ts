/**
 * `@slotgate/react/wallet`: the Slotgate wallet window for React, a second entry of `@slotgate/react` so an app
 * that only logs in does not bundle it. {@link useSlotgateWallet}, inside a `SlotgateProvider`, answers the wallet
 * window's actions (`approvePurchases`, `transfer`, `confirmSlotHandOver`, `setUpPin`, `resetPin`, `recover`,
 * `manageApprovals`) and `{ busy, outcome, error }`. Safe under server rendering (Next.js App Router: this
 * package's files are client components).
 *
 * @example
 * ```tsx
 * import { SlotgateProvider } from "@slotgate/react";
 * import { useSlotgateWallet } from "@slotgate/react/wallet";
 *
 * function SetUpPin() {
 *   const { busy, outcome, error, setUpPin } = useSlotgateWallet();
 *   if (outcome) return <p>Wallet {outcome.address}</p>;
 *   return <button disabled={busy} onClick={() => setUpPin()}>Set up my PIN {error && `(${error.code})`}</button>;
 * }
 *
 * export const App = () => (
 *   <SlotgateProvider options={{ slotgateUrl, clientId, redirectUri }}>
 *     <SetUpPin />
 *   </SlotgateProvider>
 * );
 * ```
 *
 * @packageDocumentation
 */
export { useSlotgateWallet, type SlotgateWalletState } from "./hook.js";
export type { WalletConfirmation, WalletOutcome, WalletWindowOptions } from "@slotgate/client-sdk/wallet";
