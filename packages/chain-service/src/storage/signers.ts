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

interface TransactionRow {
  signer: string;
  nonce: string | number;
  tx_hash: string;
  raw: string;
  status: TransactionRecord["status"];
  sent_at: Date | string | null;
  created_at: Date | string;
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

/** Settles a transaction with what the chain says of it. */
export async function settleTransaction(
  db: Queryable,
  signer: string,
  nonce: bigint,
  outcome: { status: "mined" | "reverted" | "replaced"; blockNumber?: number; blockHash?: string; gasUsed?: bigint },
): Promise<void> {
  await db.query(
    `UPDATE cs_transactions SET status = $3, block_number = $4, block_hash = $5, gas_used = $6, settled_at = now()
     WHERE signer = $1 AND nonce = $2 AND status = 'signed'`,
    [signer, nonce.toString(), outcome.status, outcome.blockNumber ?? null, outcome.blockHash ?? null, outcome.gasUsed?.toString() ?? null],
  );
}

/** Every nonce a signer used, in order (tests prove none was skipped nor reused). */
export async function transactionNonces(db: Database, signer: string): Promise<bigint[]> {
  const rows = await db.query<{ nonce: string }>("SELECT nonce FROM cs_transactions WHERE signer = $1 ORDER BY nonce", [signer]);
  return rows.map((row) => BigInt(row.nonce));
}

/**
 * After the chain lost blocks: every signer's and wallet's nonce is read from the chain again, the
 * kept transactions are forgotten (the chain reuses their nonces), and the writes not settled go back
 * in the queue.
 */
export async function forgetChainPosition(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("UPDATE cs_writes SET status = 'pending', tx_signer = NULL, tx_nonce = NULL, updated_at = now() WHERE status = 'submitted'");
    await tx.query("UPDATE cs_writes SET tx_signer = NULL, tx_nonce = NULL WHERE tx_nonce IS NOT NULL");
    await tx.query("DELETE FROM cs_transactions");
    await tx.query("UPDATE cs_signers SET next_nonce = NULL, updated_at = now()");
    await tx.query("DELETE FROM cs_wallet_nonces");
  });
}
