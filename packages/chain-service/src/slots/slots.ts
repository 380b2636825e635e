import type { SlotView } from "@slotgate/protocol";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";

const notYet = (): never => {
  throw new ChainServiceError("service_unavailable", "slots are not implemented yet");
};

/** @internal The slots of `cuid` that `userUuid` owns, oldest first. */
export async function listSlots(_ctx: ServiceContext, _userUuid: number, _cuid: string): Promise<SlotView[]> {
  return notYet();
}

/** @internal Public read of one slot. */
export async function slotInfo(_ctx: ServiceContext, _cuid: string, _metaIdx: number): Promise<SlotView> {
  return notYet();
}

/** @internal Opens the user's next slot of `cuid`. */
export async function openSlot(_ctx: ServiceContext, _userUuid: number, _cuid: string): Promise<SlotView> {
  return notYet();
}

/** @internal The user's active slot of `cuid` (opened with `create` when none). */
export async function activeSlot(_ctx: ServiceContext, _userUuid: number, _cuid: string, _options?: { create?: boolean }): Promise<SlotView | null> {
  return notYet();
}

/** @internal Makes a slot the user's active one. */
export async function activateSlot(_ctx: ServiceContext, _userUuid: number, _cuid: string, _metaIdx: number): Promise<SlotView> {
  return notYet();
}
