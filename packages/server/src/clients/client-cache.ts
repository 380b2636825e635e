import { type ClientRow, findClient } from "../storage/clients.js";
import type { Queryable } from "@slotgate/storage";

/**
 * Client registrations cached for a few seconds: the token and validate paths read the same client on
 * every request. The developer center changes registrations (redirect URIs, secret, disabled): a change
 * made through this instance drops the entry at once ({@link ClientCache.forget}); other instances see
 * it within `ttlMs` (docs/decisions/developer-center.md). Misses are not cached.
 */
export class ClientCache {
  private readonly entries = new Map<string, { row: ClientRow; at: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 5_000,
  ) {}

  /** The client, or null when unknown, disabled or deleted: such a client can neither sign users in nor authenticate. */
  async get(clientId: string): Promise<ClientRow | null> {
    const row = await this.getAny(clientId);
    return row && row.disabled_at === null && row.deleted_at === null ? row : null;
  }

  /** The client row whatever its state (disabled and deleted included), or null when unknown. */
  async getAny(clientId: string): Promise<ClientRow | null> {
    const hit = this.entries.get(clientId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.row;
    const row = await findClient(this.db, clientId);
    if (row) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(clientId, { row, at: Date.now() });
    }
    return row;
  }

  /** Drops a cached registration after it changed. */
  forget(clientId: string): void {
    this.entries.delete(clientId);
  }
}
