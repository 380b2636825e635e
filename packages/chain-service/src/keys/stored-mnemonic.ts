import type { Queryable } from "@slotgate/storage";
import type { ServiceContext } from "../context.js";
import { openHex } from "./envelope.js";
import { Mnemonic } from "ethers";
import { ChainServiceError } from "../errors.js";

/** Which key a stored secret is sealed with: the key-encryption key, or the recovery vault (`_MN` since migration 6). */
export type SealedWith = "kek" | "recovery";

/** A stored mnemonic as its row holds it. */
export interface StoredMnemonic {
  sealed: string;
  sealedWith: SealedWith;
}

/** @internal Seals an owner mnemonic for storage: always under the recovery vault. */
export async function sealStoredMnemonic(ctx: Pick<ServiceContext, "vault">, mnemonic: string): Promise<StoredMnemonic> {
  return { sealed: await ctx.vault.seal(mnemonic), sealedWith: "recovery" };
}

/** @internal Opens a stored mnemonic with the key it was sealed with (rows not yet re-sealed are under the KEK). */
export async function openStoredMnemonic(ctx: Pick<ServiceContext, "vault" | "kek">, stored: StoredMnemonic): Promise<string> {
  return stored.sealedWith === "kek" ? openHex(stored.sealed, ctx.kek) : ctx.vault.open(stored.sealed);
}

/**
 * @internal Seals again under the recovery vault every stored mnemonic (`_MN` key records and pending
 * rotations) still sealed under the key-encryption key, as written before the recovery key existed.
 * Each row is updated only if no other process re-sealed it first. Answers how many were re-sealed.
 * A row that does not open to a BIP-39 phrase means the configured KEK is not the one it was sealed
 * with: start-up stops.
 */
export async function resealMnemonics(db: Queryable, ctx: Pick<ServiceContext, "vault" | "kek">): Promise<number> {
  const keys = await db.query<{ key_id: string; b_key: string }>(
    "SELECT key_id, b_key FROM cs_keys WHERE sealed_with = 'kek' AND key_id LIKE '%\\_MN' ESCAPE '\\'",
  );
  const rotations = await db.query<{ user_uuid: string | number; new_owner_eoa: string; mnemonic_enc: string }>(
    "SELECT user_uuid, new_owner_eoa, mnemonic_enc FROM cs_pending_rotations WHERE sealed_with = 'kek'",
  );
  const reseal = async (sealed: string) => {
    const words = openHex(sealed, ctx.kek);
    if (!Mnemonic.isValidMnemonic(words)) {
      throw new ChainServiceError("internal_error", "a stored mnemonic does not open under the configured key-encryption key");
    }
    return ctx.vault.seal(words);
  };
  let count = 0;
  for (const row of keys) {
    const updated = await db.query("UPDATE cs_keys SET b_key = $2, sealed_with = 'recovery', updated_at = now() WHERE key_id = $1 AND sealed_with = 'kek' RETURNING key_id", [
      row.key_id,
      await reseal(row.b_key),
    ]);
    count += updated.length;
  }
  for (const row of rotations) {
    const updated = await db.query(
      "UPDATE cs_pending_rotations SET mnemonic_enc = $3, sealed_with = 'recovery' WHERE user_uuid = $1 AND new_owner_eoa = $2 AND sealed_with = 'kek' RETURNING user_uuid",
      [row.user_uuid, row.new_owner_eoa, await reseal(row.mnemonic_enc)],
    );
    count += updated.length;
  }
  return count;
}
