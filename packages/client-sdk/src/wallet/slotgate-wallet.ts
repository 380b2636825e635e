import { WALLET_CHANNEL, WALLET_PATH, WALLET_TIMEOUT_MS } from "../constants.js";
import { SlotgateError } from "../errors.js";
import { cleanReason } from "../login/message.js";
import { randomState } from "../login/state.js";
import { type ResolvedOptions, type SlotgateOptions, resolveOptions } from "../options.js";
import { awaitPopupResult } from "../popup/await-result.js";
import { openPopup } from "../popup/open.js";
import { readWalletMessage } from "./message.js";

/**
 * Options of the {@link SlotgateWallet} constructor: the same client settings as `Slotgate`'s.
 *
 * @example
 * ```ts
 * const options: SlotgateWalletOptions = {
 *   slotgateUrl: "https://auth.slotgate.example",
 *   clientId: "sg_0123456789abcdefghijklmn",
 *   redirectUri: "https://game.example/slotgate-callback.html",
 * };
 * ```
 */
export type SlotgateWalletOptions = Pick<SlotgateOptions, "slotgateUrl" | "clientId" | "redirectUri" | "popupWidth" | "popupHeight">;

/**
 * Options of one wallet window.
 *
 * @example
 * ```ts
 * await wallet.setUpPin({ timeout: 120_000 });
 * ```
 */
export interface WalletWindowOptions {
  /**
   * How long to wait for the window's answer, in milliseconds, before rejecting with `wallet_timeout`.
   * @default 600000
   */
  timeout?: number;
}

/**
 * The kinds of confirmation your backend creates with `createWalletConfirmation`.
 *
 * @example
 * ```ts
 * const kind: ConfirmationKind = "token_transfer"; // wallet.transfer(confirmation)
 * ```
 */
export type ConfirmationKind = "approve_purchases" | "token_transfer" | "slot_hand_over";

/**
 * What your backend got from `createWalletConfirmation` (`POST /v1/wallet/confirmations`): the whole answer, or
 * its `id`. When `window_url` is given it must be `{slotgateUrl}/wallet/confirm/{id}` (the service's answer, when
 * `slotgateUrl` is its issuer); when `kind` is given it must match the method called.
 *
 * @example
 * ```ts
 * const confirmation: WalletConfirmation = await (await fetch("/api/buy", { method: "POST" })).json();
 * ```
 */
export type WalletConfirmation = string | { id: string; window_url?: string; kind?: string };

/**
 * The page-started wallet actions (`/wallet/{action}`), the `action` of their {@link WalletOutcome}.
 *
 * @example
 * ```ts
 * const { action } = await wallet.setUpPin(); // "pin-setup"
 * ```
 */
export type WalletPageAction = "pin-setup" | "pin-reset" | "recover" | "approvals";

/**
 * What a wallet window resolves to: the user approved, and the service did it. A field the action does not
 * produce is `null` (a PIN set-up has no confirmation; a recovery has an `address`).
 *
 * @example
 * ```ts
 * const { txHash, writeId }: WalletOutcome = await wallet.transfer(confirmation);
 * ```
 */
export interface WalletOutcome {
  status: "approved";
  /** The window's action: a confirmation kind, or a page action such as `pin-setup`. */
  action: string;
  /** The confirmation's id, for the confirmation windows. */
  confirmationId: string | null;
  /** The transaction hash, when the action wrote on chain and it is known. */
  txHash: string | null;
  /** The service's write id (look it up on your backend while `txHash` is still null). */
  writeId: string | null;
  /** The wallet address, for the actions that set one up or recover it. */
  address: string | null;
}

const KIND_METHOD: Record<ConfirmationKind, string> = {
  approve_purchases: "approvePurchases",
  token_transfer: "transfer",
  slot_hand_over: "confirmSlotHandOver",
};

