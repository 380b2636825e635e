import type { Database, Queryable } from "@slotgate/storage";

/** A signed transaction as kept before it is sent (so a crash never loses nor doubles it). */
export interface TransactionRecord {
  signer: string;
  nonce: bigint;
  txHash: string;
  raw: string;
  status: "signed" | "mined" | "reverted" | "replaced";
  sentAt: Date | null;
  createdAt: Date;
}

/** A transaction that landed, where, and what it did ({@link settleTransaction}). */
export interface LandedTransactionRecord extends TransactionRecord {
  status: "mined" | "reverted";
  blockNumber: number;
  blockHash: string;
  /** Its index in the block (null: settled before the rebuild kept it). */
  txIndex: number | null;
  /** `receiptOutcome` of its receipt (null: settled before the rebuild kept it). */
  outcome: string | null;
}

interface TransactionRow {
  signer: string;
  nonce: string | number;
  tx_hash: string;
  raw: string;
  status: TransactionRecord["status"];
  sent_at: Date | string | null;
  created_at: Date | string;
  block_number?: string | number | null;
  block_hash?: string | null;
  tx_index?: number | null;
  outcome?: string | null;
}

const toTransaction = (row: TransactionRow): TransactionRecord => ({
  signer: row.signer,
  nonce: BigInt(row.nonce),
  txHash: row.tx_hash,
  raw: row.raw,
  status: row.status,
  sentAt: row.sent_at === null ? null : new Date(row.sent_at),
  createdAt: new Date(row.created_at),
});

const toLanded = (row: TransactionRow): LandedTransactionRecord => ({
  ...toTransaction(row),
  status: row.status as LandedTransactionRecord["status"],
  blockNumber: Number(row.block_number),
  blockHash: String(row.block_hash),
  txIndex: row.tx_index ?? null,
  outcome: row.outcome ?? null,
});

/**
 * Takes or renews the lease of a signer for `holder` until `now + leaseMs` (database clock): answers
 * true when `holder` holds it afterwards. A lease that expired is taken over.
 */
export async function acquireLease(db: Queryable, signer: string, holder: string, leaseMs: number): Promise<boolean> {
  await db.query("INSERT INTO cs_signers (address) VALUES ($1) ON CONFLICT (address) DO NOTHING", [signer]);
  const rows = await db.query<{ address: string }>(
    `UPDATE cs_signers SET lease_holder = $2, lease_until = now() + ($3::text || ' milliseconds')::interval, updated_at = now()
     WHERE address = $1 AND (lease_holder IS NULL OR lease_holder = $2 OR lease_until < now()) RETURNING address`,
    [signer, holder, String(leaseMs)],
  );
  return rows.length === 1;
}

/** Gives the lease up (a clean stop: another instance takes over at once). */
export async function releaseLease(db: Queryable, signer: string, holder: string): Promise<void> {
  await db.query("UPDATE cs_signers SET lease_holder = NULL, lease_until = NULL WHERE address = $1 AND lease_holder = $2", [signer, holder]);
}

/**
 * The next nonce of a signer, taken inside a transaction, only while `holder` holds its lease (else
 * null: another instance took it over). `chainNonce` is the chain's count of the signer's mined
 * transactions: the database never gives a nonce below it.
 */
export async function takeNonce(tx: Queryable, signer: string, holder: string, chainNonce: bigint): Promise<bigint | null> {
  const rows = await tx.query<{ next_nonce: string | null }>(
    "SELECT next_nonce FROM cs_signers WHERE address = $1 AND lease_holder = $2 AND lease_until > now() FOR UPDATE",
    [signer, holder],
  );
  if (rows.length === 0) return null;
  const stored = rows[0]?.next_nonce === null || rows[0]?.next_nonce === undefined ? 0n : BigInt(rows[0].next_nonce);
  const nonce = stored > chainNonce ? stored : chainNonce;
  await tx.query("UPDATE cs_signers SET next_nonce = $2, updated_at = now() WHERE address = $1", [signer, (nonce + 1n).toString()]);
  return nonce;
}

/** Keeps a signed transaction (before it is sent). */
export async function insertTransaction(tx: Queryable, record: { signer: string; nonce: bigint; txHash: string; raw: string }): Promise<void> {
  await tx.query("INSERT INTO cs_transactions (signer, nonce, tx_hash, raw, status) VALUES ($1, $2, $3, $4, 'signed')", [
    record.signer,
    record.nonce.toString(),
    record.txHash,
    record.raw,
  ]);
}

/** Notes that a transaction was handed to the node. */
export async function markSent(db: Queryable, signer: string, nonce: bigint): Promise<void> {
  await db.query("UPDATE cs_transactions SET sent_at = now() WHERE signer = $1 AND nonce = $2", [signer, nonce.toString()]);
}

/** The signer's transactions not settled yet, oldest first. */
export async function openTransactions(db: Queryable, signer: string): Promise<TransactionRecord[]> {
  const rows = await db.query<TransactionRow>("SELECT * FROM cs_transactions WHERE signer = $1 AND status = 'signed' ORDER BY nonce", [signer]);
  return rows.map(toTransaction);
}

/** Where a transaction landed and what it did. */
export interface TransactionPlace {
  status: "mined" | "reverted";
  blockNumber: number;
  blockHash: string;
  /** Its index in the block. */
  txIndex: number;
  gasUsed: bigint;
  /** `receiptOutcome` of its receipt. */
  outcome: string;
}

