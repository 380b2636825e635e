import type { Queryable } from "../storage/database.js";
import { type CodeRow, consumeCodes } from "../storage/codes.js";

interface Pending {
  codeHash: string;
  jti: string;
  expiresAt: Date;
  resolve: (row: (CodeRow & { expired: boolean }) | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Redeems authorization codes in batches: every code presented during one event-loop turn is
 * consumed by ONE `UPDATE … FROM unnest(…)` statement (still atomic per code: its consumption
 * and the record of the token issued from it are one row update). Under load this turns N
 * round trips and N commits into one, which is what lets the token endpoint keep up with
 * token services that keep no state. A code presented twice in one batch waits for the next
 * batch, where it is seen as used (replay).
 */
export class CodeBatcher {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Queryable,
    private readonly maxBatch = 256,
  ) {}

  /** Consumes one code; resolves to its row, or null when it is unknown or already used. */
  consume(codeHash: string, token: { jti: string; expiresAt: Date }): Promise<(CodeRow & { expired: boolean }) | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ codeHash, jti: token.jti, expiresAt: token.expiresAt, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const seen = new Set<string>();
    const batch: Pending[] = [];
    const later: Pending[] = [];
    for (const p of this.queue) {
      if (batch.length < this.maxBatch && !seen.has(p.codeHash)) {
        seen.add(p.codeHash);
        batch.push(p);
      } else later.push(p);
    }
    this.queue = later;
    if (later.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    consumeCodes(
      this.db,
      batch.map((p) => ({ codeHash: p.codeHash, jti: p.jti, expiresAt: p.expiresAt })),
    ).then(
      (rows) => {
        for (const p of batch) {
          const row = rows.get(p.codeHash);
          p.resolve(row && row.token_jti === p.jti ? row : null);
        }
      },
      (error: unknown) => {
        for (const p of batch) p.reject(error);
      },
    );
  }
}
