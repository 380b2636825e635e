import { randomBytes } from "node:crypto";
import { computeWalletAddresses } from "@slotgate/contracts";
import { type Database, migrate, openDatabase } from "@slotgate/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_SERVICE_MIGRATIONS, type ChainServiceWarning, createChainService, readMnemonicBackup } from "../src/index.js";
import { deriveSharePin, generateOwnerKey, openHex, sealBytes, sealHex, splitKey, wipe } from "../src/keys/index.js";
import { type LandedService, freshKeys, landed, newUserId, pinOf, sharedSystem } from "./helpers/setup.js";

// Findings 6 and 7 of issue 21 on a database written before migration 6: its stored mnemonics were
// sealed under the key-encryption key, and its clients hold backups sealed under the PIN alone.

const keys = freshKeys();
const kek = Buffer.from(keys.keyEncryptionKey, "hex");
const recoveryKey = Buffer.from(keys.recoveryKey, "hex");
let db: Database;
const user = newUserId();
const pin = pinOf("314159");
let shareUser: string;
let words: string;
let pendingWords: string;

/** A wallet registered the way the service did before migration 6. */
async function registerTheOldWay(): Promise<void> {
  const { addresses } = await sharedSystem();
  const owner = generateOwnerKey();
  const pending = generateOwnerKey();
  const sharePin = await deriveSharePin(pin.pin_hash);
  const split = splitKey(owner.privateKey, sharePin);
  const { userWallet, slotWallet } = computeWalletAddresses(addresses.factory, owner.address);
  await db.query(
    "INSERT INTO cs_wallets (user_uuid, address, content_address, owner_eoa, initial_owner, pin_salt) VALUES ($1, $2, $3, $4, $4, $5)",
    [user, userWallet, slotWallet, owner.address, pin.pin_salt],
  );
  await db.query("INSERT INTO cs_keys (key_id, user_uuid, b_key) VALUES ($1, $2, $3), ($4, $2, $5)", [
    `${user}`,
    user,
    sealBytes(split.shareServer, kek),
    `${user}_MN`,
    sealHex(owner.mnemonic, kek),
  ]);
  await db.query("INSERT INTO cs_pending_rotations (user_uuid, new_owner_eoa, mnemonic_enc) VALUES ($1, $2, $3)", [
    user,
    pending.address,
    sealHex(pending.mnemonic, kek),
  ]);
  shareUser = split.shareUser.toString("hex");
  words = owner.mnemonic;
  pendingWords = pending.mnemonic;
  wipe(owner.privateKey, pending.privateKey, sharePin, split.shareServer, split.shareUser);
}

const start = async (warnings: ChainServiceWarning[]): Promise<LandedService> =>
  createChainService({ db, ...keys, chain: await sharedSystem(), warn: (w) => warnings.push(w) }).then(landed);

beforeAll(async () => {
  db = await openDatabase({}); // a database of its own, as an older server left it
  await migrate(db, { ...CHAIN_SERVICE_MIGRATIONS, migrations: CHAIN_SERVICE_MIGRATIONS.migrations.filter((m) => m.version <= 5) });
  await registerTheOldWay();
});
afterAll(async () => {
  await db?.close();
});

describe("records written before the recovery key and the two-share backup", () => {
  it("re-seals stored mnemonics under the recovery key at start-up: the database and the KEK no longer open them", async () => {
    const warnings: ChainServiceWarning[] = [];
    const service = await start(warnings);
    expect(warnings.find((w) => w.code === "mnemonics_resealed")?.message).toMatch(/^2 stored mnemonics/);
    const [stored] = await db.query<{ b_key: string; sealed_with: string }>("SELECT b_key, sealed_with FROM cs_keys WHERE key_id = $1", [`${user}_MN`]);
    expect(stored?.sealed_with).toBe("recovery");
    expect(openHex(stored!.b_key, kek)).not.toBe(words);
    expect(openHex(stored!.b_key, recoveryKey)).toBe(words);
    const [rotation] = await db.query<{ mnemonic_enc: string; sealed_with: string }>(
      "SELECT mnemonic_enc, sealed_with FROM cs_pending_rotations WHERE user_uuid = $1",
      [user],
    );
    expect(rotation?.sealed_with).toBe("recovery");
    expect(openHex(rotation!.mnemonic_enc, recoveryKey)).toBe(pendingWords);
    // The server share stays under the KEK.
    const [share] = await db.query<{ sealed_with: string }>("SELECT sealed_with FROM cs_keys WHERE key_id = $1", [`${user}`]);
    expect(share?.sealed_with).toBe("kek");
    await service.close();

    const again: ChainServiceWarning[] = [];
    await (await start(again)).close();
    expect(again.map((w) => w.code)).not.toContain("mnemonics_resealed");
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
