import type { Queryable } from "@slotgate/storage";
import type { StoredMnemonic } from "../keys/stored-mnemonic.js";

/** The `Wallet` record of spec 2.6, plus what the service needs to deploy and verify. */
export interface WalletRecord {
  userUuid: number;
  /** Account index of the user (always 0: one wallet pair per user). */
  accountIdx: number;
  /** The user wallet (CREATE2, W_SALT). */
  address: string;
  /** The slot wallet, `content_address` (CREATE2, C_SALT). */
  contentAddress: string;
  /** The current owner EOA. */
  ownerEoa: string;
  /** The owner EOA the CREATE2 addresses were computed from (initCode uses it). */
  initialOwner: string;
  walletType: "AA";
  /**
   * The client's pin_salt (not secret), checked on verify; null for a wallet provisioned before its
   * user registered a PIN (no server share yet).
   */
  pinSalt: string | null;
  /**
   * True for a wallet registered before backups were sealed under share_pin and share_user: the backup
   * its client holds opens with the PIN alone. Re-sealed (and cleared) at the next PIN verification.
   */
  backupPinOnly: boolean;
}

/** The two `Key` records of a user: `b_key` (server share) and `_MN` (encrypted mnemonic), both sealed. */
export interface KeyRecords {
  /** The server share sealed under the key-encryption key (`SecretSealer`, bound to the user); null before the PIN is registered. */
  serverShareEnc: string | null;
  /** The mnemonic, sealed under the recovery vault for the user and its current owner EOA. */
  mnemonic: StoredMnemonic;
}

interface WalletRow {
  user_uuid: string | number;
  account_idx: number;
  address: string;
  content_address: string;
  owner_eoa: string;
  initial_owner: string;
  pin_salt: string | null;
  backup_pin_only: boolean;
}

const toWallet = (row: WalletRow): WalletRecord => ({
  userUuid: Number(row.user_uuid),
  accountIdx: Number(row.account_idx),
  address: row.address,
  contentAddress: row.content_address,
  ownerEoa: row.owner_eoa,
  initialOwner: row.initial_owner,
  walletType: "AA",
  pinSalt: row.pin_salt,
  backupPinOnly: row.backup_pin_only === true,
});

const shareKeyId = (userUuid: number) => `${userUuid}`;
const mnemonicKeyId = (userUuid: number) => `${userUuid}_MN`;

/**
 * Inserts a wallet and its key records (the server share only when the PIN is registered with it).
 * Run it inside a transaction (spec 4.10 rule 5). Returns false when the user already has a wallet.
 */
