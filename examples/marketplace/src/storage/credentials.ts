import type { Queryable } from "@slotgate/storage";
import type { Sealer } from "../sealing.js";

/** A seller's PIN credentials as the hand-over needs them (key_share_user opened). */
export interface SellerCredentials {
  walletAddress: string;
  pinSalt: string;
  keyShareUser: string;
}

/**
 * Stores a seller's PIN credentials from `POST /v1/pin/register`: key_share_user sealed for this user.
 * A second registration of the same user replaces the first (the service's register answers once per wallet).
 *
 * @example
 * ```ts
 * await saveCredentials(db, sealer, "7", { walletAddress, pinSalt, keyShareUser });
 * ```
 */
export async function saveCredentials(db: Queryable, sealer: Sealer, userId: string, credentials: SellerCredentials): Promise<void> {
  await db.query(
    `INSERT INTO mk_seller_credentials (user_id, wallet_address, pin_salt, sealed_key_share) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET wallet_address = EXCLUDED.wallet_address, pin_salt = EXCLUDED.pin_salt, sealed_key_share = EXCLUDED.sealed_key_share, created_at = now()`,
    [userId, credentials.walletAddress, credentials.pinSalt, sealer.seal(credentials.keyShareUser, userId)],
  );
}

/**
 * The seller's PIN salt (public: the page hashes the PIN with it), or null before registration.
 *
 * @example
 * ```ts
 * const salt = await pinSaltOf(db, "7");
 * ```
 */
export async function pinSaltOf(db: Queryable, userId: string): Promise<string | null> {
  return (await db.query<{ pin_salt: string }>("SELECT pin_salt FROM mk_seller_credentials WHERE user_id = $1", [userId]))[0]?.pin_salt ?? null;
}

/**
 * The seller's credentials with key_share_user opened, or null before registration.
 *
 * @example
 * ```ts
 * const credentials = await loadCredentials(db, sealer, "7");
 * ```
 */
export async function loadCredentials(db: Queryable, sealer: Sealer, userId: string): Promise<SellerCredentials | null> {
  const row = (
    await db.query<{ wallet_address: string; pin_salt: string; sealed_key_share: string }>(
      "SELECT wallet_address, pin_salt, sealed_key_share FROM mk_seller_credentials WHERE user_id = $1",
      [userId],
    )
  )[0];
  if (!row) return null;
  return { walletAddress: row.wallet_address, pinSalt: row.pin_salt, keyShareUser: sealer.open(row.sealed_key_share, userId) };
}
