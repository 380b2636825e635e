import type { AuthorizationStatus } from "@slotgate/protocol";
import type { Queryable } from "./database.js";

/** The login-status record of one user's authorization of one client. */
export interface LoginStatusRow {
  status: AuthorizationStatus;
  updated_at: Date;
}

/**
 * Sets the status and writes the marketplace outbox row in ONE statement (an implicit
 * transaction): either both are stored or neither. Returns the stored time.
 */
export async function setLoginStatus(
  db: Queryable,
  change: { userId: string; clientId: string; status: AuthorizationStatus; marketplaceUrl: string | null; maxAttempts: number },
): Promise<{ updatedAt: Date; outboxId: string }> {
  const rows = await db.query<{ updated_at: Date; outbox_id: string }>(
    `WITH s AS (
       INSERT INTO login_status (user_id, client_id, status, updated_at) VALUES ($1, $2, $3, clock_timestamp())
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
     SELECT s.updated_at, o.id::text AS outbox_id FROM s, o`,
    [change.userId, change.clientId, change.status, change.marketplaceUrl, change.maxAttempts],
  );
  const row = rows[0]!;
  return { updatedAt: new Date(row.updated_at), outboxId: row.outbox_id };
}

/** Reads the status record, or null when none was ever recorded. */
export async function getLoginStatus(db: Queryable, userId: string, clientId: string): Promise<LoginStatusRow | null> {
  const rows = await db.query<LoginStatusRow>("SELECT status, updated_at FROM login_status WHERE user_id = $1 AND client_id = $2", [userId, clientId]);
  return rows[0] ?? null;
}
