import { LIMITS } from "@slotgate/protocol";
import type { Logger } from "../../platform/config/logger.js";
import type { Queryable } from "@slotgate/storage";
import { insertRevocation, listRevocationsSince, maxRevocationSeq } from "./revocations-store.js";

/**
 * The set of revoked token ids, kept in memory so that checking a bearer token costs no query.
 * Revocations made by this instance apply at once; those made by other instances are loaded
 * from the database every `pollMs`.
 */
export class RevocationList {
  private readonly revoked = new Map<string, number>();
  /** Per client: tokens issued at or before this unix second are revoked (client disabled or deleted). */
  private readonly clientCutoffs = new Map<string, { cutoff: number; expires: number }>();
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

  /**
   * Revokes every token of a client issued up to `at` (stored as the pseudo token id
   * `client:{client_id}:{unix seconds}` and kept until the longest-lived token of that moment expired).
   */
  async revokeClient(clientId: string, at: Date): Promise<void> {
    const { cutoff, expires } = await recordClientRevocation(this.db, clientId, at);
    this.noteClient(clientId, cutoff, expires.getTime());
  }

  /** The unix second up to which every token of the client is revoked, if any. */
  clientCutoff(clientId: string): number | undefined {
    return this.clientCutoffs.get(clientId)?.cutoff;
  }

  private noteClient(clientId: string, cutoff: number, expires: number): void {
    const known = this.clientCutoffs.get(clientId);
    if (!known || known.cutoff < cutoff) this.clientCutoffs.set(clientId, { cutoff, expires });
  }

  /** Revokes a token id (stored, and applied here at once). */
  async revoke(jti: string, expiresAt: Date, reason: string): Promise<void> {
    await insertRevocation(this.db, jti, expiresAt, reason);
    this.revoked.set(jti, expiresAt.getTime());
  }

  /** Loads revocations recorded since the last sync (by any instance) and forgets expired ones. */
  async sync(): Promise<void> {
    // The high-water mark is read BEFORE the rows: a revocation committed between the two reads is then in the
    // listing, or has a larger number and is read next time. (Read after, it let such a revocation be skipped for
    // good: a replayed code's token kept validating on the instance that revoked it.)
    const high = await maxRevocationSeq(this.db);
    const rows = await listRevocationsSince(this.db, this.lastSeq);
    for (const row of rows) {
      const client = /^client:(.+):(\d+)$/.exec(row.jti);
      if (client) this.noteClient(client[1]!, Number(client[2]), new Date(row.expires_at).getTime());
      else this.revoked.set(row.jti, new Date(row.expires_at).getTime());
      this.lastSeq = row.seq;
    }
    // Past expired revocations the listing leaves out.
    if (BigInt(high) > BigInt(this.lastSeq)) this.lastSeq = high;
    const now = Date.now();
    for (const [jti, exp] of this.revoked) if (exp < now - 60_000) this.revoked.delete(jti);
    for (const [client, entry] of this.clientCutoffs) if (entry.expires < now - 60_000) this.clientCutoffs.delete(client);
  }
}

/**
 * Stores the revocation of every token of a client issued up to `at` (what {@link RevocationList.revokeClient}
 * does, for a process without a list, e.g. the CLI: the servers load it on their next sync).
 */
export async function recordClientRevocation(db: Queryable, clientId: string, at: Date): Promise<{ cutoff: number; expires: Date }> {
  const cutoff = Math.floor(at.getTime() / 1000);
  const longest = Math.max(LIMITS.userJwtLifetimeSeconds, LIMITS.accessTokenLifetimeSeconds);
  const expires = new Date((cutoff + longest + LIMITS.clockSkewSeconds + 60) * 1000);
  await insertRevocation(db, `client:${clientId}:${cutoff}`, expires, "client disabled");
  return { cutoff, expires };
}
