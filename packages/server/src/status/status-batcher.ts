import type { Queryable } from "../storage/database.js";
import { type StatusChange, setLoginStatuses } from "../storage/login-status.js";

interface Pending extends StatusChange {
  resolve: (updatedAt: Date) => void;
  reject: (error: unknown) => void;
}

/**
 * Records login-status changes in batches: the changes requested during one event-loop turn are
 * written by ONE statement (each status row and its outbox row together). Two changes of the same
 * (user, client) never share a batch, so their order is kept. When a batch fails, each change is
 * retried alone so that one bad row cannot fail the others.
 */
export class StatusBatcher {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Queryable,
    private readonly outbox: { marketplaceUrl: string | null; maxAttempts: number },
    private readonly maxBatch = 256,
  ) {}

  /** Stores one change and its outbox row; resolves to the stored time. */
  set(change: StatusChange): Promise<Date> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...change, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const seen = new Set<string>();
    const batch: Pending[] = [];
    const later: Pending[] = [];
    for (const p of this.queue) {
      const key = `${p.userId}/${p.clientId}`;
      if (batch.length < this.maxBatch && !seen.has(key)) {
        seen.add(key);
        batch.push(p);
      } else later.push(p);
    }
    this.queue = later;
    if (later.length > 0) this.schedule();
    void this.write(batch);
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const stored = await setLoginStatuses(this.db, batch, this.outbox);
      for (const p of batch) {
        const at = stored.get(`${p.userId}/${p.clientId}`);
        if (at) p.resolve(at);
        else p.reject(new Error("status change not stored"));
      }
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      await Promise.all(batch.map((p) => this.write([p])));
    }
  }
}