/**
 * The Slotgate wallet window for a browser app: the user confirms, with their PIN on the service's own page, what
 * your backend asked for (`createWalletConfirmation`), or manages their wallet (PIN, recovery, approvals). Each
 * method opens a popup on the service, synchronously (call it in the click handler), with a fresh `state`, and
 * settles once: the {@link WalletOutcome} when the user approved and the service did it, else a
 * `SlotgateError`: `confirmation_denied`, `confirmation_failed` (`reason`: the service's error code),
 * `popup_blocked`, `popup_closed`, `wallet_timeout` or `invalid_options`.
 *
 * A window's answer is taken only from the service origin and that window, or, when your page's
 * Cross-Origin-Opener-Policy severed the window, from your `redirectUri` page over
 * `BroadcastChannel("slotgate_wallet")` ({@link handleWalletCallback}); always with this call's `state`.
 *
 * @example
 * ```ts
 * import { SlotgateWallet } from "@slotgate/client-sdk/wallet";
 *
 * const wallet = new SlotgateWallet({ slotgateUrl, clientId, redirectUri });
 * // Before the click: your backend's createWalletConfirmation answer (it waits 10 minutes).
 * const confirmation = await (await fetch("/api/purchases/approve", { method: "POST" })).json();
 * buyButton.onclick = async () => {
 *   const { txHash } = await wallet.approvePurchases(confirmation); // first thing in the click
 * };
 * ```
 */
export class SlotgateWallet {
  readonly #options: ResolvedOptions;
  #pending: { key: string; popup: Window; promise: Promise<WalletOutcome> } | undefined;

  /**
   * Validates the options (throws `SlotgateError` with code `invalid_options` naming the field). Touches no
   * `window` API, so it is safe during server rendering.
   *
   * @example
   * ```ts
   * const wallet = new SlotgateWallet({ slotgateUrl, clientId, redirectUri, popupWidth: 480 });
   * ```
   */
  constructor(options: SlotgateWalletOptions) {
    this.#options = resolveOptions(options);
  }

  /**
   * Asks the user to approve the purchases your backend described (`kind: "approve_purchases"`: a `cuid` may
   * spend up to `amount`). Call it first thing in the click handler, with a confirmation created before.
   *
   * @example
   * ```ts
   * button.onclick = async () => {
   *   try {
   *     const { txHash } = await wallet.approvePurchases(confirmation);
   *   } catch (error) {
   *     if (error instanceof SlotgateError && error.code === "confirmation_denied") return;
   *     throw error;
   *   }
   * };
   * ```
   */
  approvePurchases(confirmation: WalletConfirmation, options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#confirm("approve_purchases", confirmation, options);
  }

  /**
   * Asks the user to confirm the token transfer your backend described (`kind: "token_transfer"`).
   *
   * @example
   * ```ts
   * const { txHash, writeId } = await wallet.transfer({ id: confirmationId });
   * ```
   */
  transfer(confirmation: WalletConfirmation, options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#confirm("token_transfer", confirmation, options);
  }

  /**
   * Asks the user to confirm handing a slot over to another user (`kind: "slot_hand_over"`).
   *
   * @example
   * ```ts
   * const outcome = await wallet.confirmSlotHandOver(confirmation.id);
   * ```
   */
  confirmSlotHandOver(confirmation: WalletConfirmation, options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#confirm("slot_hand_over", confirmation, options);
  }

  /**
   * Opens the service's PIN set-up page (`/wallet/pin-setup`); resolves when the user has a PIN, with the wallet
   * `address` when the service reports it.
   *
   * @example
   * ```ts
   * setUpButton.onclick = () => wallet.setUpPin().then(({ address }) => show(address));
   * ```
   */
  setUpPin(options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#page("pin-setup", options);
  }

  /**
   * Opens the service's PIN reset page (`/wallet/pin-reset`).
   *
   * @example
   * ```ts
   * await wallet.resetPin();
   * ```
   */
  resetPin(options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#page("pin-reset", options);
  }

