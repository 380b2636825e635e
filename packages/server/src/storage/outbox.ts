import type { Queryable } from "./database.js";

/** A message waiting for delivery. */
export interface OutboxRow {
  id: string;
  topic: string;
  target_url: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/** Adds a message to the outbox. */
export async function enqueue(
  db: Queryable,
  message: { topic: string; targetUrl: string | null; payload: Record<string, unknown>; maxAttempts: number },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    "INSERT INTO outbox (topic, target_url, payload, max_attempts) VALUES ($1, $2, $3, $4) RETURNING id::text",
    [message.topic, message.targetUrl, JSON.stringify(message.payload), message.maxAttempts],
  );
  return rows[0]!.id;
}

/**
 * Claims up to `limit` due messages for `leaseSeconds` (another worker skips them meanwhile;
 * if this one dies the lease runs out and they are retried).
 */
export async function claimDue(db: Queryable, topics: readonly string[], limit: number, leaseSeconds: number): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `UPDATE outbox SET next_attempt_at = now() + make_interval(secs => $3), attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM outbox
       WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now() AND topic = ANY($1::text[])
       ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     RETURNING id::text, topic, target_url, payload, attempts, max_attempts`,
    [topics, limit, leaseSeconds],
  );
}

/** Marks a message delivered. */
export async function markDelivered(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE outbox SET delivered_at = now(), last_error = NULL WHERE id = $1", [id]);
}

/** Records a failed attempt: retried after `retryInSeconds`, or given up when `giveUp`. */
export async function markAttemptFailed(db: Queryable, id: string, error: string, retryInSeconds: number, giveUp: boolean): Promise<void> {
  await db.query(
    `UPDATE outbox SET last_error = $2, next_attempt_at = now() + make_interval(secs => $3),
       failed_at = CASE WHEN $4 THEN now() ELSE NULL END WHERE id = $1`,
    [id, error.slice(0, 500), retryInSeconds, giveUp],
  );
}

/** Delivery state of one message (for operators and tests). */
export async function getOutboxMessage(
  db: Queryable,
  id: string,
): Promise<{ attempts: number; delivered_at: Date | null; failed_at: Date | null; last_error: string | null } | null> {
  const rows = await db.query<{ attempts: number; delivered_at: Date | null; failed_at: Date | null; last_error: string | null }>(
    "SELECT attempts, delivered_at, failed_at, last_error FROM outbox WHERE id = $1",
    [id],
  );
  return rows[0] ?? null;
}

/** Deletes messages delivered (or abandoned) more than `days` days ago. */
export async function purgeFinished(db: Queryable, days = 7): Promise<number> {
  const rows = await db.query(
    "DELETE FROM outbox WHERE COALESCE(delivered_at, failed_at) < now() - make_interval(days => $1) RETURNING 1",
    [days],
  );
  return rows.length;
}
