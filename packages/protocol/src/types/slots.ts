/**
 * Slots (spec 1.5, 2.5, 3.1 rule 2): a slot is `(cuid, meta_idx)`, a game account backed by one slot
 * wallet for all its life. Each user has at most one ACTIVE slot per cuid; the others sleep.
 */

/** Whether a slot is the one its owner plays with for its cuid (`active`) or put aside (`sleeping`). */
export type SlotState = "active" | "sleeping";

/**
 * One slot as the service shows it: chain facts (owner, `tr_cnt`, balances) read from the exchange's
 * `slot_info`, record facts (state, owner's user id) from the chain service's records.
 *
 * @example
 * ```ts
 * const view: SlotView = {
 *   cuid: "game-1", meta_idx: 0, slot: "0xSlotWallet…", owner: "0xOwnerUserWallet…", owner_user_id: "7",
 *   tr_cnt: 1, balance: "900", used_balances: "100", state: "active", registered: true,
 * };
 * ```
 */
export interface SlotView {
  cuid: string;
  /** The slot's number within its cuid. */
  meta_idx: number;
  /** The slot wallet (the `content_address` of the slot): holds the slot's content tokens. */
  slot: string;
  /** The owner's user wallet, as the chain records it (zero address while unregistered). */
  owner: string;
  /** The owner's user id from the records, or null when the records know none. */
  owner_user_id: string | null;
  /** How many times the slot changed owner, from the chain (0 while unregistered). */
  tr_cnt: number;
  /** Content tokens the slot holds, wei string. */
  balance: string;
  /** Content tokens the slot consumed, cumulative, wei string. */
  used_balances: string;
  state: SlotState;
  /** Whether the slot is registered on chain yet (`buy_slot` landed). */
  registered: boolean;
}

/** Answer of `GET /v1/slots?cu_id=`: the caller's slots of that cuid. */
export interface SlotListResponse {
  success: true;
  slots: SlotView[];
}

/** Answer of `POST /v1/slots` (201) and `GET /v1/slots/:cu_id/:meta_idx`. */
export interface SlotResponse {
  success: true;
  slot: SlotView;
}

/** Answer of `POST /v1/slots/activate`: the slot now active. */
export interface SlotActivateResponse {
  success: true;
  active: SlotView;
}

/** Body of `POST /v1/slots`: open another slot of `cu_id`. */
export interface SlotOpenRequest {
  cu_id: string;
}

/** Body of `POST /v1/slots/activate`: make slot `meta_idx` of `cu_id` the active one. */
export interface SlotActivateRequest {
  cu_id: string;
  meta_idx: number;
}
