import { describe, expect, it } from "vitest";
import type { Database } from "@slotgate/storage";
import { migrateChainService } from "../../src/index.js";
import { reservePinAttempt } from "../../src/storage/pin-attempts.js";
import { acceptSpendNonce } from "../../src/storage/providers.js";
import { findKeys, findWallet, insertWallet } from "../../src/storage/wallets.js";
import { findWrite, findWrites, purgeSettledWrites } from "../../src/storage/writes.js";
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
      const mnemonic = (sealed: string) => ({ sealed, sealedWith: "recovery" as const, userUuid: id, owner: `0x${"11".repeat(20)}` });
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
          await insertWallet(tx, wallet(id), {
            serverShareEnc: "aa",
            mnemonic: { sealed: "bb", sealedWith: "recovery", userUuid: id, owner: `0x${"11".repeat(20)}` },
          });
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
      const results = await Promise.all(Array.from({ length: 10 }, () => reservePinAttempt(db, id, now, { maxFailures: 3, lockSeconds: 60 })));
      expect(results.filter((r) => r.allowed)).toHaveLength(3);
    });

    it("purges settled writes past their retention once, when two instances purge at once, and never a pending one", async () => {
      const db = await open();
      const scope = `client:purge-${newUserId()}`;
      const insert = (status: string, age: string, key: string | null, rowScope = scope) =>
        db.query<{ id: string }>(
          `INSERT INTO cs_writes (kind, signer, scope, idempotency_key, request_hash, payload, status, created_at, updated_at)
           VALUES ('call', '0xsigner', $1, $2, 'h', '{}', $3, now() - $4::interval, now() - $4::interval) RETURNING id::text`,
          [rowScope, key, status, age],
        );
      for (let i = 0; i < 30; i++) await insert(i % 2 === 0 ? "confirmed" : "failed", "3 days", `old-${i}`);
      const kept = [
        ...(await insert("confirmed", "1 hour", "recent")),
        ...(await insert("pending", "3 days", "old-pending")),
        ...(await insert("submitted", "3 days", "old-submitted")),
        // A slot's registration: a platform write with a key of its own, looked up for as long as the slot exists.
        ...(await insert("confirmed", "3 days", `slot:purge:${newUserId()}`, "platform")),
      ].map((row) => row.id);
      const before = new Date(Date.now() - 24 * 3600 * 1000);
      // Small batches, so the two purges interleave over many statements.
      const counts = await Promise.all([purgeSettledWrites(db, before, 4), purgeSettledWrites(db, before, 4)]);
      const left = await db.query<{ id: string }>("SELECT id::text FROM cs_writes WHERE scope = $1 OR id = ANY($2::bigint[]) ORDER BY id", [scope, kept]);
      expect(left.map((row) => row.id)).toEqual(kept);
      // Only this test writes rows settled days ago: the two purges deleted the 30 between them.
      expect(counts[0]! + counts[1]!).toBe(30);
      expect(await purgeSettledWrites(db, before)).toBe(0);
      // The keys of the purged writes are free again.
      expect(await db.query("SELECT 1 FROM cs_writes WHERE scope = $1 AND idempotency_key = 'old-0'", [scope])).toEqual([]);
    });

    it("reads several writes by id in one statement, as one by one, skipping malformed and unknown ids", async () => {
      const db = await open();
      const scope = `client:find-${newUserId()}`;
      const ids: string[] = [];
      for (const status of ["pending", "confirmed", "failed"]) {
        const rows = await db.query<{ id: string }>(
          `INSERT INTO cs_writes (kind, signer, scope, idempotency_key, request_hash, payload, status)
           VALUES ('call', '0xsigner', $1, NULL, 'h', '{"n":1}', $2) RETURNING id::text`,
          [scope, status],
        );
        ids.push(rows[0]!.id);
      }
      const found = await findWrites(db, [...ids, "0", "1; DROP TABLE cs_writes", "9223372036854775807"]);
      expect([...found.keys()].sort()).toEqual([...ids].sort());
      for (const id of ids) expect(found.get(id)).toEqual(await findWrite(db, id));
      expect(await findWrites(db, [])).toEqual(new Map());
    });

    it("accepts a spend nonce exactly once under concurrency", async () => {
      const db = await open();
      const nonce = `n-${newUserId()}`;
      const results = await Promise.all(Array.from({ length: 10 }, () => acceptSpendNonce(db, "client", nonce)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
