import { currentRequestId } from "@slotgate/chain-service";
import type { Queryable } from "@slotgate/storage";

/** A message waiting for delivery. */
export interface OutboxRow {
  id: string;
  topic: string;
  target_url: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  /** The id of the request that enqueued it (sent as `X-Request-Id` with each delivery), or null. */
  request_id: string | null;
  /**
   * Secret query parameters of `target_url` (a callback's one-time code), sealed with the server key
   * (`OutboxSeal`); null when there are none, and set to null once the message is delivered.
   */
  sealed_query: string | null;
}

/** Adds a message to the outbox; `sealedQuery` carries secret query parameters sealed with `OutboxSeal`, never in clear. */
export async function enqueue(
  db: Queryable,
  message: {
    topic: string;
    targetUrl: string | null;
    payload: Record<string, unknown>;
    maxAttempts: number;
    requestId?: string | null;
    sealedQuery?: string | null;
  },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    "INSERT INTO outbox (topic, target_url, payload, max_attempts, request_id, sealed_query) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text",
    [
      message.topic,
      message.targetUrl,
      JSON.stringify(message.payload),
      message.maxAttempts,
      message.requestId ?? currentRequestId() ?? null,
      message.sealedQuery ?? null,
    ],
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
     RETURNING id::text, topic, target_url, payload, attempts, max_attempts, request_id, sealed_query`,
    [topics, limit, leaseSeconds],
  );
}

/** Marks a message delivered and drops its sealed secrets: a delivered code is never needed again. */
export async function markDelivered(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE outbox SET delivered_at = now(), last_error = NULL, sealed_query = NULL WHERE id = $1", [id]);
}

/** Records a failed attempt: retried after `retryInSeconds`, or given up when `giveUp`. */
export async function markAttemptFailed(db: Queryable, id: string, error: string, retryInSeconds: number, giveUp: boolean): Promise<void> {
  await db.query(
    `UPDATE outbox SET last_error = $2, next_attempt_at = now() + make_interval(secs => $3),
       failed_at = CASE WHEN $4 THEN now() ELSE NULL END WHERE id = $1`,
    [id, error.slice(0, 500), retryInSeconds, giveUp],
  );
}

/** Messages waiting (not delivered, not abandoned) per topic, and the age in seconds of the oldest (for `/metrics`). */
export async function outboxDepth(db: Queryable): Promise<Array<{ topic: string; depth: number; oldest_seconds: number }>> {
  const rows = await db.query<{ topic: string; depth: string | number; oldest_seconds: string | number | null }>(
    `SELECT topic, count(*) AS depth, EXTRACT(EPOCH FROM now() - min(created_at)) AS oldest_seconds
     FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL GROUP BY topic`,
  );
  return rows.map((r) => ({ topic: r.topic, depth: Number(r.depth), oldest_seconds: Math.max(0, Number(r.oldest_seconds ?? 0)) }));
}

/** Deletes messages delivered (or abandoned) more than `days` days ago. */
export async function purgeFinished(db: Queryable, days = 7): Promise<number> {
  const rows = await db.query("DELETE FROM outbox WHERE COALESCE(delivered_at, failed_at) < now() - make_interval(days => $1) RETURNING 1", [days]);
  return rows.length;
}

/** An outbox message as the developer center lists it. */
export interface DeliveryRow {
  id: string;
  topic: string;
  target_url: string | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = "id::text, topic, target_url, attempts, max_attempts, last_error, next_attempt_at, delivered_at, failed_at, created_at";

/** The newest `limit` messages sent on behalf of a client (by `payload.client_id`), newest first. */
export async function listClientDeliveries(db: Queryable, clientId: string, limit = 50): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM outbox WHERE payload->>'client_id' = $1 ORDER BY id DESC LIMIT $2`, [clientId, limit]);
}

/** One message of a client, or null when it is not that client's. */
export async function findClientDelivery(db: Queryable, clientId: string, id: string): Promise<DeliveryRow | null> {
  const rows = await db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM outbox WHERE id = $1 AND payload->>'client_id' = $2`, [id, clientId]);
  return rows[0] ?? null;
}

/**
 * Makes an undelivered message due now, reviving a given-up one with one more attempt; null when the
 * message is not the client's or was delivered meanwhile.
 */
export async function retryClientDelivery(db: Queryable, clientId: string, id: string): Promise<DeliveryRow | null> {
  const rows = await db.query<DeliveryRow>(
    `UPDATE outbox SET next_attempt_at = now(), failed_at = NULL, max_attempts = GREATEST(max_attempts, attempts + 1)
     WHERE id = $1 AND payload->>'client_id' = $2 AND delivered_at IS NULL RETURNING ${DELIVERY_COLUMNS}`,
    [id, clientId],
  );
  return rows[0] ?? null;
}
