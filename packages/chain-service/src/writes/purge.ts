import { LIMITS } from "@slotgate/protocol";
import type { Database } from "@slotgate/storage";
import type { ChainServiceLogger } from "../config.js";
import { ChainServiceError } from "../errors.js";
import { purgeSettledWrites } from "../storage/writes.js";

/** How often each instance purges, ms. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * @internal The configured retention of settled writes, checked: a whole number of seconds, at least
 * the idempotency-key lifetime the API promises (`LIMITS.idempotencyKeyLifetimeSeconds`, one day).
 */
export function writeRetentionOf(seconds: number | undefined): number {
  const retention = seconds ?? LIMITS.idempotencyKeyLifetimeSeconds;
  if (!Number.isSafeInteger(retention) || retention < LIMITS.idempotencyKeyLifetimeSeconds) {
    throw new ChainServiceError("invalid_request", `writeRetentionSeconds must be a whole number of seconds, at least ${LIMITS.idempotencyKeyLifetimeSeconds}`);
  }
  return retention;
}

/**
 * @internal Keeps the promised lifetime of settled chain writes: a write that settled more than
 * `retentionSeconds` ago is deleted, with its answer and its idempotency key (`purgeSettledWrites`).
 * Every instance runs it at start and hourly; runs of several instances at once delete each row once.
 */
export class WritePurge {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(private readonly o: { db: Database; retentionSeconds: number; now: () => Date; log: ChainServiceLogger; everyMs?: number }) {}

  /** Purges once (a run already in flight is joined); answers how many writes it deleted. */
  run(): Promise<number> {
    this.#running ??= (async () => {
      try {
        const before = new Date(this.o.now().getTime() - this.o.retentionSeconds * 1000);
        const count = await purgeSettledWrites(this.o.db, before);
        if (count > 0) this.o.log.info("settled chain writes purged", { count, settled_before: before.toISOString() });
        return count;
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  /** Runs now, then every hour (the timer does not keep the process alive). */
  start(): void {
    const tick = () =>
      void this.run().catch((error: unknown) =>
        this.o.log.warn("purging settled chain writes failed", { error: error instanceof Error ? error.message : String(error) }),
      );
    tick();
    this.#timer = setInterval(tick, this.o.everyMs ?? PURGE_EVERY_MS);
    this.#timer.unref();
  }

  /** Stops the timer and waits for a run in flight. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
  }
}
