import { type ClientRow, findClient } from "../storage/clients.js";
import type { Queryable } from "../storage/database.js";

/**
 * Client registrations cached for a few seconds: the token and validate paths read the same
 * client on every request. Registrations are immutable once created, so staleness only
 * delays a brand-new client by at most `ttlMs` when another instance created it (misses are not cached).
 */
export class ClientCache {
  private readonly entries = new Map<string, { row: ClientRow; at: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 30_000,
  ) {}

  /** The client, or null when unknown. */
  async get(clientId: string): Promise<ClientRow | null> {
    const hit = this.entries.get(clientId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.row;
    const row = await findClient(this.db, clientId);
    if (row) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(clientId, { row, at: Date.now() });
    }
    return row;
  }
}
