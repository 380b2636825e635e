import type { Queryable } from "@slotgate/storage";

/** A slot as the chain service records it (`cs_slots`). */
export interface SlotRecord {
  cuid: string;
  metaIdx: number;
  /** The slot wallet (checksummed): fixed for the slot's life. */
  wallet: string;
  /** The CREATE2 salt of the slot wallet (C_SALT for a user's first slot, else `slotSalt(cuid, meta_idx)`). */
  salt: bigint;
  /** The owner EOA the wallet's address was computed from (its deploying initCode). */
  openingOwner: string;
  /** The owner per the records (moved when a sale lands). */
  userUuid: number;
  active: boolean;
  /** Whether its `buy_slot` registration was enqueued. */
  registrationQueued: boolean;
}

interface SlotRow {
  cuid: string;
  meta_idx: string | number;
  wallet: string;
  salt: string;
  opening_owner: string;
  user_uuid: string | number;
  active: boolean;
  registration_queued: boolean;
}

const toSlot = (row: SlotRow): SlotRecord => ({
  cuid: row.cuid,
  metaIdx: Number(row.meta_idx),
  wallet: row.wallet,
  salt: BigInt(row.salt),
  openingOwner: row.opening_owner,
  userUuid: Number(row.user_uuid),
  active: row.active === true,
  registrationQueued: row.registration_queued === true,
});

/**
 * The next free slot number of `cuid` (0, 1, 2, ...), taken: concurrent callers get different numbers
 * (the counter row is locked by the update until the transaction ends).
 */
export async function takeSlotNumber(db: Queryable, cuid: string): Promise<number> {
  const rows = await db.query<{ taken: string | number }>(
    `INSERT INTO cs_slot_counters (cuid, next_idx) VALUES ($1, 1)
     ON CONFLICT (cuid) DO UPDATE SET next_idx = cs_slot_counters.next_idx + 1
     RETURNING next_idx - 1 AS taken`,
    [cuid],
  );
  return Number(rows[0]?.taken);
}

/** Keeps the counter of `cuid` past `metaIdx` (a slot number chosen by the operator, `registerSlot`). */
export async function reserveSlotNumber(db: Queryable, cuid: string, metaIdx: number): Promise<void> {
  await db.query(
    `INSERT INTO cs_slot_counters (cuid, next_idx) VALUES ($1, $2)
     ON CONFLICT (cuid) DO UPDATE SET next_idx = GREATEST(cs_slot_counters.next_idx, EXCLUDED.next_idx)`,
    [cuid, metaIdx + 1],
  );
}

/** Inserts a new slot record; false when (cuid, meta_idx) or its wallet is taken. */
export async function insertSlot(db: Queryable, slot: Omit<SlotRecord, "registrationQueued">): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO cs_slots (cuid, meta_idx, wallet, salt, opening_owner, user_uuid, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING cuid`,
    [slot.cuid, slot.metaIdx, slot.wallet, slot.salt.toString(), slot.openingOwner, slot.userUuid, slot.active],
  );
  return rows.length === 1;
}

/** Records that a slot's `buy_slot` registration was enqueued. */
export async function markRegistrationQueued(db: Queryable, cuid: string, metaIdx: number): Promise<void> {
  await db.query("UPDATE cs_slots SET registration_queued = TRUE, updated_at = now() WHERE cuid = $1 AND meta_idx = $2", [cuid, metaIdx]);
}

/** Slot `metaIdx` of `cuid`, or null. `forUpdate` locks the row until the transaction ends. */
export async function findSlot(db: Queryable, cuid: string, metaIdx: number, forUpdate = false): Promise<SlotRecord | null> {
  const rows = await db.query<SlotRow>(`SELECT * FROM cs_slots WHERE cuid = $1 AND meta_idx = $2${forUpdate ? " FOR UPDATE" : ""}`, [cuid, metaIdx]);
  return rows[0] ? toSlot(rows[0]) : null;
}

/** The slot backed by `wallet` (any case), or null. */
export async function findSlotByWallet(db: Queryable, wallet: string): Promise<SlotRecord | null> {
  const rows = await db.query<SlotRow>("SELECT * FROM cs_slots WHERE lower(wallet) = lower($1)", [wallet]);
  return rows[0] ? toSlot(rows[0]) : null;
}

/** The slots `userUuid` owns per the records: of one cuid, or of every cuid; oldest slot number first. */
export async function slotsOf(db: Queryable, userUuid: number, cuid?: string): Promise<SlotRecord[]> {
  const rows = await db.query<SlotRow>(
    `SELECT * FROM cs_slots WHERE user_uuid = $1${cuid === undefined ? "" : " AND cuid = $2"} ORDER BY cuid, meta_idx`,
    cuid === undefined ? [userUuid] : [userUuid, cuid],
  );
  return rows.map(toSlot);
}

/** The user's active slot of `cuid`, or null. */
export async function findActiveSlot(db: Queryable, userUuid: number, cuid: string): Promise<SlotRecord | null> {
  const rows = await db.query<SlotRow>("SELECT * FROM cs_slots WHERE user_uuid = $1 AND cuid = $2 AND active", [userUuid, cuid]);
  return rows[0] ? toSlot(rows[0]) : null;
}

/**
 * Makes slot `metaIdx` of `cuid` the user's active one and puts the previous one to sleep, in one
 * transaction (run it in one). False when the user does not own that slot.
 */
export async function activate(db: Queryable, userUuid: number, cuid: string, metaIdx: number): Promise<boolean> {
  await db.query("UPDATE cs_slots SET active = FALSE, updated_at = now() WHERE user_uuid = $1 AND cuid = $2 AND active AND meta_idx <> $3", [
    userUuid,
    cuid,
    metaIdx,
  ]);
  const rows = await db.query("UPDATE cs_slots SET active = TRUE, updated_at = now() WHERE user_uuid = $1 AND cuid = $2 AND meta_idx = $3 RETURNING cuid", [
    userUuid,
    cuid,
    metaIdx,
  ]);
  return rows.length === 1;
}

/**
 * A sale landed: slot `metaIdx` of `cuid` passes from `fromUuid` to `toUuid`, active when the buyer
 * has no active slot of the cuid, else sleeping. Nothing happens when the seller no longer owns it.
 */
export async function moveSlot(db: Queryable, sale: { cuid: string; metaIdx: number; fromUuid: number; toUuid: number }): Promise<void> {
  await db.query(
    `UPDATE cs_slots SET user_uuid = $4, updated_at = now(),
       active = NOT EXISTS (SELECT 1 FROM cs_slots other WHERE other.user_uuid = $4 AND other.cuid = $1 AND other.active)
     WHERE cuid = $1 AND meta_idx = $2 AND user_uuid = $3`,
    [sale.cuid, sale.metaIdx, sale.fromUuid, sale.toUuid],
  );
}

/** Slots whose `buy_slot` registration was never enqueued (migrated records), oldest first. */
export async function unqueuedSlots(db: Queryable): Promise<SlotRecord[]> {
  const rows = await db.query<SlotRow>("SELECT * FROM cs_slots WHERE NOT registration_queued ORDER BY created_at, cuid, meta_idx");
  return rows.map(toSlot);
}
