import { ZeroAddress, getAddress } from "ethers";
import type { SlotView } from "@slotgate/protocol";
import { C_SALT, computeWalletAddress, slotSalt } from "@slotgate/contracts";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { findCuidOwner } from "../storage/providers.js";
import {
  type SlotRecord,
  activate,
  findActiveSlot,
  findSlot,
  findSlotByWallet,
  insertSlot,
  markRegistrationQueued,
  reserveSlotNumber,
  slotsOf,
  takeSlotNumber,
  unqueuedSlots,
} from "../storage/slots.js";
import type { WriteRecord } from "../storage/writes.js";
import { findWallet } from "../storage/wallets.js";
import { provisionWallet } from "../wallets/provision.js";
import { type WriteIdentity, requestHash } from "../writes/engine.js";
import { enqueuePlatformWrite } from "../writes/platform-write.js";

/**
 * @internal The identity of slot `metaIdx` of `cuid`'s `buy_slot` registration: one per slot (its
 * idempotency key is the slot), so enqueuing it again finds the first.
 */
export function registrationIdentity(cuid: string, metaIdx: number): WriteIdentity {
  return { scope: "platform", idempotencyKey: `slot:${cuid}:${metaIdx}`, requestHash: requestHash("buy_slot", [cuid, metaIdx]) };
}

/** Enqueues a slot's `buy_slot` inside `tx` (owner: the owner's user wallet; wallet: the slot wallet). */
async function enqueueRegistration(
  ctx: ServiceContext,
  slot: SlotRecord,
  ownerWallet: string,
  tx: Parameters<typeof enqueuePlatformWrite>[3],
): Promise<WriteRecord> {
  const record = await enqueuePlatformWrite(
    ctx,
    registrationIdentity(slot.cuid, slot.metaIdx),
    {
      to: ctx.addresses.exchange,
      data: ctx.contracts.exchange.interface.encodeFunctionData("buy_slot", [ownerWallet, BigInt(slot.metaIdx), slot.cuid, slot.wallet]),
      answer: { kind: "transaction", fields: { owner: ownerWallet } },
    },
    tx,
  );
  await markRegistrationQueued(tx, slot.cuid, slot.metaIdx);
  return record;
}

/**
 * @internal Opens a slot of `cuid` for `userUuid` (spec 2.6 kept for the first slot): the next slot
 * number of the cuid (or `metaIdx`, chosen by the operator), the user's C_SALT wallet when it backs no
 * slot yet, else the CREATE2 wallet of (current owner EOA, `slotSalt(cuid, meta_idx)`); active when the
 * user has no active slot of the cuid. The record and its `buy_slot` registration (a durable platform
 * write) are committed together; the registration is not waited for.
 */
export async function openSlotRecord(
  ctx: ServiceContext,
  userUuid: number,
  cuid: string,
  metaIdx?: number,
): Promise<{ slot: SlotRecord; registration: WriteRecord }> {
  if ((await findCuidOwner(ctx.db, cuid)) === null) throw new ChainServiceError("provider_not_registered", `no provider has registered cuid ${cuid}`);
  await provisionWallet(ctx, userUuid);
  const opened = await ctx.db.transaction(async (tx) => {
    // The wallet row's lock makes a user's openings one at a time (the first one alone takes C_SALT).
    const wallet = await findWallet(tx, userUuid, true);
    if (!wallet) throw new ChainServiceError("internal_error", "wallet provisioning failed");
    let index: number;
    if (metaIdx === undefined) index = await takeSlotNumber(tx, cuid);
    else {
      index = metaIdx;
      await reserveSlotNumber(tx, cuid, metaIdx);
    }
    const first = (await findSlotByWallet(tx, wallet.contentAddress)) === null;
    const salt = first ? C_SALT : slotSalt(cuid, BigInt(index));
    const openingOwner = first ? wallet.initialOwner : wallet.ownerEoa;
    const slot: SlotRecord = {
      cuid,
      metaIdx: index,
      wallet: first ? getAddress(wallet.contentAddress) : computeWalletAddress(ctx.addresses.factory, openingOwner, salt),
      salt,
      openingOwner,
      userUuid,
      active: (await findActiveSlot(tx, userUuid, cuid)) === null,
      registrationQueued: true,
    };
    if (!(await insertSlot(tx, slot))) throw new ChainServiceError("not_owner", `slot ${index} of ${cuid} is taken`);
    return { slot, registration: await enqueueRegistration(ctx, slot, wallet.address, tx) };
  });
  ctx.writes.wake(opened.registration);
  return opened;
}

/**
 * @internal At start-up: enqueues the `buy_slot` registration of every slot recorded without one (the
 * C_SALT wallets that migration 10 turned into first slots). Answers how many.
 */
