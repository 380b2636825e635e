import { createCipheriv, randomBytes } from "node:crypto";
import { computeWalletAddresses } from "@slotgate/contracts";
import { encryptHex } from "@slotgate/protocol/crypto";
import { type Database, isSealedValue, migrate, openDatabase } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_SERVICE_MIGRATIONS, type ChainServiceWarning, createChainService, readMnemonicBackup } from "../src/index.js";
import { SEALED_RECORD, SecretSealer, deriveSharePin, generateOwnerKey, openHex, sealHex, splitKey, wipe } from "../src/keys/index.js";
import { aesRecoveryVault } from "../src/keys/recovery-vault.js";
import { resealStoredSecrets } from "../src/keys/reseal-at-rest.js";
import { type LandedService, freshKeys, landed, newUserId, pinOf, sharedSystem } from "./helpers/setup.js";

// Findings 6 and 7 of issue 21 on a database written before migration 6: its stored mnemonics were
// sealed under the key-encryption key, and its clients hold backups sealed under the PIN alone. And
// issue 28 item 5: every secret it stored was hex AES-256-CTR (no integrity), also after migration 7.

/** How secrets were sealed at rest before issue 28: hex(iv ‖ AES-256-CTR) under the raw key. */
function sealTheOldWay(data: Uint8Array, key: Uint8Array): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  return Buffer.concat([iv, cipher.update(data), cipher.final()]).toString("hex");
}

const keys = freshKeys();
const kek = Buffer.from(keys.keyEncryptionKey, "hex");
const recoveryKey = Buffer.from(keys.recoveryKey, "hex");
let db: Database;
const user = newUserId();
const pin = pinOf("314159");
let shareUser: string;
let words: string;
let pendingWords: string;

/** A wallet and its two key records as the service wrote them before migration 6 (all under the KEK, hex AES-256-CTR). */
async function insertOldWallet(userUuid: number, walletPin: ReturnType<typeof pinOf>) {
  const { addresses } = await sharedSystem();
  const owner = generateOwnerKey();
  const split = splitKey(owner.privateKey, await deriveSharePin(walletPin.pin_hash));
  const { userWallet, slotWallet } = computeWalletAddresses(addresses.factory, owner.address);
  await db.query("INSERT INTO cs_wallets (user_uuid, address, content_address, owner_eoa, initial_owner, pin_salt) VALUES ($1, $2, $3, $4, $4, $5)", [
    userUuid,
    userWallet,
    slotWallet,
    owner.address,
    walletPin.pin_salt,
  ]);
  await db.query("INSERT INTO cs_keys (key_id, user_uuid, b_key) VALUES ($1, $2, $3), ($4, $2, $5)", [
    `${userUuid}`,
    userUuid,
    sealTheOldWay(split.shareServer, kek),
    `${userUuid}_MN`,
    sealHex(owner.mnemonic, kek),
  ]);
  const keys = { words: owner.mnemonic, shareUser: split.shareUser.toString("hex"), shareServer: split.shareServer.toString("hex") };
  wipe(owner.privateKey, split.shareServer, split.shareUser);
  return keys;
}

/** A wallet registered the way the service did before migration 6, with a pending rotation. */
async function registerTheOldWay(): Promise<void> {
  const pending = generateOwnerKey();
  ({ shareUser, words } = await insertOldWallet(user, pin));
  await db.query("INSERT INTO cs_pending_rotations (user_uuid, new_owner_eoa, mnemonic_enc) VALUES ($1, $2, $3)", [
    user,
    pending.address,
    sealHex(pending.mnemonic, kek),
  ]);
  pendingWords = pending.mnemonic;
  wipe(pending.privateKey);
}

const start = async (warnings: ChainServiceWarning[]): Promise<LandedService> =>
  createChainService({ db, ...keys, chain: await sharedSystem(), warn: (w) => warnings.push(w) }).then(landed);

// A user whose words are under the recovery key (as after migration 7) and a provider with a rotated
// key, both before issue 28: hex AES-256-CTR, no tag.
const later = newUserId();
const laterPin = pinOf("161803");
let laterShareUser: string;
let laterShareServer: string;
const providerClient = `sg_old_${randomBytes(4).toString("hex")}`;
const providerKeys = {
  current: randomBytes(32),
  currentIv: randomBytes(16).toString("hex"),
  previous: randomBytes(32),
  previousIv: randomBytes(16).toString("hex"),
};