/** Settles a transaction with what the chain says of it. */
export async function settleTransaction(db: Queryable, signer: string, nonce: bigint, outcome: TransactionPlace | { status: "replaced" }): Promise<void> {
  const place = outcome.status === "replaced" ? null : outcome;
  await db.query(
    `UPDATE cs_transactions SET status = $3, block_number = $4, block_hash = $5, gas_used = $6, tx_index = $7, outcome = $8, settled_at = now()
     WHERE signer = $1 AND nonce = $2 AND status = 'signed'`,
    [
      signer,
      nonce.toString(),
      outcome.status,
      place?.blockNumber ?? null,
      place?.blockHash ?? null,
      place?.gasUsed.toString() ?? null,
      place?.txIndex ?? null,
      place?.outcome ?? null,
    ],
  );
}

/**
 * The last block a kept transaction of this service landed in (by number), or null before the first.
 */
export async function lastLandedBlock(db: Queryable): Promise<{ blockNumber: number; blockHash: string } | null> {
  const rows = await db.query<{ block_number: string | number; block_hash: string }>(
    "SELECT block_number, block_hash FROM cs_transactions WHERE status IN ('mined', 'reverted') ORDER BY block_number DESC LIMIT 1",
  );
  return rows[0] ? { blockNumber: Number(rows[0].block_number), blockHash: rows[0].block_hash } : null;
}

/** Every block the kept transactions landed in, lowest first (the rebuild looks for the first one the chain lost). */
export async function landedBlocks(db: Queryable): Promise<Array<{ blockNumber: number; blockHash: string }>> {
  const rows = await db.query<{ block_number: string | number; block_hash: string }>(
    "SELECT DISTINCT block_number, block_hash FROM cs_transactions WHERE status IN ('mined', 'reverted') ORDER BY block_number",
  );
  return rows.map((row) => ({ blockNumber: Number(row.block_number), blockHash: row.block_hash }));
}

/**
 * The kept transactions that landed in block `fromBlock` or later, in the order they landed: block,
 * then index in the block (transactions settled before the index was kept: by when they were signed).
 */
export async function landedSince(db: Queryable, fromBlock: number): Promise<LandedTransactionRecord[]> {
  const rows = await db.query<TransactionRow>(
    `SELECT * FROM cs_transactions WHERE status IN ('mined', 'reverted') AND block_number >= $1
     ORDER BY block_number, tx_index NULLS LAST, created_at, signer, nonce`,
    [fromBlock],
  );
  return rows.map(toLanded);
}

/** A landed transaction's new place after the chain lost its block and it was sent again (or the chain's word when it was not). */
export async function relandTransaction(db: Queryable, signer: string, nonce: bigint, place: TransactionPlace | { status: "replaced" }): Promise<void> {
  const landed = place.status === "replaced" ? null : place;
  await db.query(
    `UPDATE cs_transactions SET status = $3, block_number = $4, block_hash = $5, gas_used = $6, tx_index = $7, outcome = COALESCE($8, outcome), settled_at = now()
     WHERE signer = $1 AND nonce = $2`,
    [
      signer,
      nonce.toString(),
      place.status,
      landed?.blockNumber ?? null,
      landed?.blockHash ?? null,
      landed?.gasUsed.toString() ?? null,
      landed?.txIndex ?? null,
      landed?.outcome ?? null,
    ],
  );
}

/**
 * After a signer's transaction could not be sent again (the chain lost it and refused it): its later
 * transactions can never land (their nonces follow a gap), so those not settled are given up
 * (`replaced`) and their writes go back in the queue, and the signer's next nonce is read from the
 * chain again. Answers the writes put back.
 */
export async function abandonOpenTransactions(db: Database, signer: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string | number }>(
      `UPDATE cs_writes SET status = 'pending', tx_signer = NULL, tx_nonce = NULL, updated_at = now()
       WHERE status = 'submitted' AND tx_signer = $1 AND tx_nonce IN (SELECT nonce FROM cs_transactions WHERE signer = $1 AND status = 'signed')
       RETURNING id`,
      [signer],
    );
    await tx.query("UPDATE cs_transactions SET status = 'replaced', settled_at = now() WHERE signer = $1 AND status = 'signed'", [signer]);
    await tx.query("UPDATE cs_signers SET next_nonce = NULL, updated_at = now() WHERE address = $1", [signer]);
    return rows.map((row) => String(row.id));
  });
}

/** Every nonce a signer used, in order (tests prove none was skipped nor reused). */
export async function transactionNonces(db: Database, signer: string): Promise<bigint[]> {
  const rows = await db.query<{ nonce: string }>("SELECT nonce FROM cs_transactions WHERE signer = $1 ORDER BY nonce", [signer]);
  return rows.map((row) => BigInt(row.nonce));
}

/** A landed transaction sent again that has not landed yet: open again, its signer's writer settles it when it does. */
export async function reopenTransaction(db: Queryable, signer: string, nonce: bigint): Promise<void> {
  await db.query(
    "UPDATE cs_transactions SET status = 'signed', block_number = NULL, block_hash = NULL, tx_index = NULL, sent_at = now() WHERE signer = $1 AND nonce = $2",
    [signer, nonce.toString()],
  );
}