export async function insertWallet(
  db: Queryable,
  wallet: Omit<WalletRecord, "backupPinOnly">,
  keys: { serverShareEnc: string | null; mnemonic: StoredMnemonic },
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO cs_wallets (user_uuid, account_idx, address, content_address, owner_eoa, initial_owner, wallet_type, pin_salt)
     VALUES ($1, $2, $3, $4, $5, $6, 'AA', $7) ON CONFLICT (user_uuid) DO NOTHING RETURNING user_uuid`,
    [wallet.userUuid, wallet.accountIdx, wallet.address, wallet.contentAddress, wallet.ownerEoa, wallet.initialOwner, wallet.pinSalt],
  );
  if (inserted.length === 0) return false;
  await db.query("INSERT INTO cs_keys (key_id, user_uuid, b_key, sealed_with) VALUES ($1, $2, $3, $4)", [
    mnemonicKeyId(wallet.userUuid),
    wallet.userUuid,
    keys.mnemonic.sealed,
    keys.mnemonic.sealedWith,
  ]);
  if (keys.serverShareEnc !== null) {
    await db.query("INSERT INTO cs_keys (key_id, user_uuid, b_key) VALUES ($1, $2, $3)", [shareKeyId(wallet.userUuid), wallet.userUuid, keys.serverShareEnc]);
  }
  return true;
}

/** Registers the PIN of a provisioned wallet: stores its first server share and pin_salt. In a transaction. */
export async function attachServerShare(db: Queryable, userUuid: number, serverShareEnc: string, pinSalt: string): Promise<void> {
  await db.query("INSERT INTO cs_keys (key_id, user_uuid, b_key) VALUES ($1, $2, $3)", [shareKeyId(userUuid), userUuid, serverShareEnc]);
  await db.query("UPDATE cs_wallets SET pin_salt = $2, updated_at = now() WHERE user_uuid = $1", [userUuid, pinSalt]);
}

/** The wallet of a user, or null. `forUpdate` locks the row until the transaction ends. */
export async function findWallet(db: Queryable, userUuid: number, forUpdate = false): Promise<WalletRecord | null> {
  const rows = await db.query<WalletRow>(`SELECT * FROM cs_wallets WHERE user_uuid = $1${forUpdate ? " FOR UPDATE" : ""}`, [userUuid]);
  return rows[0] ? toWallet(rows[0]) : null;
}

/** The two sealed key records of a user, or null. The mnemonic's record names the wallet's current owner EOA. */
export async function findKeys(db: Queryable, userUuid: number): Promise<KeyRecords | null> {
  const rows = await db.query<{ key_id: string; b_key: string; sealed_with: StoredMnemonic["sealedWith"]; owner_eoa: string }>(
    "SELECT k.key_id, k.b_key, k.sealed_with, w.owner_eoa FROM cs_keys k JOIN cs_wallets w ON w.user_uuid = k.user_uuid WHERE k.user_uuid = $1",
    [userUuid],
  );
  const share = rows.find((r) => r.key_id === shareKeyId(userUuid));
  const mnemonic = rows.find((r) => r.key_id === mnemonicKeyId(userUuid));
  return mnemonic
    ? { serverShareEnc: share?.b_key ?? null, mnemonic: { sealed: mnemonic.b_key, sealedWith: mnemonic.sealed_with, userUuid, owner: mnemonic.owner_eoa } }
    : null;
}

/** Replaces the server share (PIN reset); the client got a backup under the new shares. */
export async function updateServerShare(db: Queryable, userUuid: number, serverShareEnc: string, pinSalt: string): Promise<void> {
  await db.query("UPDATE cs_keys SET b_key = $2, updated_at = now() WHERE key_id = $1", [shareKeyId(userUuid), serverShareEnc]);
  await db.query("UPDATE cs_wallets SET pin_salt = $2, backup_pin_only = FALSE, updated_at = now() WHERE user_uuid = $1", [userUuid, pinSalt]);
}

/** The client was handed its backup re-sealed under share_pin and share_user: the wallet's backup is no longer PIN-only. */
export async function clearBackupPinOnly(db: Queryable, userUuid: number): Promise<void> {
  await db.query("UPDATE cs_wallets SET backup_pin_only = FALSE, updated_at = now() WHERE user_uuid = $1", [userUuid]);
}

/** Replaces share, mnemonic and owner EOA together (recovery). Run it inside a transaction. */
export async function rotateOwner(
  db: Queryable,
  userUuid: number,
  ownerEoa: string,
  keys: { serverShareEnc: string; mnemonic: StoredMnemonic },
  pinSalt: string,
): Promise<void> {
  await db.query("UPDATE cs_wallets SET owner_eoa = $2, pin_salt = $3, backup_pin_only = FALSE, updated_at = now() WHERE user_uuid = $1", [
    userUuid,
    ownerEoa,
    pinSalt,
  ]);
  await db.query("UPDATE cs_keys SET b_key = $2, updated_at = now() WHERE key_id = $1", [shareKeyId(userUuid), keys.serverShareEnc]);
  await db.query("UPDATE cs_keys SET b_key = $2, sealed_with = $3, updated_at = now() WHERE key_id = $1", [
    mnemonicKeyId(userUuid),
    keys.mnemonic.sealed,
    keys.mnemonic.sealedWith,
  ]);
}

/** A rotation whose new owner key is saved before the chain step (spec 4.10 rule 9). */
export interface PendingRotation {
  newOwnerEoa: string;
  /** The new owner's mnemonic, sealed like the `_MN` record. */
  mnemonic: StoredMnemonic;
}

/**
 * Records a pending rotation. Committed before `changeOwner` is sent, so the new key survives a
 * failure of the database step after the chain step. Earlier pending rotations are kept: a wallet may
 * still be owned by one of them.
 */
export async function savePendingRotation(db: Queryable, userUuid: number, rotation: PendingRotation): Promise<void> {
  await db.query("INSERT INTO cs_pending_rotations (user_uuid, new_owner_eoa, mnemonic_enc, sealed_with) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", [
    userUuid,
    rotation.newOwnerEoa,
    rotation.mnemonic.sealed,
    rotation.mnemonic.sealedWith,
  ]);
}

/** The pending rotations of a user, oldest first. */
export async function findPendingRotations(db: Queryable, userUuid: number): Promise<PendingRotation[]> {
  const rows = await db.query<{ new_owner_eoa: string; mnemonic_enc: string; sealed_with: StoredMnemonic["sealedWith"] }>(
    "SELECT new_owner_eoa, mnemonic_enc, sealed_with FROM cs_pending_rotations WHERE user_uuid = $1 ORDER BY created_at",
    [userUuid],
  );
  return rows.map((row) => ({
    newOwnerEoa: row.new_owner_eoa,
    mnemonic: { sealed: row.mnemonic_enc, sealedWith: row.sealed_with, userUuid, owner: row.new_owner_eoa },
  }));
}

/** Deletes every pending rotation of a user. */
export async function clearPendingRotation(db: Queryable, userUuid: number): Promise<void> {
  await db.query("DELETE FROM cs_pending_rotations WHERE user_uuid = $1", [userUuid]);
}
