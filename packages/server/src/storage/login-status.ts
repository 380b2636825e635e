import type { AuthorizationStatus } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";

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
  /** The id of the request that made the change, kept on its outbox row. */
  requestId?: string | null;
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
    [changes.map((c) => c.userId), changes.map((c) => c.clientId), changes.map((c) => c.status), outbox.marketplaceUrl, outbox.maxAttempts, changes.map((c) => c.requestId ?? null)],
  );
  return new Map(rows.map((r) => [`${r.user_id}/${r.client_id}`, new Date(r.updated_at)]));
}

/** Reads the status record, or null when none was ever recorded. */
export async function getLoginStatus(db: Queryable, userId: string, clientId: string): Promise<LoginStatusRow | null> {
  const rows = await db.query<LoginStatusRow>("SELECT status, updated_at FROM login_status WHERE user_id = $1 AND client_id = $2", [userId, clientId]);
  return rows[0] ?? null;
}