  /**
   * Opens the service's wallet recovery page (`/wallet/recover`).
   *
   * @example
   * ```ts
   * const { address } = await wallet.recover();
   * ```
   */
  recover(options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#page("recover", options);
  }

  /**
   * Opens the service's page where the user reviews and revokes spending approvals (`/wallet/approvals`).
   *
   * @example
   * ```ts
   * await wallet.manageApprovals();
   * ```
   */
  manageApprovals(options?: WalletWindowOptions): Promise<WalletOutcome> {
    return this.#page("approvals", options);
  }

  #confirm(kind: ConfirmationKind, confirmation: WalletConfirmation, options: WalletWindowOptions | undefined): Promise<WalletOutcome> {
    const base = `${this.#options.baseUrl}${WALLET_PATH}/confirm/`;
    const c = typeof confirmation === "string" ? { id: confirmation } : confirmation;
    const id = c?.id;
    if (typeof id !== "string" || !/^[\w-]{22,64}$/.test(id)) return invalid("confirmation must be its id or the createWalletConfirmation answer");
    if (c.kind !== undefined && c.kind !== kind) {
      return invalid(`confirmation is a ${c.kind}: call ${KIND_METHOD[c.kind as ConfirmationKind] ?? "the method of its kind"}()`);
    }
    const url = base + id;
    if (c.window_url !== undefined && c.window_url !== url) return invalid(`confirmation.window_url must be ${url}`);
    return this.#open(url, {}, options, id);
  }

  #page(action: WalletPageAction, options: WalletWindowOptions | undefined): Promise<WalletOutcome> {
    const o = this.#options;
    return this.#open(`${o.baseUrl}${WALLET_PATH}/${action}`, { client_id: o.clientId, redirect_uri: o.redirectUri }, options);
  }

  #open(url: string, query: Record<string, string>, options: WalletWindowOptions | undefined, confirmationId?: string): Promise<WalletOutcome> {
    if (this.#pending) {
      try {
        this.#pending.popup.focus();
      } catch {}
      return this.#pending.key === url ? this.#pending.promise : invalid("another wallet window is open");
    }
    const timeout = options?.timeout ?? WALLET_TIMEOUT_MS;
    if (!Number.isInteger(timeout) || timeout <= 0 || timeout > 2_147_483_647) return invalid("timeout must be a positive integer of milliseconds");
    const state = randomState();
    const o = this.#options;
    const popup = openPopup(`${url}?${new URLSearchParams({ ...query, state })}`, o.width, o.height);
    if (!popup) return Promise.reject(new SlotgateError("popup_blocked"));
    const promise = awaitPopupResult<WalletOutcome>(popup, {
      origin: o.origin,
      channel: WALLET_CHANNEL,
      timeoutMs: timeout,
      read(value) {
        const m = readWalletMessage(value, state);
        const d = m?.data;
        if (!d || (confirmationId !== undefined && d.confirmation_id != null && d.confirmation_id !== confirmationId)) return undefined;
        if (d.status === "denied") return new SlotgateError("confirmation_denied", "The user denied the wallet request");
        if (d.status === "failed") {
          const reason = cleanReason(d.error?.code ?? "");
          return new SlotgateError("confirmation_failed", `Wallet request failed: ${reason}`, reason);
        }
        return {
          status: "approved",
          action: d.action,
          confirmationId: d.confirmation_id ?? confirmationId ?? null,
          txHash: d.tx_hash ?? null,
          writeId: d.write_id ?? null,
          address: d.address ?? null,
        };
      },
      closed: () => new SlotgateError("popup_closed", "User closed the wallet window"),
      timeout: () => new SlotgateError("wallet_timeout", "Wallet timeout"),
    }).finally(() => {
      this.#pending = undefined;
    });
    this.#pending = { key: url, popup, promise };
    return promise;
  }
}

function invalid(message: string): Promise<never> {
  return Promise.reject(new SlotgateError("invalid_options", message));
}
