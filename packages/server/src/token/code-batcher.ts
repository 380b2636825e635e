import type { Queryable } from "@slotgate/storage";
import { type CodeRow, consumeCodes } from "../storage/codes.js";
import { TurnBatcher } from "../storage/turn-batcher.js";

interface Redemption {
  codeHash: string;
  jti: string;
  expiresAt: Date;
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
  private readonly batcher: TurnBatcher<Redemption, CodeRow & { token_jti: string }>;

  constructor(db: Queryable, maxBatch = 256) {
    this.batcher = new TurnBatcher({ key: (r) => r.codeHash, write: (batch) => consumeCodes(db, batch), maxBatch });
  }

  /** Consumes one code; resolves to its row, or null when it is unknown or already used. */
  async consume(codeHash: string, token: { jti: string; expiresAt: Date }): Promise<CodeRow | null> {
    const row = await this.batcher.submit({ codeHash, jti: token.jti, expiresAt: token.expiresAt });
    return row && row.token_jti === token.jti ? row : null;
  }
}
