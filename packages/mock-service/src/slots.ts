import type { SlotView } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { HttpError } from "./http/http-error.js";
import { type CuidSlotRecord, MockState, type SlotRecord } from "./state.js";

/**
 * The simulated slot model (docs/decisions/marketplace.md, docs/decisions/mock-service.md): slots are
 * `(cuid, meta_idx)` numbered per cuid from 0, each with its own slot wallet; each (user, cuid) has at
 * most one active slot. Every "chain write" lands within the request, so a slot is always `registered`.
 */

const key = (cuid: string, metaIdx: number) => `${cuid}|${metaIdx}`;

/**
 * The first cuid `clientId` registered (providers are kept in registration order), or undefined.
 *
 * @example
 * ```ts
 * firstCuidOf(ctx, "sg_demo_client"); // "demo-game"
 * ```
 */
export function firstCuidOf(ctx: MockContext, clientId: string): string | undefined {
  for (const provider of ctx.state.providers.values()) if (provider.client_id === clientId) return provider.cuid;
  return undefined;
}

/**
 * The slot `(cuid, metaIdx)`, or undefined when it was never opened.
 *
 * @example
 * ```ts
 * findSlot(ctx, "demo-game", 0)?.user_id; // "1001"
 * ```
 */
export function findSlot(ctx: MockContext, cuid: string, metaIdx: number): CuidSlotRecord | undefined {
  return ctx.state.cuidSlots.get(key(cuid, metaIdx));
}

/** The slot wallet of a slot. */
export function walletOf(ctx: MockContext, slot: CuidSlotRecord): SlotRecord {
  const wallet = ctx.state.slots.get(slot.wallet);
  if (!wallet) throw new Error(`slot ${slot.cuid}/${slot.meta_idx} has no wallet record`);
  return wallet;
}

/** The slot a wallet (lower-case address) backs, if any: a wallet backs at most one slot for all its life. */
function slotBackedBy(state: MockState, address: string): CuidSlotRecord | undefined {
  for (const slot of state.cuidSlots.values()) if (slot.wallet === address) return slot;
  return undefined;
}

const backsASlot = (state: MockState, address: string): boolean => slotBackedBy(state, address) !== undefined;

/**
 * The wallet a first opening of a slot of `cuid` would give `userId` (the user's wallet at the cuid's client,
 * while it backs no slot), or null when an opening would make a new, empty wallet. Purchases check it before
 * opening, as the server does, so a refused purchase opens nothing.
 *
 * @example
 * ```ts
 * const wallet = firstSlotWallet(ctx, "1001", "demo-game"); // its XOTN decides whether a purchase may open the slot
 * ```
 */
export function firstSlotWallet(ctx: MockContext, userId: string, cuid: string): SlotRecord | null {
  const provider = ctx.state.providers.get(cuid);
  if (!provider) return null;
  const own = ctx.state.slotFor(provider.client_id, userId);
  return backsASlot(ctx.state, own.address.toLowerCase()) ? null : own;
}

/**
 * Opens the next slot of `cuid` for `userId` (404 `provider_not_registered` when no client registered
 * the cuid): active when the user has no active slot of the cuid, else sleeping. The user's first slot
 * of the cuid's client takes the user's wallet at that client (as the server's first slot takes the
 * C_SALT wallet), so XOTN funded there buys with it; later slots get a new simulated wallet.
 *
 * @example
 * ```ts
 * const slot = openSlot(ctx, "1001", "demo-game"); // { meta_idx: 0, active: true, ... }
 * ```
 */
export function openSlot(ctx: MockContext, userId: string, cuid: string): CuidSlotRecord {
  const provider = ctx.state.providers.get(cuid);
  if (!provider) throw new HttpError("provider_not_registered", { message: `No provider has registered cuid ${cuid}.` });
  const metaIdx = ctx.state.slotCounters.get(cuid) ?? 0;
  ctx.state.slotCounters.set(cuid, metaIdx + 1);
  const own = ctx.state.slotFor(provider.client_id, userId);
  const ownAddress = own.address.toLowerCase();
  let wallet = ownAddress;
  if (backsASlot(ctx.state, ownAddress)) {
    wallet = ctx.state.addWallet(provider.client_id, userId).address.toLowerCase();
  }
  const slot: CuidSlotRecord = { cuid, meta_idx: metaIdx, wallet, user_id: userId, active: activeSlot(ctx, userId, cuid) === undefined, tr_cnt: 0 };
  ctx.state.cuidSlots.set(key(cuid, metaIdx), slot);
  return slot;
}

/**
 * The user's active slot of `cuid`; with `create`, one is opened when the user has none.
 *
 * @example
 * ```ts
 * const slot = activeSlot(ctx, "1001", "demo-game", { create: true })!;
 * ```
 */
export function activeSlot(ctx: MockContext, userId: string, cuid: string, options: { create?: boolean } = {}): CuidSlotRecord | undefined {
  for (const slot of ctx.state.cuidSlots.values()) if (slot.cuid === cuid && slot.user_id === userId && slot.active) return slot;
  return options.create ? openSlot(ctx, userId, cuid) : undefined;
}