export async function queueMissingRegistrations(ctx: ServiceContext): Promise<number> {
  let queued = 0;
  for (const slot of await unqueuedSlots(ctx.db)) {
    const owner = await findWallet(ctx.db, slot.userUuid);
    if (!owner) continue;
    const record = await ctx.db.transaction((tx) => enqueueRegistration(ctx, slot, owner.address, tx));
    ctx.writes.wake(record);
    queued += 1;
  }
  return queued;
}

/** @internal What the chain says of a slot: `slot_info` (balances of the recorded wallet while it is not registered). */
async function chainFacts(
  ctx: ServiceContext,
  slot: SlotRecord,
): Promise<{ owner: string; trCnt: number; balance: bigint; used: bigint; registered: boolean }> {
  const info = await ctx.contracts.exchange.slot_info(slot.cuid, BigInt(slot.metaIdx));
  const registered = getAddress(info.owner) !== ZeroAddress;
  if (registered) return { owner: getAddress(info.owner), trCnt: Number(info.trCnt), balance: info.balance, used: info.used, registered };
  const [balance, used] = await ctx.contracts.exchange.balance_adex(slot.wallet, slot.cuid);
  return { owner: ZeroAddress, trCnt: 0, balance, used, registered };
}

/** @internal The wire view of a recorded slot, with its chain facts. */
export async function slotView(ctx: ServiceContext, slot: SlotRecord): Promise<SlotView> {
  const chain = await chainFacts(ctx, slot);
  return {
    cuid: slot.cuid,
    meta_idx: slot.metaIdx,
    slot: getAddress(slot.wallet),
    owner: chain.owner,
    owner_user_id: String(slot.userUuid),
    tr_cnt: chain.trCnt,
    balance: chain.balance.toString(),
    used_balances: chain.used.toString(),
    state: slot.active ? "active" : "sleeping",
    registered: chain.registered,
  };
}

/**
 * @internal The user's active slot record of `cuid`; with `create`, a user without one gets a slot
 * opened (see {@link openSlotRecord}). Null when there is none and `create` is false.
 */
export async function activeSlotRecord(ctx: ServiceContext, userUuid: number, cuid: string, create: boolean): Promise<SlotRecord | null> {
  const active = await findActiveSlot(ctx.db, userUuid, cuid);
  if (active || !create) return active;
  // Sleeping slots stay asleep (the user chooses which one plays, activateSlot): a user without an
  // active slot of the cuid (none yet, or the active one was sold) gets a new one (spec: design of issue 16).
  return (await openSlotRecord(ctx, userUuid, cuid)).slot;
}

/** @internal {@link ChainService.listSlots}. */
export async function listSlots(ctx: ServiceContext, userUuid: number, cuid: string): Promise<SlotView[]> {
  return Promise.all((await slotsOf(ctx.db, userUuid, cuid)).map((slot) => slotView(ctx, slot)));
}

/** @internal {@link ChainService.slotInfo}. */
export async function slotInfo(ctx: ServiceContext, cuid: string, metaIdx: number): Promise<SlotView> {
  const slot = await findSlot(ctx.db, cuid, metaIdx);
  if (!slot) throw new ChainServiceError("slot_not_found", `no slot ${metaIdx} of cuid ${cuid} was opened`);
  return slotView(ctx, slot);
}

/** @internal {@link ChainService.openSlot}. */
export async function openSlot(ctx: ServiceContext, userUuid: number, cuid: string): Promise<SlotView> {
  return slotView(ctx, (await openSlotRecord(ctx, userUuid, cuid)).slot);
}

/** @internal {@link ChainService.activeSlot}. */
export async function activeSlot(ctx: ServiceContext, userUuid: number, cuid: string, options?: { create?: boolean | undefined }): Promise<SlotView | null> {
  const slot = await activeSlotRecord(ctx, userUuid, cuid, options?.create === true);
  return slot ? slotView(ctx, slot) : null;
}

/** @internal {@link ChainService.activateSlot}. */
export async function activateSlot(ctx: ServiceContext, userUuid: number, cuid: string, metaIdx: number): Promise<SlotView> {
  const slot = await findSlot(ctx.db, cuid, metaIdx);
  if (!slot) throw new ChainServiceError("slot_not_found", `no slot ${metaIdx} of cuid ${cuid} was opened`);
  if (slot.userUuid !== userUuid) throw new ChainServiceError("not_owner", "this slot belongs to another user");
  await ctx.db.transaction(async (tx) => {
    // The sale that moved it away landed in between: the records say another user owns it now.
    if (!(await activate(tx, userUuid, cuid, metaIdx))) throw new ChainServiceError("not_owner", "this slot belongs to another user");
  });
  return slotView(ctx, { ...slot, active: true });
}
