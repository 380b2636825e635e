import { getAddress } from "ethers";
import type { PinRecoverRequest, PinRegisterResponse } from "@slotgate/protocol";
import { C_SALT, W_SALT, changeOwnerCallData } from "@slotgate/contracts";
import type { ServiceContext } from "../service-context.js";
import { requestHash, settledAnswer } from "../writes/engine.js";
import { ChainServiceError } from "../errors.js";
import { deriveBackupKey, sealHex } from "../keys/envelope.js";
import { SEALED_RECORD } from "../keys/sealed-secrets.js";
import { type OwnerKey, generateOwnerKey, ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { deriveSharePin } from "../keys/share-pin.js";
import { splitKey } from "../keys/split.js";
import { type StoredMnemonic, openStoredMnemonic, sealStoredMnemonic } from "../keys/stored-mnemonic.js";
import { wipe } from "../keys/wipe.js";
import { clearPinAttempts } from "../storage/pin-attempts.js";
import { type WalletRecord, clearPendingRotation, findKeys, findPendingRotations, rotateOwner, savePendingRotation } from "../storage/wallets.js";
import { findSlotByWallet, slotsOf } from "../storage/slots.js";
import { chainOwner } from "../wallets/owner.js";
import { requireWallet } from "./credentials.js";
import { spendCallerAssertion } from "../evidence/caller-assertion.js";

/** Input of {@link ChainService.recover}: the protocol body plus the front service's evidence. */
export interface PinRecoverInput extends PinRecoverRequest {
  /**
   * A caller assertion for `recover` naming `user_uuid`, which the front service signs only after the
   * user proved their mailbox (spec 4.10 rule 8); single use (see `callerAssertionPayload`).
   */
  assertion: string;
}

/** A wallet a recovery re-keys: its address and what deploys it when it has not been deployed yet. */
interface RecoveryTarget {
  address: string;
  initialOwner: string;
  salt: bigint;
}

/**
 * Every wallet the user's owner key drives: the user wallet (W_SALT), the C_SALT wallet unless another
 * user owns it now (it was sold as a slot), and every slot wallet the user owns per the records.
 */
async function recoveryTargets(ctx: ServiceContext, wallet: WalletRecord): Promise<RecoveryTarget[]> {
  const targets: RecoveryTarget[] = [{ address: wallet.address, initialOwner: wallet.initialOwner, salt: W_SALT }];
  const cSaltSlot = await findSlotByWallet(ctx.db, wallet.contentAddress);
  if (!cSaltSlot) targets.push({ address: wallet.contentAddress, initialOwner: wallet.initialOwner, salt: C_SALT });
  for (const slot of await slotsOf(ctx.db, wallet.userUuid)) {
    targets.push({ address: getAddress(slot.wallet), initialOwner: slot.openingOwner, salt: slot.salt });
  }
  return targets;
}

/**
 * @internal `POST /v1/pin/recover` (spec 4.10 rules 8-9).
 *
 * 1. Reconcile: each wallet's on-chain owner must be the stored owner or the owner of a pending
 *    rotation (a recovery whose chain step landed but whose database step failed); the matching
 *    stored mnemonic signs. Anything else is refused (`internal_error`, needs the operator).
 * 2. A new owner EOA is generated and saved as the pending rotation (committed) before the chain step.
 * 3. One sponsored UserOperation per wallet (the user wallet, the C_SALT wallet unless it was sold,
 *    and every slot wallet the user owns) calls
 *    `changeOwner(newOwner)`, deploying the wallet first where needed, signed by the old owner.
 * 4. One database transaction: owner EOA, server share, sealed mnemonic, pin_salt; the pending
 *    rotation and the PIN attempt counter are cleared. Buffers are wiped on every path. The answer's
 *    backup is sealed under the new share_pin and share_user.
 */
export async function recover(ctx: ServiceContext, input: PinRecoverInput): Promise<PinRegisterResponse> {
  await spendCallerAssertion(ctx, input.assertion, { purpose: "recover", userUuid: input.user_uuid });
  const wallet = await requireWallet(ctx, input.user_uuid);
  const keys = await findKeys(ctx.db, wallet.userUuid);
  if (!keys) throw new ChainServiceError("internal_error", "the wallet's key records are missing");
  const pending = await findPendingRotations(ctx.db, wallet.userUuid);

  const owners = new Map<string, StoredMnemonic>(); // owner address -> sealed mnemonic
  owners.set(getAddress(wallet.ownerEoa), keys.mnemonic);
  for (const rotation of pending) owners.set(getAddress(rotation.newOwnerEoa), rotation.mnemonic);

  const targets = await recoveryTargets(ctx, wallet);
  const current = await Promise.all(targets.map((t) => chainOwner(ctx, t.address, t.initialOwner)));
  for (const owner of current) {
    if (!owners.has(owner)) {
      throw new ChainServiceError("internal_error", "the wallet's on-chain owner matches no stored key; the operator must reconcile it");
    }
  }

  // The current owners' keys are opened before anything is saved: a stored mnemonic that fails its
  // integrity check is refused (`sealed_record_invalid`) with nothing changed.
  const unlocked = new Map<string, OwnerKey>();
  let next: OwnerKey | undefined;
  let sharePin: Buffer | undefined;
  let backupKey: Buffer | undefined;
  let split: { shareServer: Buffer; shareUser: Buffer } | undefined;
  try {
    for (const owner of new Set(current)) {
      const key = ownerKeyFromMnemonic(await openStoredMnemonic(ctx, owners.get(owner) as StoredMnemonic));
      unlocked.set(owner, key);
      if (getAddress(key.address) !== owner) throw new ChainServiceError("internal_error", "stored mnemonic does not derive its owner");
    }
    next = generateOwnerKey();
    sharePin = await deriveSharePin(input.pin_hash, { salt: ctx.pin.salt, iterations: ctx.pin.iterations });
    const nextMnemonic = await sealStoredMnemonic(ctx, next.mnemonic, wallet.userUuid, next.address);
    await savePendingRotation(ctx.db, wallet.userUuid, { newOwnerEoa: next.address, mnemonic: nextMnemonic });
    const nextAddress = next.address;
    await Promise.all(
      targets.map(async (target, index) => {
        const key = unlocked.get(current[index] as string) as OwnerKey;
        settledAnswer(
          await ctx.sponsored.send(
            {
              sender: target.address,
              deployment: { initialOwner: target.initialOwner, salt: target.salt },
              calls: changeOwnerCallData(nextAddress),
              identity: { scope: `user:${wallet.userUuid}`, idempotencyKey: null, requestHash: requestHash("recover", [target.address, nextAddress]) },
              budget: { userUuid: wallet.userUuid },
              answer: { shape: "operation" },
            },
            Buffer.from(key.privateKey),
          ),
        );
      }),
    );
    split = splitKey(next.privateKey, sharePin);
    const newKeys = { serverShareEnc: ctx.sealer.seal(split.shareServer, SEALED_RECORD.serverShare(wallet.userUuid)), mnemonic: nextMnemonic };
    await ctx.db.transaction(async (tx) => {
      await rotateOwner(tx, wallet.userUuid, nextAddress, newKeys, input.pin_salt.toLowerCase());
      await clearPendingRotation(tx, wallet.userUuid);
      await clearPinAttempts(tx, wallet.userUuid);
    });
    backupKey = deriveBackupKey(sharePin, split.shareUser);
    return {
      success: true,
      data: [{ address: wallet.address, mnemonic: sealHex(next.mnemonic, backupKey), key_share_user: split.shareUser.toString("hex") }],
    };
  } finally {
    wipe(next?.privateKey, sharePin, backupKey, split?.shareServer, split?.shareUser, ...[...unlocked.values()].map((k) => k.privateKey));
  }
}
