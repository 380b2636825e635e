import { currentRequestId } from "@slotgate/chain-service";
import type { Queryable } from "@slotgate/storage";
import { type StatusChange, setLoginStatuses } from "../storage/login-status.js";
import { TurnBatcher } from "../storage/turn-batcher.js";

/**
 * Records login-status changes in batches: the changes requested during one event-loop turn are
 * written by ONE statement (each status row and its outbox row together). Two changes of the same
 * (user, client) never share a batch, so their order is kept. When a batch fails, each change is
 * retried alone so that one bad row cannot fail the others.
 */
export class StatusBatcher {
  private readonly batcher: TurnBatcher<StatusChange, Date>;

  constructor(db: Queryable, outbox: { marketplaceUrl: string | null; maxAttempts: number }, maxBatch = 256) {
    this.batcher = new TurnBatcher({
      key: (change) => `${change.userId}/${change.clientId}`,
      write: (batch) => setLoginStatuses(db, batch, outbox),
      retrySingly: true,
      maxBatch,
    });
  }

  /** Stores one change and its outbox row; resolves to the stored time. */
  async set(change: StatusChange): Promise<Date> {
    // One batch serves several requests: each change keeps its own request's id.
    const at = await this.batcher.submit(change.requestId === undefined ? { ...change, requestId: currentRequestId() ?? null } : change);
    if (!at) throw new Error("status change not stored");
    return at;
  }
}
