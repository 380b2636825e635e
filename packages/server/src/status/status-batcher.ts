import { currentRequestId } from "@slotgate/chain-service";
import type { Queryable } from "@slotgate/storage";
import { type StatusChange, type StatusWrite, setLoginStatuses } from "./login-status-store.js";
import { TurnBatcher } from "../platform/turn-batcher.js";

/**
 * Records login-status changes in batches: the changes requested during one event-loop turn are
 * written by ONE statement (each status row and its outbox row together). Two changes of the same
 * (user, client) never share a batch, so their order is kept. When a batch fails, each change is
 * retried alone so that one bad row cannot fail the others. A login of a row under a transfer hold
 * (the listing lock) is skipped by that statement and reported with the hold.
 *
 * @example
 * ```ts
 * const statuses = new StatusBatcher(db, { marketplaceUrl, maxAttempts: 15 });
 * const write = await statuses.set({ userId: "7", clientId: "game", status: "logged_in" });
 * if (!write.stored) console.log("held until", write.hold.until);
 * ```
 */
export class StatusBatcher {
  private readonly batcher: TurnBatcher<StatusChange, StatusWrite>;

  constructor(db: Queryable, outbox: { marketplaceUrl: string | null; maxAttempts: number }, maxBatch = 256) {
    this.batcher = new TurnBatcher({
      key: (change) => `${change.userId}/${change.clientId}`,
      write: (batch) => setLoginStatuses(db, batch, outbox),
      retrySingly: true,
      maxBatch,
    });
  }

  /** Stores one change and its outbox row; resolves to the stored time, or the transfer hold that skipped a login. */
  async set(change: StatusChange): Promise<StatusWrite> {
    // One batch serves several requests: each change keeps its own request's id.
    const at = await this.batcher.submit(change.requestId === undefined ? { ...change, requestId: currentRequestId() ?? null } : change);
    if (!at) throw new Error("status change not stored");
    return at;
  }
}