async function registerAfterMigration7(laterWords: string): Promise<void> {
  await db.query("UPDATE cs_keys SET b_key = $2, sealed_with = 'recovery' WHERE key_id = $1", [`${later}_MN`, sealHex(laterWords, recoveryKey)]);
  await db.query(
    `INSERT INTO cs_providers (client_id, aes_key_enc, aes_iv, previous_aes_key_enc, previous_aes_iv, previous_valid_until, key_rotated_at)
     VALUES ($1, $2, $3, $4, $5, now() + interval '1 day', now())`,
    [providerClient, sealTheOldWay(providerKeys.current, kek), providerKeys.currentIv, sealTheOldWay(providerKeys.previous, kek), providerKeys.previousIv],
  );
}

beforeAll(async () => {
  db = await openDatabase({}); // a database of its own, as an older server left it
  await migrate(db, { ...CHAIN_SERVICE_MIGRATIONS, migrations: CHAIN_SERVICE_MIGRATIONS.migrations.filter((m) => m.version <= 5) });
  await registerTheOldWay();
  const laterWallet = await insertOldWallet(later, laterPin);
  ({ shareUser: laterShareUser, shareServer: laterShareServer } = laterWallet);
  await migrate(db, { ...CHAIN_SERVICE_MIGRATIONS, migrations: CHAIN_SERVICE_MIGRATIONS.migrations.filter((m) => m.version <= 10) });
  await registerAfterMigration7(laterWallet.words);
});

/** The counts a `secrets_resealed` warning reports. */
function resealed(warnings: ChainServiceWarning[]): [number, number, number] {
  const message = warnings.find((w) => w.code === "secrets_resealed")?.message ?? "";
  const match = /(\d+) mnemonics .*?, (\d+) server shares, (\d+) provider keys/.exec(message);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
}
afterAll(async () => {
  await db?.close();
});

