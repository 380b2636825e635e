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
 * never give one nonce twice). `fromChain` is read only when the database does not know the wallet.
 */
export async function takeWalletNonces(tx: Queryable, sender: string, fromChain: () => Promise<WalletNonceState>): Promise<WalletNonceState> {
  let rows = await tx.query<{ next_nonce: string; paymaster_offset: string }>(
    "SELECT next_nonce, paymaster_offset FROM cs_wallet_nonces WHERE sender = $1 FOR UPDATE",
    [sender],
  );
  if (rows.length === 0) {
    const chain = await fromChain();
    await tx.query("INSERT INTO cs_wallet_nonces (sender, next_nonce, paymaster_offset) VALUES ($1, $2, $3) ON CONFLICT (sender) DO NOTHING", [
      sender,
      chain.nonce.toString(),
      chain.paymasterOffset.toString(),
    ]);
    rows = await tx.query("SELECT next_nonce, paymaster_offset FROM cs_wallet_nonces WHERE sender = $1 FOR UPDATE", [sender]);
  }
  const row = rows[0] as { next_nonce: string; paymaster_offset: string };
  const state = { nonce: BigInt(row.next_nonce), paymasterOffset: BigInt(row.paymaster_offset) };
  await tx.query("UPDATE cs_wallet_nonces SET next_nonce = $2, updated_at = now() WHERE sender = $1", [sender, (state.nonce + 1n).toString()]);
  return state;
}

/** Forgets what the database knows of a wallet's nonces (an operation of it was refused): the next one reads the chain. */
export async function forgetWalletNonces(db: Queryable, sender: string): Promise<void> {
  await db.query("DELETE FROM cs_wallet_nonces WHERE sender = $1", [sender]);
}
