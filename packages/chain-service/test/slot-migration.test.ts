import { randomBytes } from "node:crypto";
import { computeWalletAddresses } from "@slotgate/contracts";
import { type Database, migrate, openDatabase } from "@slotgate/storage";
import { Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN_SERVICE_MIGRATIONS } from "../src/index.js";
import { generateOwnerKey, sealHex, wipe } from "../src/keys/index.js";
import { serviceOver } from "../src/surface.js";
import { createContext } from "../src/context.js";
import { registrationIdentity } from "../src/slots/slots.js";
import { type Harness, freshKeys, landedAnswer, newUserId, sharedSystem, startService } from "./helpers/setup.js";

// Migration 10 on a database written before slots: a user's C_SALT wallet that bought content tokens
// becomes that user's first slot of the cuid it last bought under, active, registered on chain at start.

const keys = freshKeys();
let db: Database;
let shared: Harness;
const cuid = `mig-${randomBytes(4).toString("hex")}`;
const buyers = [newUserId(), newUserId()];
const idle = newUserId();
const contentAddresses = new Map<number, string>();
const userWallets = new Map<number, string>();

/** A wallet as the service stored it before migration 10, with the cuid its slot wallet last bought under. */
async function oldWallet(user: number, boughtUnder: string | null): Promise<void> {
  const { addresses } = await sharedSystem();
  const owner = generateOwnerKey();
  const { userWallet, slotWallet } = computeWalletAddresses(addresses.factory, owner.address);
  await db.query("INSERT INTO cs_wallets (user_uuid, address, content_address, owner_eoa, initial_owner) VALUES ($1, $2, $3, $4, $4)", [
    user,
    userWallet,
    slotWallet,
    owner.address,
  ]);
  await db.query("INSERT INTO cs_keys (key_id, user_uuid, b_key) VALUES ($1, $2, $3)", [
    `${user}_MN`,
    user,
    sealHex(owner.mnemonic, Buffer.from(keys.keyEncryptionKey, "hex")),
  ]);
  if (boughtUnder) await db.query("INSERT INTO cs_slot_last_cuid (slot, cuid) VALUES (lower($1), $2)", [slotWallet, boughtUnder]);
  contentAddresses.set(user, slotWallet);
  userWallets.set(user, userWallet);
  wipe(owner.privateKey);
}

beforeAll(async () => {
  // The cuid is registered on the suite's deployment (buy_slot needs it), by a service of the shared database.
  shared = await startService();
  await shared.service.initPermissionProvider({
    client_id: `sg_${randomBytes(6).toString("hex")}`,
    cuid,
    release_per: 0,
    owner_addr: Wallet.createRandom().address,
  });
  db = await openDatabase({});
  await migrate(db, { ...CHAIN_SERVICE_MIGRATIONS, migrations: CHAIN_SERVICE_MIGRATIONS.migrations.filter((m) => m.version <= 9) });
  for (const user of buyers) await oldWallet(user, cuid);
  await oldWallet(idle, null);
});
afterAll(async () => {
  await shared?.service.close();
  await db?.close();
});

describe("migration 10: existing C_SALT wallets become first slots", () => {
  it("numbers them per cuid, makes them active, registers them on chain at start; a wallet that never bought gets none", async () => {
    const ctx = await createContext({ db, ...keys, chain: await sharedSystem(), warn: () => undefined });
    const service = serviceOver(ctx);
    try {
      const [a, b] = buyers as [number, number];
      const slotsOfA = await service.listSlots(a, cuid);
      const slotsOfB = await service.listSlots(b, cuid);
      expect(slotsOfA.map((s) => [s.meta_idx, s.slot, s.state])).toEqual([[0, contentAddresses.get(a), "active"]]);
      expect(slotsOfB.map((s) => [s.meta_idx, s.slot, s.state])).toEqual([[1, contentAddresses.get(b), "active"]]);
      expect(await service.activeSlot(idle, cuid)).toBeNull();

      // The start enqueued their registrations: they land with the owner's user wallet and the C_SALT wallet.
      for (const [index, user] of [a, b].entries()) {
        const write = await ctx.writes.earlier(registrationIdentity(cuid, index));
        landedAnswer(await ctx.writes.outcome(write!));
        expect(await service.slotInfo(cuid, index)).toMatchObject({
          registered: true,
          owner: userWallets.get(user),
          slot: contentAddresses.get(user),
          tr_cnt: 0,
        });
      }
      // The cuid's numbering goes on after the migrated slots.
      expect(await db.query("SELECT next_idx FROM cs_slot_counters WHERE cuid = $1", [cuid])).toEqual([{ next_idx: 2 }]);
    } finally {
      await service.close();
    }
  });
});