/**
 * The user's slots of `cuid`, by `meta_idx`.
 *
 * @example
 * ```ts
 * slotsOf(ctx, "1001", "demo-game").map((s) => s.meta_idx); // [0, 1]
 * ```
 */
export function slotsOf(ctx: MockContext, userId: string, cuid: string): CuidSlotRecord[] {
  return [...ctx.state.cuidSlots.values()].filter((s) => s.cuid === cuid && s.user_id === userId).sort((a, b) => a.meta_idx - b.meta_idx);
}

/**
 * Makes slot `metaIdx` of `cuid` the user's active one (the active one sleeps): 404 `slot_not_found`,
 * 403 `not_owner` for another user's slot.
 *
 * @example
 * ```ts
 * activate(ctx, "1001", "demo-game", 1).active; // true
 * ```
 */
export function activate(ctx: MockContext, userId: string, cuid: string, metaIdx: number): CuidSlotRecord {
  const slot = findSlot(ctx, cuid, metaIdx);
  if (!slot) throw new HttpError("slot_not_found", { message: `No slot ${metaIdx} of cuid ${cuid} was opened.` });
  if (slot.user_id !== userId) throw new HttpError("not_owner", { message: "This slot belongs to another user." });
  const current = activeSlot(ctx, userId, cuid);
  if (current) current.active = false;
  slot.active = true;
  return slot;
}

/**
 * Hands slot `(cuid, metaIdx)` to `toUserId` (a sale): the wallet, its balances and record stay with the
 * slot; `tr_cnt` grows by one; it arrives active when the buyer has no active slot of the cuid.
 *
 * @example
 * ```ts
 * moveSlot(ctx, slot, "1002").tr_cnt; // 1
 * ```
 */
export function moveSlot(ctx: MockContext, slot: CuidSlotRecord, toUserId: string): CuidSlotRecord {
  slot.active = activeSlot(ctx, toUserId, slot.cuid) === undefined;
  slot.user_id = toUserId;
  slot.tr_cnt += 1;
  walletOf(ctx, slot).user_id = toUserId;
  return slot;
}

/**
 * The wire view of a slot (`SlotView`): `owner` is the owner's simulated user wallet.
 *
 * @example
 * ```ts
 * const view = slotView(ctx, slot); // { cuid, meta_idx, slot, owner, owner_user_id, tr_cnt, ... }
 * ```
 */
export function slotView(ctx: MockContext, slot: CuidSlotRecord): SlotView {
  const wallet = walletOf(ctx, slot);
  const balance = wallet.balances.get(slot.cuid);
  return {
    cuid: slot.cuid,
    meta_idx: slot.meta_idx,
    slot: wallet.address,
    owner: ctx.state.userWalletOf(slot.user_id),
    owner_user_id: slot.user_id,
    tr_cnt: slot.tr_cnt,
    balance: (balance?.balance ?? 0n).toString(),
    used_balances: (balance?.used ?? 0n).toString(),
    state: slot.active ? "active" : "sleeping",
    registered: true,
  };
}

/** What a blockchain client's token response and slot info say about the user's slot. */
export interface ContentSlot {
  content_address: string;
  tr_cnt: number;
  cu_id?: string;
  meta_idx?: number;
}

/**
 * The user's slot for a client, as the server's `contentSlotOf` (the chain service's `contentSlot`): a
 * client that registered a cuid gets the user's active slot of its first cuid (opened when there is none);
 * a blockchain client without a cuid gets the user's wallet at that client while it is theirs (a wallet
 * that was sold is the buyer's; `slotFor` then makes the user another), with the `tr_cnt` of the slot it
 * backs (0 when none); other clients undefined. Never a wallet the user no longer owns.
 *
 * @example
 * ```ts
 * contentSlotOf(ctx, { client_id: "sg_demo_client", blockchain: true }, "1001"); // { content_address, tr_cnt: 0, cu_id: "demo-game", meta_idx: 0 }
 * ```
 */
export function contentSlotOf(ctx: MockContext, client: { client_id: string; blockchain: boolean }, userId: string): ContentSlot | undefined {
  if (!client.blockchain) return undefined;
  const cuid = firstCuidOf(ctx, client.client_id);
  if (cuid === undefined) {
    const own = ctx.state.slotFor(client.client_id, userId);
    return { content_address: own.address, tr_cnt: slotBackedBy(ctx.state, own.address.toLowerCase())?.tr_cnt ?? 0 };
  }
  const slot = activeSlot(ctx, userId, cuid, { create: true })!;
  return { content_address: walletOf(ctx, slot).address, tr_cnt: slot.tr_cnt, cu_id: slot.cuid, meta_idx: slot.meta_idx };
}

/**
 * The listing lock: 409 `logout_required` while the user is logged in at the client that registered
 * `cuid` (no status record counts as logged out; a cuid nobody registered: allowed).
 *
 * @example
 * ```ts
 * assertLoggedOut(ctx, claims.sub, body.cu_id);
 * ```
 */
export function assertLoggedOut(ctx: MockContext, userId: string, cuid: string): void {
  const provider = ctx.state.providers.get(cuid);
  if (!provider || ctx.faults.skipListingLock) return;
  if (ctx.state.statuses.get(MockState.statusKey(userId, provider.client_id))?.status === "logged_in") throw new HttpError("logout_required");
}