describe("records written before the recovery key and the two-share backup", () => {
  it("re-seals every stored secret at start-up, authenticated and bound to its record, once when two instances do it at once", async () => {
    // Two instances' start-up re-sealing at the same moment: three mnemonics (two under the KEK from
    // before migration 7, one under the recovery key), two server shares, a provider's current and
    // previous keys, each re-sealed by exactly one of them.
    const parts = { kek, vault: aesRecoveryVault(recoveryKey), sealer: new SecretSealer(kek) };
    const [a, b] = await Promise.all([resealStoredSecrets(db, parts), resealStoredSecrets(db, parts)]);
    expect([a.mnemonics + b.mnemonics, a.shares + b.shares, a.providerKeys + b.providerKeys]).toEqual([3, 2, 2]);
    // The service does it at start: a share written the old way (by an instance not yet upgraded) is
    // re-sealed by the next start, which says so.
    await db.query("UPDATE cs_keys SET b_key = $2 WHERE key_id = $1", [`${later}`, sealTheOldWay(Buffer.from(laterShareServer, "hex"), kek)]);
    const one: ChainServiceWarning[] = [];
    const service = await start(one);
    expect(resealed(one)).toEqual([0, 1, 0]);
    const stored = await db.query<{ key_id: string; b_key: string; sealed_with: string }>(
      "SELECT key_id, b_key, sealed_with FROM cs_keys WHERE user_uuid IN ($1, $2)",
      [user, later],
    );
    expect(stored).toHaveLength(4);
    for (const row of stored) expect(isSealedValue(row.b_key), row.key_id).toBe(true);
    expect(stored.filter((row) => row.key_id.endsWith("_MN")).map((row) => row.sealed_with)).toEqual(["recovery", "recovery"]);
    const [rotation] = await db.query<{ mnemonic_enc: string; sealed_with: string }>(
      "SELECT mnemonic_enc, sealed_with FROM cs_pending_rotations WHERE user_uuid = $1",
      [user],
    );
    expect([isSealedValue(rotation!.mnemonic_enc), rotation!.sealed_with]).toEqual([true, "recovery"]);
    const [provider] = await db.query<{ aes_key_enc: string; previous_aes_key_enc: string }>(
      "SELECT aes_key_enc, previous_aes_key_enc FROM cs_providers WHERE client_id = $1",
      [providerClient],
    );
    expect([isSealedValue(provider!.aes_key_enc), isSealedValue(provider!.previous_aes_key_enc)]).toEqual([true, true]);
    // Nothing of the old format opens them any more, and the secrets still work: the PIN, both provider keys.
    expect(() => openHex(stored.find((row) => row.key_id === `${user}_MN`)!.b_key, recoveryKey)).toThrow();
    expect((await service.verifyPin({ user_uuid: later, ...laterPin, key_share_user: laterShareUser })).success).toBe(true);
    expect(await service.testEncryption({ client_id: providerClient, test_string: "x" })).toEqual({
      success: true,
      encrypted_string: encryptHex("x", providerKeys.current.toString("hex"), providerKeys.currentIv),
    });
    const previousMessage = encryptHex(
      JSON.stringify({ client_id: providerClient, user_dbkey: String(later), amount: "1", cuid: "none" }),
      providerKeys.previous.toString("hex"),
      providerKeys.previousIv,
    );
    // Decrypted under the previous key (inside its window): refused only for naming a cuid the client does not own.
    await expect(service.increaseUsed(providerClient, { encrypted_message: previousMessage })).rejects.toMatchObject({ code: "encrypted_message_mismatch" });
    await service.close();

    const again: ChainServiceWarning[] = [];
    await (await start(again)).close();
    expect(again.map((w) => w.code)).not.toContain("secrets_resealed");
  });

  it("recovery keeps working with a pending rotation re-sealed for its new owner", async () => {
    const [row] = await db.query<{ new_owner_eoa: string }>("SELECT new_owner_eoa FROM cs_pending_rotations WHERE user_uuid = $1", [user]);
    const service = await start([]);
    try {
      // The pending rotation's words open under its own record, so recovery could move them into _MN.
      const [keys] = await db.query<{ mnemonic_enc: string }>("SELECT mnemonic_enc FROM cs_pending_rotations WHERE user_uuid = $1", [user]);
      const vault = aesRecoveryVault(recoveryKey);
      expect(await vault.open(keys!.mnemonic_enc, SEALED_RECORD.ownerMnemonic(user, row!.new_owner_eoa))).toBe(pendingWords);
      await expect(vault.open(keys!.mnemonic_enc, SEALED_RECORD.ownerMnemonic(later, row!.new_owner_eoa))).rejects.toMatchObject({
        code: "sealed_record_invalid",
      });
    } finally {
      await service.close();
    }
  });

  it("hands a wallet whose backup was PIN-only its backup re-sealed under both shares, once, at the next PIN verification", async () => {
    const service = await start([]);
    try {
      const [flag] = await db.query<{ backup_pin_only: boolean }>("SELECT backup_pin_only FROM cs_wallets WHERE user_uuid = $1", [user]);
      expect(flag?.backup_pin_only).toBe(true);
      const first = await service.verifyPin({ user_uuid: user, ...pin, key_share_user: shareUser });
      expect(first.mnemonic).toMatch(/^[0-9a-f]+$/);
      expect(await readMnemonicBackup(first.mnemonic as string, pin.pin_hash, shareUser)).toBe(words);
      // The PIN alone does not open the new backup.
      expect(await readMnemonicBackup(first.mnemonic as string, pin.pin_hash, randomBytes(32).toString("hex"))).not.toBe(words);
      const second = await service.verifyPin({ user_uuid: user, ...pin, key_share_user: shareUser });
      expect(second.mnemonic).toBeUndefined();
      const [after] = await db.query<{ backup_pin_only: boolean }>("SELECT backup_pin_only FROM cs_wallets WHERE user_uuid = $1", [user]);
      expect(after?.backup_pin_only).toBe(false);
      // A new registration is never marked.
      const fresh = newUserId();
      await service.registerPin({ user_uuid: fresh, ...pinOf("271828") });
      const [marked] = await db.query<{ backup_pin_only: boolean }>("SELECT backup_pin_only FROM cs_wallets WHERE user_uuid = $1", [fresh]);
      expect(marked?.backup_pin_only).toBe(false);
    } finally {
      await service.close();
    }
  });
});
