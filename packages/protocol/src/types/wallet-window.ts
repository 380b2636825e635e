import type { ChainWriteStatus } from "../chain-writes.js";

/**
 * What a backend-created wallet confirmation asks the player to sign (the window shows it in plain words):
 *
 * - `approve_purchases`: consent that `cuid`'s provider buys content tokens for the player's slot up to
 *   `amount` XOTN (wei) in total (replaces the earlier consent for the cuid, as `PinOperation`).
 * - `token_transfer`: send `amount` XOTN (smallest unit) from the player's wallet to `to_address`.
 * - `slot_hand_over`: hand the player's slot `meta_idx` of `cu_id` (with its balance and `used_balances`)
 *   over to the user `to_uuid` (spec 4.9 `exchange_token_owner`).
 */
export type WalletConfirmationRequest =
  | { kind: "approve_purchases"; cuid: string; amount: string }
  | { kind: "token_transfer"; to_address: string; amount: string }
  | { kind: "slot_hand_over"; cu_id: string; to_uuid: string; meta_idx: number };

/** The kind of a wallet confirmation. */
export type WalletConfirmationKind = WalletConfirmationRequest["kind"];

/** Body of `POST /v1/wallet/confirmations` (HTTP Basic: the client's credentials). */
export interface CreateWalletConfirmationRequest {
  /** The player who must confirm (the window refuses a browser session of any other user). */
  user_uuid: number;
  /** A redirect URI registered for the client: its origin is the only one the outcome is posted to. */
  redirect_uri: string;
  request: WalletConfirmationRequest;
}

/** Answer (201) of `POST /v1/wallet/confirmations`. */
export interface CreateWalletConfirmationResponse {
  success: true;
  id: string;
  kind: WalletConfirmationKind;
  status: "pending";
  /** Unix seconds; a confirmation not approved by then is `expired` (lifetime 10 minutes). */
  expires_at: number;
  /** `{issuer}/wallet/confirm/{id}`: open it as a popup with `?state=` added. */
  window_url: string;
}

/** The states of a wallet confirmation. */
export type WalletConfirmationStatus = "pending" | "approved" | "denied" | "expired" | "failed";

/** Answer of `GET /v1/wallet/confirmations/{confirmation_id}` (only the creating client sees it). */
export interface WalletConfirmationResponse {
  success: true;
  id: string;
  kind: WalletConfirmationKind;
  status: WalletConfirmationStatus;
  /** The transaction of an approved confirmation whose write landed. */
  tx_hash: string | null;
  /** The durable chain write of an approved confirmation (when it did not land within the wait). */
  write_id: string | null;
  /** The state of that chain write, when there is one. */
  write_status?: ChainWriteStatus;
  /** Why it `failed`. */
  error?: { code: string; message: string };
}

/** The page-started actions of the wallet window (`GET /wallet/{action}`): they only serve the player. */
export type WalletPageAction = "pin-setup" | "pin-reset" | "recover" | "approvals";

/** What a wallet window did: a page-started action, or the kind of the confirmation it answered. */
export type WalletResultAction = WalletPageAction | WalletConfirmationKind;

/**
 * The outcome of a wallet window. Never carries a key share, the words, a PIN or a PIN hash.
 */
export interface WalletResultData {
  action: WalletResultAction;
  status: "approved" | "denied" | "failed";
  /** For a backend-created confirmation. */
  confirmation_id?: string;
  tx_hash?: string;
  write_id?: string;
  /** The player's wallet address (PIN set up, reset or recovered). */
  address?: string;
  error?: { code: string; message: string };
}

/**
 * The message a wallet window posts to its opener at the registered redirect URI's origin only, and on
 * the `slotgate_wallet` BroadcastChannel. Without an opener (COOP) the window navigates to
 * `redirect_uri#from=slotgate&type=wallet_result&state=…&data=<JSON of data, URL-encoded>`.
 */
export interface WalletResultMessage {
  from: "slotgate";
  type: "wallet_result";
  state: string;
  data: WalletResultData;
}
