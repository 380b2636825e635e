import { computeAddress, getAddress } from "ethers";
import { ChainServiceError } from "../errors.js";
import type { ServiceContext } from "../context.js";
import { deriveSharePin } from "../keys/share-pin.js";
import { openBytes } from "../keys/envelope.js";
import { restoreKey } from "../keys/split.js";
import { wipe } from "../keys/wipe.js";
import { findKeys, findWallet, type WalletRecord } from "../storage/wallets.js";
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

const HEX_32 = /^[0-9a-fA-F]{64}$/;

/** @internal Checks the shape of PIN credentials (`invalid_request`). */
export function checkCredentials(input: PinCredentials): void {
  if (!Number.isSafeInteger(input?.user_uuid) || input.user_uuid <= 0) {
    throw new ChainServiceError("invalid_request", "user_uuid must be a positive integer");
  }
  for (const field of ["pin_hash", "pin_salt", "key_share_user"] as const) {
    if (field === "pin_salt" && input[field] === undefined) continue;
    if (typeof input[field] !== "string" || !HEX_32.test(input[field])) {
      throw new ChainServiceError("invalid_request", `${field} must be 64 hex characters`);
    }
  }
}

const PIN_FIRST = "This user has no PIN yet; register a PIN first.";

/** @internal A wallet whose PIN is registered, or `wallet_not_found`. */
export async function requireWallet(ctx: ServiceContext, userUuid: number): Promise<WalletRecord> {
  const wallet = await findWallet(ctx.db, userUuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  if (wallet.pinSalt === null) throw new ChainServiceError("wallet_not_found", PIN_FIRST);
  return wallet;
}

/**
 * @internal Restores the owner key from the three shares (spec 4.10 rule 6) after reserving a PIN
 * attempt. Returns the key (the caller wipes it) and the wallet. A wrong PIN, salt or share gives
 * `pin_invalid` (with `details.remaining_attempts`); too many gives `pin_locked`.
 */
export async function unlockOwnerKey(
  ctx: ServiceContext,
  credentials: PinCredentials,
): Promise<{ key: Buffer; wallet: WalletRecord }> {
  checkCredentials(credentials);
  const wallet = await requireWallet(ctx, credentials.user_uuid);
  return pinChecks.run(wallet.userUuid, () => checkPin(ctx, credentials, wallet));
}

const pinChecks = new KeyedLock<number>();

async function checkPin(
  ctx: ServiceContext,
  credentials: PinCredentials,
  wallet: WalletRecord,
): Promise<{ key: Buffer; wallet: WalletRecord }> {
  const reservation = await reservePinAttempt(ctx.db, wallet.userUuid, ctx.now(), ctx.pin.lockout);
  if (!reservation.allowed) {
    const seconds = Math.max(1, Math.ceil((reservation.lockedUntil.getTime() - ctx.now().getTime()) / 1000));
    throw new ChainServiceError("pin_locked", undefined, { details: { retry_after_seconds: seconds } });
  }
  const keys = await findKeys(ctx.db, wallet.userUuid);
  if (!keys?.serverShareEnc || wallet.pinSalt === null) throw new ChainServiceError("wallet_not_found", PIN_FIRST);
  const sharePin = await deriveSharePin(credentials.pin_hash, { salt: ctx.pin.salt, iterations: ctx.pin.iterations });
  const shareServer = openBytes(keys.serverShareEnc, ctx.kek);
  const shareUser = Buffer.from(credentials.key_share_user, "hex");
  let key: Buffer | undefined;
  try {
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
    const unlocked = key;
    key = undefined;
    return { key: unlocked, wallet };
  } finally {
    wipe(sharePin, shareServer, shareUser, key);
  }
}
