import type { SlotgateOptions } from "@slotgate/client-sdk";
import { SlotgateError, SlotgateWallet, type WalletConfirmation, type WalletOutcome, type WalletWindowOptions } from "@slotgate/client-sdk/wallet";
import { useCallback, useContext, useMemo, useRef, useState } from "react";
import { SlotgateOptionsContext } from "../context.js";

/**
 * What {@link useSlotgateWallet} returns: the wallet window's actions and the state of the last one this
 * component started. Each action opens the window synchronously (call it first thing in a click handler),
 * resolves the {@link WalletOutcome} when the user approved and the service did it, and resolves `null` on a
 * failure, which is put in {@link SlotgateWalletState.error} (never thrown).
 *
 * @example
 * ```tsx
 * const { busy, outcome, error, approvePurchases } = useSlotgateWallet();
 * ```
 */
export interface SlotgateWalletState {
  /** True while this component's wallet window is open. */
  busy: boolean;
  /** The last action's outcome when the user approved; null before, while busy and after a failure. */
  outcome: WalletOutcome | null;
  /**
   * The last action's failure, a `SlotgateError`: `confirmation_denied`, `confirmation_failed` (`reason`: the
   * service's code), `popup_blocked`, `popup_closed`, `wallet_timeout` or `invalid_options`; cleared by the next action.
   */
  error: SlotgateError | null;
  /** `SlotgateWallet.approvePurchases`: the user approves what your backend's `createWalletConfirmation` described. */
  approvePurchases(confirmation: WalletConfirmation, options?: WalletWindowOptions): Promise<WalletOutcome | null>;
  /** `SlotgateWallet.transfer`: the user confirms a token transfer. */
  transfer(confirmation: WalletConfirmation, options?: WalletWindowOptions): Promise<WalletOutcome | null>;
  /** `SlotgateWallet.confirmSlotHandOver`: the user confirms handing a slot over. */
  confirmSlotHandOver(confirmation: WalletConfirmation, options?: WalletWindowOptions): Promise<WalletOutcome | null>;
  /** `SlotgateWallet.setUpPin`: the service's PIN set-up page; the outcome has the wallet `address`. */
  setUpPin(options?: WalletWindowOptions): Promise<WalletOutcome | null>;
  /** `SlotgateWallet.resetPin`: the service's PIN reset page. */
  resetPin(options?: WalletWindowOptions): Promise<WalletOutcome | null>;
  /** `SlotgateWallet.recover`: the service's wallet recovery page. */
  recover(options?: WalletWindowOptions): Promise<WalletOutcome | null>;
  /** `SlotgateWallet.manageApprovals`: the service's page where the user reviews and revokes approvals. */
  manageApprovals(options?: WalletWindowOptions): Promise<WalletOutcome | null>;
}

/**
 * One `SlotgateWallet` per provider options: every component under a provider shares it, so a second window
 * while one is open focuses that one (or rejects `invalid_options`) as `SlotgateWallet` does.
 */
const wallets = new WeakMap<SlotgateOptions, SlotgateWallet>();

function walletOf(options: SlotgateOptions): SlotgateWallet {
  let wallet = wallets.get(options);
  if (!wallet) {
    const { slotgateUrl, clientId, redirectUri, popupWidth, popupHeight } = options;
    wallet = new SlotgateWallet({ slotgateUrl, clientId, redirectUri, popupWidth, popupHeight });
    wallets.set(options, wallet);
  }
  return wallet;
}

/**
 * The Slotgate wallet window for the components under a `SlotgateProvider` (from `@slotgate/react`), made from
 * the provider's `options` (`slotgateUrl`, `clientId`, `redirectUri`, popup size). The `SlotgateWallet` is created
 * on the first action, in the browser, never while rendering, so the hook is safe under server rendering; its
 * state starts `{ busy: false, outcome: null, error: null }` on the server and in the browser alike.
 *
 * A separate entry (`@slotgate/react/wallet`), so an app that only logs in does not bundle the wallet window.
 * Your `redirectUri` page relays a result when your page's Cross-Origin-Opener-Policy severs the window: call
 * `handleWalletCallback()` there (`SlotgateProvider` relays login results only).
 *
 * @throws Error when no `SlotgateProvider` is above the component
 *
 * @example
 * ```tsx
 * "use client";
 * import { useSlotgateWallet } from "@slotgate/react/wallet";
 *
 * // `confirmation`: your backend's createWalletConfirmation answer, fetched before the click.
 * export function ApproveButton({ confirmation }: { confirmation: { id: string } }) {
 *   const { busy, outcome, error, approvePurchases } = useSlotgateWallet();
 *   if (outcome) return <p>Approved: {outcome.txHash ?? outcome.writeId}</p>;
 *   return (
 *     <>
 *       <button disabled={busy} onClick={() => approvePurchases(confirmation)}>Approve purchases</button>
 *       {error?.code === "confirmation_denied" && <p>You declined.</p>}
 *     </>
 *   );
 * }
 * ```
 */
export function useSlotgateWallet(): SlotgateWalletState {
  const options = useContext(SlotgateOptionsContext);
  if (!options) throw new Error("useSlotgateWallet() must be called inside <SlotgateProvider>");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<WalletOutcome | null>(null);
  const [error, setError] = useState<SlotgateError | null>(null);
  const latest = useRef(0);

  const run = useCallback(
    async (open: (wallet: SlotgateWallet) => Promise<WalletOutcome>): Promise<WalletOutcome | null> => {
      const call = ++latest.current;
      let promise: Promise<WalletOutcome>;
      try {
        promise = open(walletOf(options)); // opens the window synchronously: keep it first in the click
      } catch (failure) {
        promise = Promise.reject(failure);
      }
      setBusy(true);
      setOutcome(null);
      setError(null);
      try {
        const result = await promise;
        if (call === latest.current) setOutcome(result);
        return result;
      } catch (failure) {
        if (call === latest.current) {
          setError(failure instanceof SlotgateError ? failure : new SlotgateError("confirmation_failed", String(failure), "client_error"));
        }
        return null;
      } finally {
        if (call === latest.current) setBusy(false);
      }
    },
    [options],
  );

  return useMemo<SlotgateWalletState>(
    () => ({
      busy,
      outcome,
      error,
      approvePurchases: (confirmation, o) => run((w) => w.approvePurchases(confirmation, o)),
      transfer: (confirmation, o) => run((w) => w.transfer(confirmation, o)),
      confirmSlotHandOver: (confirmation, o) => run((w) => w.confirmSlotHandOver(confirmation, o)),
      setUpPin: (o) => run((w) => w.setUpPin(o)),
      resetPin: (o) => run((w) => w.resetPin(o)),
      recover: (o) => run((w) => w.recover(o)),
      manageApprovals: (o) => run((w) => w.manageApprovals(o)),
    }),
    [busy, outcome, error, run],
  );
}
