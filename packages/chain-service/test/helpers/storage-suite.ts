import { describe, expect, it } from "vitest";
import type { Database } from "@slotgate/storage";
import { migrateChainService } from "../../src/index.js";
import { reservePinAttempt } from "../../src/storage/pin-attempts.js";
import { acceptSpendNonce } from "../../src/storage/providers.js";
import { findKeys, findWallet, insertWallet } from "../../src/storage/wallets.js";
import { newUserId } from "./setup.js";

const wallet = (userUuid: number) => ({
  userUuid,
  accountIdx: 0,
  address: `0x${userUuid.toString(16).padStart(40, "a")}`,
  contentAddress: `0x${userUuid.toString(16).padStart(40, "c")}`,
  ownerEoa: `0x${"11".repeat(20)}`,
  initialOwner: `0x${"11".repeat(20)}`,
  walletType: "AA" as const,
  pinSalt: "ab".repeat(32),
});

/** The chain service's storage behaviours, on PGlite and on PostgreSQL. */
export function defineStorageSuite(name: string, open: () => Promise<Database>) {
  describe(`storage on ${name}`, () => {
    it("applies migrations once", async () => {
      const db = await open();
      await migrateChainService(db);
      expect(await migrateChainService(db)).toEqual([]);
    });

    it("stores a wallet with its two key records, once", async () => {
      const db = await open();
      const id = newUserId();
      const mnemonic = (sealed: string) => ({ sealed, sealedWith: "recovery" as const });
      expect(await db.transaction((tx) => insertWallet(tx, wallet(id), { serverShareEnc: "aa", mnemonic: mnemonic("bb") }))).toBe(true);
      expect(await db.transaction((tx) => insertWallet(tx, wallet(id), { serverShareEnc: "cc", mnemonic: mnemonic("dd") }))).toBe(false);
      expect(await findKeys(db, id)).toEqual({ serverShareEnc: "aa", mnemonic: mnemonic("bb") });
      expect(await findWallet(db, id)).toMatchObject({ walletType: "AA", backupPinOnly: false });
    });

    it("rolls a failed transaction back completely", async () => {
      const db = await open();
      const id = newUserId();
      await expect(
        db.transaction(async (tx) => {
          await insertWallet(tx, wallet(id), { serverShareEnc: "aa", mnemonic: { sealed: "bb", sealedWith: "recovery" } });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await findWallet(db, id)).toBeNull();
      expect(await findKeys(db, id)).toBeNull();
    });

    it("lets exactly maxFailures of many concurrent PIN attempts through", async () => {
      const db = await open();
      const id = newUserId();
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => reservePinAttempt(db, id, now, { maxFailures: 3, lockSeconds: 60 })),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(3);
    });

    it("accepts a spend nonce exactly once under concurrency", async () => {
      const db = await open();
      const nonce = `n-${newUserId()}`;
      const results = await Promise.all(Array.from({ length: 10 }, () => acceptSpendNonce(db, "client", nonce)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
