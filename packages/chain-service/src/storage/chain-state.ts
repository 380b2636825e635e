import type { Queryable } from "@slotgate/storage";

/** What the database knows about the chain it belongs to. */
export interface ChainStateRecord {
  chainId: string;
  /** The exchange address: identifies the deployment. */
  exchange: string;
  /** The last block a confirmed write of this service landed in (0: none yet). */
  lastBlock: number;
  lastBlockHash: string | null;
}

/** The recorded chain state, or null before the first start. */
export async function readChainState(db: Queryable): Promise<ChainStateRecord | null> {
  const rows = await db.query<{ chain_id: string; exchange: string; last_block: string | number; last_block_hash: string | null }>(
    "SELECT chain_id, exchange, last_block, last_block_hash FROM cs_chain_state WHERE id = 1",
  );
  const row = rows[0];
  return row ? { chainId: row.chain_id, exchange: row.exchange, lastBlock: Number(row.last_block), lastBlockHash: row.last_block_hash } : null;
}

/** Records the chain and deployment of a first start. */
export async function initChainState(db: Queryable, chainId: string, exchange: string): Promise<void> {
  await db.query("INSERT INTO cs_chain_state (id, chain_id, exchange) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING", [chainId, exchange]);
}

/** Moves the cursor to a confirmed write's block (never backwards). */
export async function recordConfirmedBlock(db: Queryable, blockNumber: number, blockHash: string): Promise<void> {
  await db.query("UPDATE cs_chain_state SET last_block = $1, last_block_hash = $2, updated_at = now() WHERE id = 1 AND last_block <= $1", [
    blockNumber,
    blockHash,
  ]);
}

/** Sets the cursor to where the chain is now (after a repair accepted what the chain has). */
export async function resetChainCursor(db: Queryable, blockNumber: number, blockHash: string | null): Promise<void> {
  await db.query("UPDATE cs_chain_state SET last_block = $1, last_block_hash = $2, updated_at = now() WHERE id = 1", [blockNumber, blockHash]);
}
