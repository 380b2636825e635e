import type { LoginStatusWebhookEvent } from "@slotgate/protocol";
import type { Database, Queryable } from "@slotgate/storage";

/** What {@link recordStatusEvent} did with one webhook. */
export interface RecordedEvent {
  /** `applied`: it is now the newest status; `stale`: a newer one was already known; `duplicate`: this id was seen before. */
  outcome: "applied" | "stale" | "duplicate";
  /** Ids of the listings this event withdrew (a `logged_in` of the seller at the game's client). */
  withdrawn: string[];
}

/** The marketplace's own view of a seller at a client: no record means `logged_out` (the service's convention). */
export type SellerStatus = "logged_in" | "logged_out";

/**
 * Records one verified login-status event in one transaction: once per event id; it becomes the
 * seller's status at that client only when its `timestamp` is newer than the one known (at an equal
 * timestamp `logged_in` wins, the side that blocks listing); an applied `logged_in` withdraws the
 * seller's `listed` listings of `cuids` (the cuids that client registered). Reserved listings stay: the
 * service refuses their hand-over while the seller plays, and the sale waits.
 *
 * @example
 * ```ts
 * const { outcome, withdrawn } = await recordStatusEvent(db, event, cuidsOf(config.games, event.client_id));
 * ```
 */
export function recordStatusEvent(db: Database, event: LoginStatusWebhookEvent, cuids: readonly string[]): Promise<RecordedEvent> {
  return db
    .transaction<RecordedEvent>(async (tx) => {
      const seen = await tx.query("SELECT 1 FROM mk_webhook_events WHERE id = $1", [event.id]);
      if (seen.length > 0) return { outcome: "duplicate", withdrawn: [] };
      // The status row is the lock every listing of this seller at this client takes too (see lockSellerStatus).
      const applied = await tx.query<{ status: SellerStatus }>(
        `INSERT INTO mk_seller_status (user_id, client_id, status, event_time, event_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, client_id) DO UPDATE SET status = EXCLUDED.status, event_time = EXCLUDED.event_time, event_id = EXCLUDED.event_id
       WHERE mk_seller_status.event_time < EXCLUDED.event_time
          OR (mk_seller_status.event_time = EXCLUDED.event_time AND EXCLUDED.status = 'logged_in')
       RETURNING status`,
        [event.user_id, event.client_id, event.status, event.timestamp, event.id],
      );
      const outcome: RecordedEvent["outcome"] = applied.length > 0 ? "applied" : "stale";
      const inserted = await tx.query(
        `INSERT INTO mk_webhook_events (id, user_id, client_id, status, event_time, outcome) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
        [event.id, event.user_id, event.client_id, event.status, event.timestamp, outcome],
      );
      // A concurrent delivery of the same id got in first (PostgreSQL): it did the work.
      if (inserted.length === 0) throw new DuplicateDelivery();
      let withdrawn: string[] = [];
      if (outcome === "applied" && event.status === "logged_in" && cuids.length > 0) {
        const rows = await tx.query<{ id: string }>(
          `UPDATE mk_listings SET state = 'withdrawn', withdrawn_reason = 'seller_logged_in', updated_at = now()
         WHERE seller_user_id = $1 AND cuid = ANY($2::text[]) AND state = 'listed' RETURNING id::text AS id`,
          [event.user_id, [...cuids]],
        );
        withdrawn = rows.map((r) => r.id);
      }
      return { outcome, withdrawn };
    })
    .catch((error: unknown) => {
      if (error instanceof DuplicateDelivery) return { outcome: "duplicate" as const, withdrawn: [] };
      throw error;
    });
}

class DuplicateDelivery extends Error {}

/**
 * The seller's status at a client as this marketplace knows it, with its row locked for the rest of
 * the transaction (created as `logged_out` when there is none), so a `logged_in` event and a new
 * listing of that seller are serialised: whichever comes second sees the other.
 *
 * @example
 * ```ts
 * await db.transaction(async (tx) => { if ((await lockSellerStatus(tx, "7", "sg_game")) === "logged_out") { ... } });
 * ```
 */
export async function lockSellerStatus(tx: Queryable, userId: string, clientId: string): Promise<SellerStatus> {
  await tx.query(
    `INSERT INTO mk_seller_status (user_id, client_id, status, event_time) VALUES ($1, $2, 'logged_out', '-infinity')
     ON CONFLICT (user_id, client_id) DO NOTHING`,
    [userId, clientId],
  );
  const rows = await tx.query<{ status: SellerStatus }>("SELECT status FROM mk_seller_status WHERE user_id = $1 AND client_id = $2 FOR UPDATE", [
    userId,
    clientId,
  ]);
  return rows[0]?.status ?? "logged_out";
}

/**
 * The seller's status at a client as this marketplace knows it (no record: `logged_out`).
 *
 * @example
 * ```ts
 * await sellerStatus(db, "7", "sg_game"); // "logged_out"
 * ```
 */
export async function sellerStatus(db: Queryable, userId: string, clientId: string): Promise<SellerStatus> {
  const rows = await db.query<{ status: SellerStatus }>("SELECT status FROM mk_seller_status WHERE user_id = $1 AND client_id = $2", [userId, clientId]);
  return rows[0]?.status ?? "logged_out";
}
