import { Mnemonic } from "ethers";
import { isSealedValue } from "@slotgate/storage";
import type { Queryable } from "@slotgate/storage";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { openHex, openLegacyBytes } from "./envelope.js";
import { SEALED_RECORD } from "./sealed-secrets.js";
import { wipe } from "./wipe.js";

/** How many records of each kind a start-up re-sealed. */
export interface ResealCounts {
  /** Stored mnemonics (`_MN`, pending rotations). */
  mnemonics: number;
  /** Server shares. */
  shares: number;
  /** Providers' AES keys (current and previous). */
  providerKeys: number;
}

/** A row's value replaced only if it still holds what was read (another instance may have re-sealed it first). */
async function swap(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  return (await db.query(sql, params)).length;
}

function legacyKey(sealed: string, kek: Buffer, what: string): Buffer {
  const bytes = openLegacyBytes(sealed, kek);
  if (bytes.length !== 32) {
    wipe(bytes);
    throw new ChainServiceError("internal_error", `a stored ${what} does not open under the configured key-encryption key`);
  }
  return bytes;
}

/**
 * @internal Seals again, with the authenticated format bound to each record, every stored secret
 * written before (docs/decisions/sealed-secrets.md):
 * - mnemonics still under the key-encryption key (before migration 7): opened with it (hex AES-256-CTR),
 *   checked to be BIP-39, sealed under the recovery vault;
 * - mnemonics under the recovery vault in an older format: the vault's `reseal`, when it has one;
 * - server shares and providers' AES keys (current and previous) in hex AES-256-CTR under the KEK:
 *   sealed with {@link ServiceContext.sealer}.
 * Each row is replaced only if it still holds the value read, so instances starting together re-seal
 * each row once; a second run finds nothing. A value that does not open as expected (not BIP-39, not
 * 32 bytes) means the configured key is not the one it was sealed with: start-up stops.
 */
export async function resealStoredSecrets(db: Queryable, ctx: Pick<ServiceContext, "vault" | "kek" | "sealer">): Promise<ResealCounts> {
  const counts: ResealCounts = { mnemonics: 0, shares: 0, providerKeys: 0 };
  const legacyWords = (sealed: string) => {
    const words = openHex(sealed, ctx.kek);
    if (!Mnemonic.isValidMnemonic(words)) {
      throw new ChainServiceError("internal_error", "a stored mnemonic does not open under the configured key-encryption key");
    }
    return words;
  };

  const mnemonics = await db.query<{ key_id: string; user_uuid: string | number; owner: string; b_key: string; sealed_with: string }>(
    `SELECT k.key_id, k.user_uuid, w.owner_eoa AS owner, k.b_key, k.sealed_with FROM cs_keys k JOIN cs_wallets w ON w.user_uuid = k.user_uuid
     WHERE k.key_id LIKE '%\\_MN' ESCAPE '\\' AND (k.sealed_with = 'kek' OR k.b_key ~ '^[0-9a-fA-F]+$')`,
  );
  const rotations = await db.query<{ user_uuid: string | number; owner: string; mnemonic_enc: string; sealed_with: string }>(
    "SELECT user_uuid, new_owner_eoa AS owner, mnemonic_enc, sealed_with FROM cs_pending_rotations WHERE sealed_with = 'kek' OR mnemonic_enc ~ '^[0-9a-fA-F]+$'",
  );
  const resealMnemonic = async (sealed: string, sealedWith: string, record: string): Promise<string | null> => {
    if (sealedWith === "kek") return ctx.vault.seal(legacyWords(sealed), record);
    return ctx.vault.reseal ? ctx.vault.reseal(sealed, record) : null;
  };
  for (const row of mnemonics) {
    const next = await resealMnemonic(row.b_key, row.sealed_with, SEALED_RECORD.ownerMnemonic(Number(row.user_uuid), row.owner));
    if (next === null) continue;
    counts.mnemonics += await swap(
      db,
      "UPDATE cs_keys SET b_key = $3, sealed_with = 'recovery', updated_at = now() WHERE key_id = $1 AND b_key = $2 RETURNING key_id",
      [row.key_id, row.b_key, next],
    );
  }
  for (const row of rotations) {
    const next = await resealMnemonic(row.mnemonic_enc, row.sealed_with, SEALED_RECORD.ownerMnemonic(Number(row.user_uuid), row.owner));
    if (next === null) continue;
    counts.mnemonics += await swap(
      db,
      "UPDATE cs_pending_rotations SET mnemonic_enc = $4, sealed_with = 'recovery' WHERE user_uuid = $1 AND new_owner_eoa = $2 AND mnemonic_enc = $3 RETURNING user_uuid",
      [row.user_uuid, row.owner, row.mnemonic_enc, next],
    );
  }

  const shares = await db.query<{ key_id: string; user_uuid: string | number; b_key: string }>(
    "SELECT key_id, user_uuid, b_key FROM cs_keys WHERE key_id NOT LIKE '%\\_MN' ESCAPE '\\' AND b_key ~ '^[0-9a-fA-F]+$'",
  );
  for (const row of shares) {
    const share = legacyKey(row.b_key, ctx.kek, "server share");
    try {
      counts.shares += await swap(db, "UPDATE cs_keys SET b_key = $3, updated_at = now() WHERE key_id = $1 AND b_key = $2 RETURNING key_id", [
        row.key_id,
        row.b_key,
        ctx.sealer.seal(share, SEALED_RECORD.serverShare(Number(row.user_uuid))),
      ]);
    } finally {
      wipe(share);
    }
  }

  const providers = await db.query<{
    client_id: string;
    aes_key_enc: string;
    aes_iv: string;
    previous_aes_key_enc: string | null;
    previous_aes_iv: string | null;
  }>(
    `SELECT client_id, aes_key_enc, aes_iv, previous_aes_key_enc, previous_aes_iv FROM cs_providers
     WHERE aes_key_enc ~ '^[0-9a-fA-F]+$' OR previous_aes_key_enc ~ '^[0-9a-fA-F]+$'`,
  );
  for (const row of providers) {
    for (const column of ["aes_key_enc", "previous_aes_key_enc"] as const) {
      const sealed = row[column];
      const iv = column === "aes_key_enc" ? row.aes_iv : row.previous_aes_iv;
      if (sealed === null || iv === null || isSealedValue(sealed)) continue;
      const key = legacyKey(sealed, ctx.kek, "provider key");
      try {
        counts.providerKeys += await swap(db, `UPDATE cs_providers SET ${column} = $3 WHERE client_id = $1 AND ${column} = $2 RETURNING client_id`, [
          row.client_id,
          sealed,
          ctx.sealer.seal(key, SEALED_RECORD.providerKey(row.client_id, iv)),
        ]);
      } finally {
        wipe(key);
      }
    }
  }
  return counts;
}
