import type { AuthorizationStatus } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";

/** The login-status record of one user's authorization of one client. */
export interface LoginStatusRow {
  status: AuthorizationStatus;
  updated_at: Date;
  /** Until when a sale of the user's slot holds the row (status login refused), or null. */
  transfer_hold_until: Date | null;
  /** Which sale holds it: `hold:<uuid>` while the exchange runs, `write:<write_id>` while its chain write is pending. */
  transfer_hold_ref: string | null;
}

/** A transfer hold standing on a login-status row. */
export interface TransferHold {
  until: Date;
  ref: string;
}

/** What became of one status change: stored at `at`, or skipped because a transfer hold stands (logins only). */
export type StatusWrite = { stored: true; at: Date } | { stored: false; hold: TransferHold };

/** One requested status change. */
export interface StatusChange {
  userId: string;
  clientId: string;
  status: AuthorizationStatus;
  /** The id of the request that made the change, kept on its outbox row. */
  requestId?: string | null;
}

/**
 * Sets the status of every change and writes one marketplace outbox row per change, in ONE
 * statement (an implicit transaction): either all rows and their outbox rows are stored or none.
 * A login of a row that a transfer hold holds is skipped (no status change, no outbox row): the
 * condition is on the row's own `ON CONFLICT DO UPDATE`, which PostgreSQL evaluates against the
 * row's newest version under its lock, so a hold taken concurrently is never overwritten. Logouts
 * are always stored and keep the hold. The (user, client) pairs must be distinct. Returns, by
 * `userId/clientId`, the stored time or the hold that skipped the change.
 *
 * @example
 * ```ts
 * const writes = await setLoginStatuses(db, [{ userId: "7", clientId: "game", status: "logged_in" }], { marketplaceUrl, maxAttempts: 15 });
 * writes.get("7/game"); // { stored: true, at } or { stored: false, hold: { until, ref } }
 * ```
 */
export async function setLoginStatuses(
  db: Queryable,
  changes: readonly StatusChange[],
  outbox: { marketplaceUrl: string | null; maxAttempts: number },
): Promise<Map<string, StatusWrite>> {
  const rows = await db.query<{ user_id: string; client_id: string; updated_at: Date }>(
    `WITH s AS (
       INSERT INTO login_status (user_id, client_id, status, updated_at)
       SELECT v.user_id, v.client_id, v.status, clock_timestamp()
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(user_id, client_id, status)
       ON CONFLICT (user_id, client_id) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
         WHERE EXCLUDED.status = 'logged_out' OR login_status.transfer_hold_until IS NULL OR login_status.transfer_hold_until <= clock_timestamp()
       RETURNING user_id, client_id, status, updated_at
     ), o AS (
       INSERT INTO outbox (topic, target_url, payload, max_attempts, request_id)
       SELECT 'marketplace.login_status', $4,
              jsonb_build_object('type', 'login_status.changed', 'user_id', s.user_id::text, 'client_id', s.client_id,
                                 'status', s.status, 'transfer_enabled', s.status = 'logged_out',
                                 'timestamp', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
              $5, r.request_id
       FROM s JOIN unnest($1::bigint[], $2::text[], $6::text[]) AS r(user_id, client_id, request_id)
         ON r.user_id = s.user_id AND r.client_id = s.client_id
       RETURNING id
     )
     SELECT s.user_id::text AS user_id, s.client_id, s.updated_at FROM s`,
    [
      changes.map((c) => c.userId),
      changes.map((c) => c.clientId),
      changes.map((c) => c.status),
      outbox.marketplaceUrl,
      outbox.maxAttempts,
      changes.map((c) => c.requestId ?? null),
    ],
  );
  const writes = new Map<string, StatusWrite>(rows.map((r) => [`${r.user_id}/${r.client_id}`, { stored: true, at: new Date(r.updated_at) }]));
  const skipped = changes.filter((c) => !writes.has(`${c.userId}/${c.clientId}`));
  if (skipped.length === 0) return writes;
  // Only a hold skips a change: report it (read after the statement, so it may have ended meanwhile).
  const holds = await db.query<{ user_id: string; client_id: string; transfer_hold_until: Date | null; transfer_hold_ref: string | null }>(
    `SELECT l.user_id::text AS user_id, l.client_id, l.transfer_hold_until, l.transfer_hold_ref
     FROM login_status l JOIN unnest($1::bigint[], $2::text[]) AS v(user_id, client_id) ON l.user_id = v.user_id AND l.client_id = v.client_id`,
    [skipped.map((c) => c.userId), skipped.map((c) => c.clientId)],
  );
  for (const h of holds) {
    writes.set(`${h.user_id}/${h.client_id}`, {
      stored: false,
      hold: { until: new Date(h.transfer_hold_until ?? Date.now()), ref: h.transfer_hold_ref ?? "" },
    });
  }
  return writes;
}

