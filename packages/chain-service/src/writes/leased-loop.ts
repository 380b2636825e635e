import type { Database } from "@slotgate/storage";
import { acquireLease, releaseLease } from "../storage/signers.js";

/** Options every writer loop shares. */
export interface LeasedLoopOptions {
  db: Database;
  /** This process's id in leases. */
  holder: string;
  /** How long a lease lasts without renewal, ms. @default 15000 */
  leaseMs?: number;
  /** How often the loop looks for work while idle, ms. @default 200 */
  idleMs?: number;
}

/** @internal How long a writer holds a signer's lease before renewing it: the longest a stopped instance's lease outlives it. */
export const WRITER_LEASE_MS = 15_000;

/**
 * @internal The loop of a writer that only one instance may run at a time: it holds the lease of one
 * row of `cs_signers` (renewed every third of its length, taken over by another instance once it
 * expires), runs {@link LeasedLoop.work} while it holds it, backs off after errors (nothing is lost:
 * the work is in the database) and sleeps when idle until {@link LeasedLoop.kick}.
 */
export abstract class LeasedLoop {
  readonly #db: Database;
  readonly #holder: string;
  readonly #leaseMs: number;
  readonly #idleMs: number;
  #running: Promise<void> | undefined;
  #stopped = false;
  #wake: (() => void) | undefined;
  #kicked = false;
  #leaseRenewedAt = 0;
  #held = false;
  /** Observable facts for tests and metrics. */
  readonly stats = { transactions: 0, largestBatch: 0, rebroadcasts: 0, cycles: 0, errors: 0 };

  constructor(
    /** The leased row: a signer's address, or the id of an external bundler. */
    readonly address: string,
    options: LeasedLoopOptions,
  ) {
    this.#db = options.db;
    this.#holder = options.holder;
    this.#leaseMs = options.leaseMs ?? WRITER_LEASE_MS;
    this.#idleMs = options.idleMs ?? 200;
  }

  /** One round of work while holding the lease; answers whether more work is waiting. */
  protected abstract work(): Promise<boolean>;

  /** Whether this process held the lease at its last look. */
  get holdsLease(): boolean {
    return this.#held;
  }

  /** Notes that the lease was found taken over (the next cycle tries to take it again). */
  protected lostLease(): void {
    this.#held = false;
  }

  /** Starts the loop (once). */
  start(): void {
    if (!this.#stopped) this.#running ??= this.#loop();
  }

  /** Wakes the loop now (a write was recorded), starting it if needed. */
  kick(): void {
    this.start();
    this.#kicked = true;
    this.#wake?.();
  }

  /** Stops after the current cycle and gives the lease up (the work stays in the database for the next holder). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#running;
    if (this.#held) await releaseLease(this.#db, this.address, this.#holder).catch(() => undefined);
    this.#held = false;
  }

  async #loop(): Promise<void> {
    let backoff = 0;
    while (!this.#stopped) {
      this.#kicked = false;
      let busy = false;
      try {
        busy = await this.#cycle();
        backoff = 0;
      } catch (error) {
        // A chain or database hiccup: nothing is lost (everything is in the database); try again later.
        this.stats.errors += 1;
        if (process.env.SLOTGATE_DEBUG_WRITERS) console.error(`[writer ${this.address}]`, error);
        backoff = Math.min(5000, backoff === 0 ? 200 : backoff * 2);
      }
      if (this.#stopped) break;
      if (this.#kicked && backoff === 0) continue;
      // Another instance holds the lease: look again in a while (a kick still wakes the loop at once).
      const idle = this.#held ? this.#idleMs : Math.max(this.#idleMs, Math.min(1000, this.#leaseMs / 3));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || (busy ? 25 : idle));
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  async #cycle(): Promise<boolean> {
    this.stats.cycles += 1;
    if (!this.#held || Date.now() - this.#leaseRenewedAt > this.#leaseMs / 3) {
      this.#held = await acquireLease(this.#db, this.address, this.#holder, this.#leaseMs);
      this.#leaseRenewedAt = Date.now();
    }
    if (!this.#held) return false;
    return this.work();
  }
}
