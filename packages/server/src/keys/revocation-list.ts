import type { Logger } from "../config/logger.js";
import type { Queryable } from "../storage/database.js";
import { insertRevocation, listRevocationsSince, maxRevocationSeq } from "../storage/revocations.js";

/**
 * The set of revoked token ids, kept in memory so that checking a bearer token costs no query.
 * Revocations made by this instance apply at once; those made by other instances are loaded
 * from the database every `pollMs`.
 */
export class RevocationList {
  private readonly revoked = new Map<string, number>();
  private lastSeq = "0";
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly log: Logger,
  ) {}

  /** Loads every live revocation, then polls for new ones. */
  async start(pollMs: number): Promise<void> {
    await this.sync();
    this.timer = setInterval(() => {
      this.sync().catch((error: unknown) => this.log.warn("revocation sync failed", { error: String(error) }));
    }, pollMs);
    this.timer.unref();
  }

  /** Stops polling. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Whether a jti is revoked. */
  has(jti: string): boolean {
    return this.revoked.has(jti);
  }

  /** Revokes a token id (stored, and applied here at once). */
  async revoke(jti: string, expiresAt: Date, reason: string): Promise<void> {
    await insertRevocation(this.db, jti, expiresAt, reason);
    this.revoked.set(jti, expiresAt.getTime());
  }

  /** Loads revocations recorded since the last sync (by any instance) and forgets expired ones. */
  async sync(): Promise<void> {
    const rows = await listRevocationsSince(this.db, this.lastSeq);
    for (const row of rows) {
      this.revoked.set(row.jti, new Date(row.expires_at).getTime());
      this.lastSeq = row.seq;
    }
    if (rows.length === 0) {
      const max = await maxRevocationSeq(this.db);
      if (BigInt(max) > BigInt(this.lastSeq)) this.lastSeq = max;
    }
    const now = Date.now();
    for (const [jti, exp] of this.revoked) if (exp < now - 60_000) this.revoked.delete(jti);
  }
}
