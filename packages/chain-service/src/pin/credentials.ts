import { computeAddress, getAddress } from "ethers";
import { ChainServiceError } from "../errors.js";
import type { ServiceContext } from "../service-context.js";
import { deriveSharePin } from "../keys/share-pin.js";
import { deriveBackupKey, sealHex } from "../keys/envelope.js";
import { SEALED_RECORD } from "../keys/sealed-secrets.js";
import { openStoredMnemonic } from "../keys/stored-mnemonic.js";
import { restoreKey } from "../keys/split.js";
import { wipe } from "../keys/wipe.js";
import { type WalletRecord, findKeys, findWallet } from "../storage/wallets.js";
import { clearPinAttempts, reservePinAttempt } from "../storage/pin-attempts.js";
import { KeyedLock } from "./keyed-lock.js";

/** The PIN-gated credentials a client sends with every signing request (spec 4.10). */
export interface PinCredentials {
  user_uuid: number;
  /** SHA-256 hex of the PIN and its salt. */
  pin_hash: string;
  /**
   * The salt the client hashed the PIN with, 64 hex characters. Not secret; when given it must equal
   * the stored one. `POST /v1/token/transfer` carries none, so it is optional.
   */
  pin_salt?: string;
  /** The client's key share, 64 hex characters. */
  key_share_user: string;
}

const PIN_FIRST = "This user has no PIN yet; register a PIN first.";

/** @internal A wallet whose PIN is registered, or `wallet_not_found`. */
export async function requireWallet(ctx: ServiceContext, userUuid: number): Promise<WalletRecord> {
  const wallet = await findWallet(ctx.db, userUuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  if (wallet.pinSalt === null) throw new ChainServiceError("wallet_not_found", PIN_FIRST);
  return wallet;
}

/** What {@link unlockOwnerKey} answers. */
export interface UnlockedOwnerKey {
  /** The owner private key; the caller wipes it. */
  key: Buffer;
  wallet: WalletRecord;
  /**
   * With `resealBackup`, for a wallet whose backup is PIN-only: the words sealed under share_pin and
   * share_user (`deriveBackupKey`), to hand to the client, after which `clearBackupPinOnly` records it.
   */
  backup?: string;
}

/**
 * @internal Restores the owner key from the three shares (spec 4.10 rule 6) after reserving a PIN
 * attempt. Returns the key (the caller wipes it) and the wallet. A wrong PIN, salt or share gives
 * `pin_invalid` (with `details.remaining_attempts`); too many gives `pin_locked`. With `resealBackup`,
 * a wallet whose client holds a PIN-only backup also gets its backup re-sealed under both shares.
 */
export async function unlockOwnerKey(ctx: ServiceContext, credentials: PinCredentials, options: { resealBackup?: boolean } = {}): Promise<UnlockedOwnerKey> {
  const wallet = await requireWallet(ctx, credentials.user_uuid);
  return pinChecks.run(wallet.userUuid, () => checkPin(ctx, credentials, wallet, options.resealBackup === true));
}

const pinChecks = new KeyedLock<number>();

async function checkPin(ctx: ServiceContext, credentials: PinCredentials, wallet: WalletRecord, resealBackup: boolean): Promise<UnlockedOwnerKey> {
  const keys = await findKeys(ctx.db, wallet.userUuid);
  if (!keys?.serverShareEnc || wallet.pinSalt === null) throw new ChainServiceError("wallet_not_found", PIN_FIRST);
  // The stored secrets are opened before the attempt is counted: one that fails its integrity check is
  // refused (`sealed_record_invalid`) with nothing changed.
  const shareServer = ctx.sealer.open(keys.serverShareEnc, SEALED_RECORD.serverShare(wallet.userUuid));
  let sharePin: Buffer | undefined;
  let shareUser: Buffer | undefined;
  let key: Buffer | undefined;
  try {
    const words = resealBackup && wallet.backupPinOnly ? await openStoredMnemonic(ctx, keys.mnemonic) : undefined;
    const reservation = await reservePinAttempt(ctx.db, wallet.userUuid, ctx.now(), ctx.pin.lockout);
    if (!reservation.allowed) {
      const seconds = Math.max(1, Math.ceil((reservation.lockedUntil.getTime() - ctx.now().getTime()) / 1000));
      throw new ChainServiceError("pin_locked", undefined, { details: { retry_after_seconds: seconds } });
    }
    sharePin = await deriveSharePin(credentials.pin_hash, { salt: ctx.pin.salt, iterations: ctx.pin.iterations });
    shareUser = Buffer.from(credentials.key_share_user, "hex");
    key = restoreKey(sharePin, shareServer, shareUser);
    const saltMatches = credentials.pin_salt === undefined || credentials.pin_salt.toLowerCase() === wallet.pinSalt?.toLowerCase();
    let address: string | undefined;
    try {
      address = computeAddress(`0x${key.toString("hex")}`);
    } catch {
      address = undefined; // not a valid secp256k1 scalar: certainly a wrong share
    }
    if (!saltMatches || address === undefined || getAddress(address) !== getAddress(wallet.ownerEoa)) {
      throw new ChainServiceError("pin_invalid", undefined, { details: { remaining_attempts: reservation.remaining } });
    }
    await clearPinAttempts(ctx.db, wallet.userUuid);
    const backup = words === undefined ? undefined : sealedBackup(words, sharePin, shareUser);
    const unlocked = key;
    key = undefined;
    return { key: unlocked, wallet, ...(backup === undefined ? {} : { backup }) };
  } finally {
    wipe(sharePin, shareServer, shareUser, key);
  }
}

/** The words sealed for the client under share_pin and share_user. */
function sealedBackup(words: string, sharePin: Buffer, shareUser: Buffer): string {
  const backupKey = deriveBackupKey(sharePin, shareUser);
  try {
    return sealHex(words, backupKey);
  } finally {
    wipe(backupKey);
  }
}