/**
 * Reads the status record, or null when none was ever recorded.
 *
 * @example
 * ```ts
 * const row = await getLoginStatus(db, "7", "game");
 * const status = row?.status ?? "logged_out"; // no record = logged_out
 * ```
 */
export async function getLoginStatus(db: Queryable, userId: string, clientId: string): Promise<LoginStatusRow | null> {
  const rows = await db.query<LoginStatusRow>(
    "SELECT status, updated_at, transfer_hold_until, transfer_hold_ref FROM login_status WHERE user_id = $1 AND client_id = $2",
    [userId, clientId],
  );
  return rows[0] ?? null;
}

/** Why {@link takeTransferHold} took no hold: the user is logged in, or another sale's hold stands. */
export type HoldRefusal = { taken: false; reason: "logged_in" } | { taken: false; reason: "held"; hold: TransferHold };

/**
 * The listing lock's check and hold in ONE statement on the seller's row: when the user is
 * `logged_out` (no record counts as logged_out: a `logged_out` row is inserted) and no unexpired
 * hold stands, the row gets the hold `ref` until `seconds` from now. The condition is the row's own
 * `ON CONFLICT DO UPDATE ... WHERE`, evaluated on its newest version under the row lock, so a
 * concurrent login either committed first (and the hold is refused) or waits and then sees the hold.
 *
 * @example
 * ```ts
 * const taken = await takeTransferHold(db, { userId: "7", clientId: "game", ref: "hold:…", seconds: 600 });
 * if (!taken.taken) console.log(taken.reason); // "logged_in" or "held"
 * ```
 */
export async function takeTransferHold(
  db: Queryable,
  hold: { userId: string; clientId: string; ref: string; seconds: number },
): Promise<{ taken: true; until: Date } | HoldRefusal> {
  const rows = await db.query<{ transfer_hold_until: Date }>(
    `INSERT INTO login_status AS l (user_id, client_id, status, updated_at, transfer_hold_until, transfer_hold_ref)
     VALUES ($1, $2, 'logged_out', clock_timestamp(), clock_timestamp() + make_interval(secs => $4), $3)
     ON CONFLICT (user_id, client_id) DO UPDATE SET transfer_hold_until = EXCLUDED.transfer_hold_until, transfer_hold_ref = EXCLUDED.transfer_hold_ref
       WHERE l.status = 'logged_out' AND (l.transfer_hold_until IS NULL OR l.transfer_hold_until <= clock_timestamp())
     RETURNING l.transfer_hold_until`,
    [hold.userId, hold.clientId, hold.ref, hold.seconds],
  );
  if (rows[0]) return { taken: true, until: new Date(rows[0].transfer_hold_until) };
  // Refused: read why (for the answer only; the decision was the statement's).
  const row = await getLoginStatus(db, hold.userId, hold.clientId);
  if (row?.status === "logged_in") return { taken: false, reason: "logged_in" };
  return { taken: false, reason: "held", hold: { until: new Date(row?.transfer_hold_until ?? Date.now()), ref: row?.transfer_hold_ref ?? "" } };
}

/**
 * Hands a hold over to another reference (its chain write, once pending) or ends it (`to: null`),
 * only if `ref` still holds the row; answers whether it did.
 *
 * @example
 * ```ts
 * await moveTransferHold(db, { userId: "7", clientId: "game", ref: "hold:…", to: "write:42" });
 * await moveTransferHold(db, { userId: "7", clientId: "game", ref: "write:42", to: null }); // released
 * ```
 */
export async function moveTransferHold(db: Queryable, move: { userId: string; clientId: string; ref: string; to: string | null }): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    `UPDATE login_status SET transfer_hold_ref = $4, transfer_hold_until = CASE WHEN $4::text IS NULL THEN NULL ELSE transfer_hold_until END
     WHERE user_id = $1 AND client_id = $2 AND transfer_hold_ref = $3 RETURNING user_id::text`,
    [move.userId, move.clientId, move.ref, move.to],
  );
  return rows.length > 0;
}
