import type { Database, Queryable } from "@slotgate/storage";
import { completeExchangeState, releaseExchangeState } from "../storage/exchange-states.js";
import { moveSlot } from "../storage/slots.js";
import { settleSponsorship } from "../storage/sponsorship.js";
import { forgetUnissuedProvider, insertCuid, releaseSpendNonce, rememberSlotCuid, updateCuid } from "../storage/providers.js";
import { type WriteRecord, markConfirmed, markFailed } from "../storage/writes.js";

/**
 * Bookkeeping a write carries with it, applied in the database transaction that settles the write
 * (so it happens exactly once, by whichever instance settles it, even when the instance that took the
 * request has gone).
 */
export type WriteEffect =
  /** The slot bought under this cuid (`balance_adex` without a cuid answers it). */
  | { kind: "remember_slot_cuid"; slot: string; cuid: string }
  /** A provider registration landed: the cuid's record, with the registration's transaction. */
  | { kind: "insert_cuid"; cuid: string; client_id: string; release_per: number; owner_addr: string }
  /** The cuid's release flag, as set on chain. */
  | { kind: "release_enabled"; cuid: string; enabled: boolean }
  /** A slot sale landed: the records' owner of the slot follows (active for the buyer when they have none of the cuid). */
  | { kind: "move_slot"; cuid: string; meta_idx: number; from_uuid: number; to_uuid: number }
  /** A slot exchange landed: its one-time state keeps the transaction. */
  | { kind: "complete_exchange_state"; from_uuid: number; state_hash: string }
  /** A slot exchange failed: its one-time state may be sent again. */
  | { kind: "release_exchange_state"; from_uuid: number; state_hash: string }
  /** A spend failed: its message nonce may be sent again (nothing was recorded). */
  | { kind: "release_spend_nonce"; client_id: string; nonce: string }
  /** A client's first provider registration failed: its key was never shown, so it is forgotten. */
  | { kind: "forget_unissued_provider"; client_id: string }
  /** A sponsored operation did not land: what it reserved of the sponsorship budgets is given back. */
  | { kind: "release_sponsorship"; scopes: string[]; reserved_wei: string; reserved_at: string };

/** A write's bookkeeping for each outcome. */
export interface WriteEffects {
  confirmed?: WriteEffect[];
  failed?: WriteEffect[];
}

const effectsOf = (write: WriteRecord): WriteEffects => (write.payload as { effects?: WriteEffects }).effects ?? {};

async function apply(tx: Queryable, effect: WriteEffect, txHash: string | null): Promise<void> {
  switch (effect.kind) {
    case "remember_slot_cuid":
      return rememberSlotCuid(tx, effect.slot, effect.cuid);
    case "insert_cuid":
      return insertCuid(tx, {
        cuid: effect.cuid,
        clientId: effect.client_id,
        txHash: txHash ?? "",
        releasePer: effect.release_per,
        ownerAddr: effect.owner_addr,
      });
    case "release_enabled":
      return updateCuid(tx, effect.cuid, { releaseEnabled: effect.enabled });
    case "move_slot":
      return moveSlot(tx, { cuid: effect.cuid, metaIdx: effect.meta_idx, fromUuid: effect.from_uuid, toUuid: effect.to_uuid });
    case "complete_exchange_state":
      return completeExchangeState(tx, effect.from_uuid, effect.state_hash, txHash ?? "");
    case "release_exchange_state":
      return releaseExchangeState(tx, effect.from_uuid, effect.state_hash);
    case "forget_unissued_provider":
      return forgetUnissuedProvider(tx, effect.client_id);
    case "release_spend_nonce":
      return releaseSpendNonce(tx, effect.client_id, effect.nonce);
    case "release_sponsorship":
      return settleSponsorship(tx, effect.scopes, BigInt(effect.reserved_wei), 0n, new Date(effect.reserved_at));
  }
}

/**
 * @internal Settles a write as landed, with its answer, and applies its `confirmed` bookkeeping in the
 * same database transaction. A write already settled is left as it is.
 */
export async function confirmWrite(
  db: Database,
  write: WriteRecord,
  result: Record<string, unknown>,
  txHash: string,
  also?: (tx: Queryable) => Promise<void>,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      if (!(await markConfirmed(tx, write.id, result))) return;
      for (const effect of effectsOf(write).confirmed ?? []) await apply(tx, effect, txHash);
      await also?.(tx);
    });
  } catch (error) {
    if (!isPoison(error)) throw error;
    // The write landed: its answer stands even though its bookkeeping cannot be applied (never a
    // write stuck forever, nor one reported failed after it moved money).
    await markConfirmed(db, write.id, result);
  }
}

/**
 * An error that will happen again however often it is retried (a value the database refuses), as
 * opposed to a connection hiccup: a write's bookkeeping failing this way must not stall its writer.
 */
function isPoison(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return /^2[23][0-9A-Z]{3}$/.test(code);
  return error instanceof TypeError || (error instanceof Error && /invalid input/i.test(error.message));
}

/**
 * @internal Settles a write with its final error and applies its `failed` bookkeeping in the same
 * database transaction. A write already settled is left as it is. `landed` is given when the write's
 * transaction landed and cost gas (a UserOperation whose call reverted): it charges what it cost,
 * instead of giving the reserved sponsorship back.
 */
export async function failWrite(
  db: Database,
  write: WriteRecord,
  error: NonNullable<WriteRecord["error"]>,
  landed?: (tx: Queryable) => Promise<void>,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      if (!(await markFailed(tx, write.id, error))) return;
      for (const effect of effectsOf(write).failed ?? []) {
        if (landed && effect.kind === "release_sponsorship") continue;
        await apply(tx, effect, null);
      }
      await landed?.(tx);
    });
  } catch (cause) {
    if (!isPoison(cause)) throw cause;
    await markFailed(db, write.id, error);
  }
}
