import type { Queryable } from "@slotgate/storage";

/**
 * Why a landed write could not be rebuilt after the chain lost its block:
 * - `refused`: the node refused its signed transaction (its nonce was used by another transaction, or the
 *   sender cannot pay for it any more);
 * - `outcome_changed`: it landed again, but with another status or other events than the first time (what
 *   it depended on changed: a transaction that was not this service's was lost with it);
 * - `not_mined`: sent again, it did not land within the rebuild's wait;
 * - `nonce_gap`: an earlier transaction of the same key could not be sent again, so this one cannot land;
 * - `external_bundler`: an external bundler landed it; this service keeps no signed copy of its bundle.
 */
export type ChainLossReason = "refused" | "outcome_changed" | "not_mined" | "nonce_gap" | "external_bundler";

/** A write (or a kept transaction whose writes were purged) that a chain rebuild could not restore. */
export interface ChainLoss {
  /** The write (null: its transaction's writes were purged after their retention). */
  writeId: string | null;
  /** The key that sent it (a signer address, or an external bundler's id). */
  txSigner: string;
  txNonce: bigint | null;
  txHash: string;
  reason: ChainLossReason;
  message: string;
}

/** Records what a rebuild could not restore (never deleted: the write's answer was given). */
export async function recordChainLosses(db: Queryable, losses: readonly ChainLoss[]): Promise<void> {
  for (const loss of losses) {
    await db.query("INSERT INTO cs_chain_losses (write_id, tx_signer, tx_nonce, tx_hash, reason, message) VALUES ($1, $2, $3, $4, $5, $6)", [
      loss.writeId,
      loss.txSigner,
      loss.txNonce?.toString() ?? null,
      loss.txHash,
      loss.reason,
      loss.message,
    ]);
  }
}

/** Every recorded loss, oldest first. */
export async function listChainLosses(db: Queryable): Promise<Array<ChainLoss & { recordedAt: Date }>> {
  const rows = await db.query<{
    write_id: string | number | null;
    tx_signer: string;
    tx_nonce: string | number | null;
    tx_hash: string;
    reason: ChainLossReason;
    message: string;
    recorded_at: Date | string;
  }>("SELECT write_id, tx_signer, tx_nonce, tx_hash, reason, message, recorded_at FROM cs_chain_losses ORDER BY id");
  return rows.map((row) => ({
    writeId: row.write_id === null ? null : String(row.write_id),
    txSigner: row.tx_signer,
    txNonce: row.tx_nonce === null ? null : BigInt(row.tx_nonce),
    txHash: row.tx_hash,
    reason: row.reason,
    message: row.message,
    recordedAt: new Date(row.recorded_at),
  }));
}
