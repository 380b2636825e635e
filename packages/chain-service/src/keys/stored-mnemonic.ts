import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { SEALED_RECORD } from "./sealed-secrets.js";

/** Which key a stored secret is sealed with: the key-encryption key, or the recovery vault (`_MN` since migration 7). */
export type SealedWith = "kek" | "recovery";

/** A stored mnemonic as its row holds it, with the record it belongs to. */
export interface StoredMnemonic {
  sealed: string;
  sealedWith: SealedWith;
  /** The user whose record it is. */
  userUuid: number;
  /** The owner EOA the words derive (`cs_wallets.owner_eoa` for `_MN`, `new_owner_eoa` for a pending rotation). */
  owner: string;
}

/** @internal Seals an owner mnemonic for storage in `userUuid`'s record of `owner`: always under the recovery vault. */
export async function sealStoredMnemonic(ctx: Pick<ServiceContext, "vault">, mnemonic: string, userUuid: number, owner: string): Promise<StoredMnemonic> {
  return { sealed: await ctx.vault.seal(mnemonic, SEALED_RECORD.ownerMnemonic(userUuid, owner)), sealedWith: "recovery", userUuid, owner };
}

/**
 * @internal Opens a stored mnemonic with the recovery vault, for its own record. A value that does not
 * open, or one still marked as sealed under the key-encryption key (start-up re-seals those), is
 * `sealed_record_invalid`.
 */
export async function openStoredMnemonic(ctx: Pick<ServiceContext, "vault">, stored: StoredMnemonic): Promise<string> {
  if (stored.sealedWith !== "recovery") throw new ChainServiceError("sealed_record_invalid");
  return ctx.vault.open(stored.sealed, SEALED_RECORD.ownerMnemonic(stored.userUuid, stored.owner));
}
