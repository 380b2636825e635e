import type { Queryable } from "@slotgate/storage";

/** The nonces a wallet's next operation carries. */
export interface WalletNonceState {
  /** EntryPoint nonce (key 0). */
  nonce: bigint;
  /** The paymaster's `senderNonce` minus the EntryPoint nonce (the two advance together). */
  paymasterOffset: bigint;
}

/**
 * Takes a wallet's next nonces inside a transaction (the row is locked until it ends, so two instances
 * never give one nonce twice). `chain` is what the chain says now (read before the transaction): it
 * replaces the database's state when the database does not know the wallet, or knows less than the
 * chain (the wallet's owner sent operations of its own, with the backup words); otherwise the database
 * is ahead by the operations in flight and keeps counting.
 */
export async function takeWalletNonces(tx: Queryable, sender: string, chain: WalletNonceState): Promise<WalletNonceState> {
  await tx.query(
    `INSERT INTO cs_wallet_nonces (sender, next_nonce, paymaster_offset) VALUES ($1, $2, $3)
     ON CONFLICT (sender) DO UPDATE SET next_nonce = EXCLUDED.next_nonce, paymaster_offset = EXCLUDED.paymaster_offset, updated_at = now()
     WHERE cs_wallet_nonces.next_nonce < EXCLUDED.next_nonce`,
    [sender, chain.nonce.toString(), chain.paymasterOffset.toString()],
  );
  const rows = await tx.query<{ next_nonce: string; paymaster_offset: string }>(
    "SELECT next_nonce, paymaster_offset FROM cs_wallet_nonces WHERE sender = $1 FOR UPDATE",
    [sender],
  );
  const row = rows[0] as { next_nonce: string; paymaster_offset: string };
  const state = { nonce: BigInt(row.next_nonce), paymasterOffset: BigInt(row.paymaster_offset) };
  await tx.query("UPDATE cs_wallet_nonces SET next_nonce = $2, updated_at = now() WHERE sender = $1", [sender, (state.nonce + 1n).toString()]);
  return state;
}

/** Forgets what the database knows of a wallet's nonces (an operation of it was refused): the next one reads the chain. */
export async function forgetWalletNonces(db: Queryable, sender: string): Promise<void> {
  await db.query("DELETE FROM cs_wallet_nonces WHERE sender = $1", [sender]);
}

/** Forgets every wallet's nonces (the chain lost operations the database counted): each wallet's next operation reads the chain. */
export async function forgetAllWalletNonces(db: Queryable): Promise<void> {
  await db.query("DELETE FROM cs_wallet_nonces");
}
