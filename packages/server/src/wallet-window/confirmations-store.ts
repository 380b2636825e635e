import type { WalletConfirmationKind, WalletConfirmationRequest, WalletConfirmationStatus } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";

/** How long a wallet confirmation waits for the player: 10 minutes. */
export const CONFIRMATION_LIFETIME_SECONDS = 600;

/** A stored state: the wire's, or `signing` while the approve's chain call runs (shown as `pending`). */
export type StoredConfirmationStatus = Exclude<WalletConfirmationStatus, "expired"> | "signing";

/** One wallet confirmation as stored. */
export interface ConfirmationRow {
  id: string;
  client_id: string;
  user_id: string;
  kind: WalletConfirmationKind;
  params: WalletConfirmationRequest;
  redirect_uri: string;
  status: StoredConfirmationStatus;
  tx_hash: string | null;
  write_id: string | null;
  error: { code: string; message: string } | null;
  expires_at: Date;
  /** Until when the approve that took it holds it (`signing`); null before any approve. */
  signing_until: Date | null;
}

const COLUMNS = "id, client_id, user_id::text AS user_id, kind, params, redirect_uri, status, tx_hash, write_id, error, expires_at, signing_until";

/** `abandoned`: only a confirmation whose approve's lease is over (its process is taken for dead). */
interface Taken {
  abandoned?: boolean;
}

/** The condition on a taken confirmation: `signing`, and with `abandoned` its lease over. */
function takenWhere(taken: Taken): string {
  return taken.abandoned ? "status = 'signing' AND signing_until < now()" : "status = 'signing'";
}

/** Whether a confirmation is held by an approve whose lease is over (its process is taken for dead). */
export function isAbandoned(row: Pick<ConfirmationRow, "status" | "signing_until">, now = Date.now()): boolean {
  return row.status === "signing" && row.signing_until !== null && new Date(row.signing_until).getTime() < now;
}

/** Stores a new pending confirmation under its random id; answers its expiry. */
export async function insertConfirmation(
  db: Queryable,
  c: { id: string; clientId: string; userId: number; request: WalletConfirmationRequest; redirectUri: string },
): Promise<Date> {
  const rows = await db.query<{ expires_at: Date }>(
    `INSERT INTO wallet_confirmations (id, client_id, user_id, kind, params, redirect_uri, status, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', now() + make_interval(secs => $7)) RETURNING expires_at`,
    [c.id, c.clientId, c.userId, c.request.kind, JSON.stringify(c.request), c.redirectUri, CONFIRMATION_LIFETIME_SECONDS],
  );
  return new Date(rows[0]!.expires_at);
}

/** The confirmation `id`, or null. */
export async function findConfirmation(db: Queryable, id: string): Promise<ConfirmationRow | null> {
  const rows = await db.query<ConfirmationRow>(`SELECT ${COLUMNS} FROM wallet_confirmations WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * How long an approve holds a confirmation it took (`signing`): longer than any approve's chain call
 * waits before it answers a pending write. Past it, the process that took it is taken for dead.
 */
export const SIGNING_LEASE_SECONDS = 120;

/**
 * Takes a pending, unexpired confirmation for its approve (single use: one `UPDATE … RETURNING`, so two
 * approves never both run); null when it is not pending or has expired. A confirmation left `signing`
 * by a process that died during its approve (its lease of {@link SIGNING_LEASE_SECONDS} over) is taken
 * again: the chain call runs under the confirmation's idempotency key, so a write the dead process
 * recorded answers its first outcome and is never made twice.
 */
export async function takeConfirmation(db: Queryable, id: string): Promise<ConfirmationRow | null> {
  const rows = await db.query<ConfirmationRow>(
    `UPDATE wallet_confirmations SET status = 'signing', signing_until = now() + make_interval(secs => $2)
     WHERE id = $1 AND expires_at > now() AND (status = 'pending' OR (status = 'signing' AND signing_until < now()))
     RETURNING ${COLUMNS}`,
    [id, SIGNING_LEASE_SECONDS],
  );
  return rows[0] ?? null;
}

/**
 * Puts a taken confirmation back to pending (a wrong PIN: the player may try again until it expires; an
 * abandoned approve that made no chain write).
 */
export async function releaseConfirmation(db: Queryable, id: string, taken: Taken = {}): Promise<void> {
  await db.query(`UPDATE wallet_confirmations SET status = 'pending' WHERE id = $1 AND ${takenWhere(taken)}`, [id]);
}

/** Records the outcome of a taken confirmation. */
export async function closeConfirmation(
  db: Queryable,
  id: string,
  outcome: { status: "approved" | "failed"; txHash?: string | null; writeId?: string | null; error?: { code: string; message: string } },
  taken: Taken = {},
): Promise<void> {
  await db.query(
    `UPDATE wallet_confirmations SET status = $2, tx_hash = $3, write_id = $4, error = $5, closed_at = now() WHERE id = $1 AND ${takenWhere(taken)}`,
    [id, outcome.status, outcome.txHash ?? null, outcome.writeId ?? null, outcome.error ? JSON.stringify(outcome.error) : null],
  );
}

/** Denies a pending, unexpired confirmation; false when it was not pending (or expired). */
export async function denyConfirmation(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query(
    "UPDATE wallet_confirmations SET status = 'denied', closed_at = now() WHERE id = $1 AND status = 'pending' AND expires_at > now() RETURNING 1",
    [id],
  );
  return rows.length === 1;
}

/** The wire state of a stored confirmation: `signing` is still pending, a pending one past its expiry is expired. */
export function wireStatus(row: Pick<ConfirmationRow, "status" | "expires_at">, now = Date.now()): WalletConfirmationStatus {
  if (row.status === "signing") return "pending";
  if (row.status === "pending" && new Date(row.expires_at).getTime() <= now) return "expired";
  return row.status;
}

/** How long a confirmation's outcome stays readable by its client after it expired: 30 days. */
export const CONFIRMATION_RETENTION_DAYS = 30;

/** Deletes confirmations that expired more than {@link CONFIRMATION_RETENTION_DAYS} ago; answers how many. */
export async function purgeOldConfirmations(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM wallet_confirmations WHERE expires_at < now() - make_interval(days => $1) RETURNING 1", [
    CONFIRMATION_RETENTION_DAYS,
  ]);
  return rows.length;
}
