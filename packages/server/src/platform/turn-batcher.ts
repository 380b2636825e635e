interface Waiting<T, R> {
  item: T;
  resolve: (result: R | undefined) => void;
  reject: (error: unknown) => void;
}

/** How a {@link TurnBatcher} writes. */
export interface TurnBatcherOptions<T, R> {
  /**
   * Items with the same key never share a batch, and the later one's batch starts only after the earlier one's
   * write finished: their order is kept, and two statements never race on one key.
   */
  key(item: T): string;
  /** Writes one batch with one statement; answers the result of each stored item under its key. */
  write(batch: T[]): Promise<Map<string, R>>;
  /** On a failed batch, write each item alone so that one bad item cannot fail the others. @default false */
  retrySingly?: boolean;
  /** Largest batch. @default 256 */
  maxBatch?: number;
}

/**
 * Collects the writes requested during one event-loop turn and performs them as one batch: under
 * load this turns N round trips and N commits into one. Each item stays atomic on its own; the
 * batch statement decides what "stored" means and reports it per key.
 *
 * @example
 * ```ts
 * const codes = new TurnBatcher({ key: (c) => c.codeHash, write: (batch) => redeemBatch(db, batch) });
 * const row = await codes.submit({ codeHash, jti, expiresAt }); // undefined: nothing stored for it
 * ```
 */
export class TurnBatcher<T, R> {
  private queue: Waiting<T, R>[] = [];
  private scheduled = false;
  /** Keys of the batches being written now. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: TurnBatcherOptions<T, R>) {}

  /** Queues one item for the next batch; resolves to its result, or undefined when the write stored nothing for it. */
  submit(item: T): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
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
    const maxBatch = this.options.maxBatch ?? 256;
    const keys = new Set<string>();
    const batch: Waiting<T, R>[] = [];
    const later: Waiting<T, R>[] = [];
    let nextTurn = false;
    for (const waiting of this.queue) {
      const key = this.options.key(waiting.item);
      // A key whose batch is still being written waits for that write to finish (not for the next turn):
      // on a database with several connections, two statements on one key must not overlap.
      if (this.inFlight.has(key)) later.push(waiting);
      else if (batch.length < maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else {
        later.push(waiting);
        nextTurn = true;
      }
    }
    this.queue = later;
    if (nextTurn) this.schedule();
    if (batch.length === 0) return;
    for (const key of keys) this.inFlight.add(key);
    void this.write(batch).finally(() => {
      for (const key of keys) this.inFlight.delete(key);
      if (this.queue.length > 0) this.schedule();
    });
  }

  private async write(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.options.write(batch.map((w) => w.item));
      for (const w of batch) w.resolve(results.get(this.options.key(w.item)));
    } catch (error) {
      if (!this.options.retrySingly || batch.length === 1) {
        for (const w of batch) w.reject(error);
        return;
      }
      await Promise.all(batch.map((w) => this.write([w])));
    }
  }
}
