import type { AuthorizationStatus } from "@slotgate/protocol";
import type { Queryable } from "./database.js";

/** The login-status record of one user's authorization of one client. */
export interface LoginStatusRow {
  status: AuthorizationStatus;
  updated_at: Date;
}

/** One requested status change. */
export interface StatusChange {
  userId: string;
  clientId: string;
  status: AuthorizationStatus;
}

/**
 * Sets the status of every change and writes one marketplace outbox row per change, in ONE
 * statement (an implicit transaction): either all rows and their outbox rows are stored or none.
 * The (user, client) pairs must be distinct. Returns the stored times by `userId/clientId`.
 */
export async function setLoginStatuses(
  db: Queryable,
  changes: readonly StatusChange[],
  outbox: { marketplaceUrl: string | null; maxAttempts: number },
): Promise<Map<string, Date>> {
  const rows = await db.query<{ user_id: string; client_id: string; updated_at: Date }>(
    `WITH s AS (
       INSERT INTO login_status (user_id, client_id, status, updated_at)
       SELECT v.user_id, v.client_id, v.status, clock_timestamp()
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(user_id, client_id, status)
       ON CONFLICT (user_id, client_id) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
       RETURNING user_id, client_id, status, updated_at
     ), o AS (
       INSERT INTO outbox (topic, target_url, payload, max_attempts)
       SELECT 'marketplace.login_status', $4,
              jsonb_build_object('type', 'login_status.changed', 'user_id', user_id::text, 'client_id', client_id,
                                 'status', status, 'transfer_enabled', status = 'logged_out',
                                 'timestamp', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
              $5
       FROM s RETURNING id
     )
     SELECT s.user_id::text AS user_id, s.client_id, s.updated_at FROM s`,
    [changes.map((c) => c.userId), changes.map((c) => c.clientId), changes.map((c) => c.status), outbox.marketplaceUrl, outbox.maxAttempts],
  );
  return new Map(rows.map((r) => [`${r.user_id}/${r.client_id}`, new Date(r.updated_at)]));
}

/** Reads the status record, or null when none was ever recorded. */
export async function getLoginStatus(db: Queryable, userId: string, clientId: string): Promise<LoginStatusRow | null> {
  const rows = await db.query<LoginStatusRow>("SELECT status, updated_at FROM login_status WHERE user_id = $1 AND client_id = $2", [userId, clientId]);
  return rows[0] ?? null;
}
