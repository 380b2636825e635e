import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import type { LoginStatusWebhookEvent } from "@slotgate/protocol";
import { type Database, appliedVersions, migrate, openDatabase } from "@slotgate/storage";
import { afterAll, describe, expect, it } from "vitest";
import { createListing } from "../src/storage/listings.js";
import { MARKETPLACE_MIGRATIONS, migrateMarketplace } from "../src/storage/migrations.js";
import { reserveListing, settleSale } from "../src/storage/sales.js";
import { recordStatusEvent } from "../src/storage/seller-status.js";

const PG_URL = process.env.SLOTGATE_TEST_DATABASE_URL;
const opened: Database[] = [];
const schemas: Array<{ db: Database; schema: string }> = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const { db, schema } of schemas) await db.query(`DROP SCHEMA ${schema} CASCADE`);
  for (const db of opened.reverse()) await db.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function fresh(kind: "pglite" | "postgres"): Promise<Database> {
  const schema = `mk_test_${randomBytes(6).toString("hex")}`;
  const db = kind === "pglite" ? await openDatabase({}) : await openDatabase({ databaseUrl: PG_URL, schema, poolSize: 6 });
  opened.push(db);
  if (kind === "postgres") schemas.push({ db, schema });
  return db;
}

const loginAt = (id: string, at: string): LoginStatusWebhookEvent => ({
  id,
  type: "login_status.changed",
  user_id: "7",
  client_id: "sg_game",
  status: "logged_in",
  transfer_enabled: false,
  timestamp: at,
});

// PostgreSQL when `npm test` found it (it sets SLOTGATE_TEST_DATABASE_URL; CI always does); vitest.config.ts says when it is left out.
const KINDS = PG_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);
for (const kind of KINDS) {
  describe(`marketplace tables (${kind})`, () => {
    it("migrations apply once, and again find nothing to do", async () => {
      const db = await fresh(kind);
      expect(await migrateMarketplace(db)).toEqual([1, 2]);
      expect(await migrateMarketplace(db)).toEqual([]);
      expect(await appliedVersions(db, MARKETPLACE_MIGRATIONS)).toEqual([1, 2]);
    });

    it("a slot has at most one live listing; a withdrawn or sold one does not count", async () => {
      const db = await fresh(kind);
      await migrateMarketplace(db);
      const args = { cuid: "g", metaIdx: 0, seller: "7", clientId: "sg_game", price: "100" };
      const first = await createListing(db, args);
      expect(first).toMatchObject({ listing: { state: "listed", meta_idx: 0 } });
      expect(await createListing(db, args)).toEqual({ refused: "already_listed" });
      await db.query("UPDATE mk_listings SET state = 'withdrawn'");
      expect(await createListing(db, args)).toMatchObject({ listing: { state: "listed" } });
    });

    it("a buyer's commitment reserves the listing once; a failed hand-over offers it again", async () => {
      const db = await fresh(kind);
      await migrateMarketplace(db);
      const created = await createListing(db, { cuid: "g", metaIdx: 0, seller: "7", clientId: "sg_game", price: "100" });
      const id = "listing" in created ? created.listing.id : "";
      expect(await reserveListing(db, id, "7")).toBeNull(); // the seller's own
      const reserved = await reserveListing(db, id, "8");
      expect(reserved).toMatchObject({ listing: { state: "reserved", buyer_user_id: "8" }, sale: { state: "reserved", buyer_user_id: "8" } });
      expect(await reserveListing(db, id, "9")).toBeNull();
      await settleSale(db, reserved!.sale, { sold: false, txHash: null, newOwner: null, trCnt: null, message: "failed" });
      expect((await db.query("SELECT state, buyer_user_id FROM mk_listings"))[0]).toEqual({ state: "listed", buyer_user_id: null });
    });

    it("a logged_in seller cannot list (own view, under the status row's lock)", async () => {
      const db = await fresh(kind);
      await migrateMarketplace(db);
      await recordStatusEvent(db, loginAt("1", "2027-01-15T08:00:00.000Z"), ["g"]);
      expect(await createListing(db, { cuid: "g", metaIdx: 0, seller: "7", clientId: "sg_game", price: "100" })).toEqual({ refused: "seller_logged_in" });
    });

    it("concurrent deliveries of one event are recorded once", async () => {
      const db = await fresh(kind);
      await migrateMarketplace(db);
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => recordStatusEvent(db, loginAt("42", "2027-01-15T08:00:00.000Z"), ["g"])));
      expect(outcomes.filter((o) => o.outcome === "applied")).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === "duplicate")).toHaveLength(5);
      expect(await db.query("SELECT id FROM mk_webhook_events")).toEqual([{ id: "42" }]);
    });

    it("a listing and a concurrent logged_in never leave a live listing of a playing seller", async () => {
      const db = await fresh(kind);
      await migrateMarketplace(db);
      for (let round = 0; round < 5; round += 1) {
        await Promise.all([
          createListing(db, { cuid: "g", metaIdx: round, seller: "7", clientId: "sg_game", price: "1" }),
          recordStatusEvent(db, loginAt(`r${round}`, `2027-01-15T08:00:0${round}.000Z`), ["g"]),
        ]);
        await db.query("UPDATE mk_seller_status SET status = 'logged_out'");
      }
      expect(await db.query("SELECT id FROM mk_listings WHERE state = 'listed'")).toEqual([]);
    });
  });
}

describe("migration 2: the wallet window holds the PIN and the key share", () => {
  it("drops mk_seller_credentials (with its rows) and keeps a sale's state as its confirmation id", async () => {
    const db = await fresh("pglite");
    await migrate(db, { ...MARKETPLACE_MIGRATIONS, migrations: MARKETPLACE_MIGRATIONS.migrations.filter((m) => m.version === 1) });
    await db.query("INSERT INTO mk_seller_credentials (user_id, wallet_address, pin_salt, sealed_key_share) VALUES ('7', '0xabc', $1, 'v1.x.y.z')", [
      "ab".repeat(32),
    ]);
    const created = await createListing(db, { cuid: "g", metaIdx: 0, seller: "7", clientId: "sg_game", price: "5" });
    if (!("listing" in created)) throw new Error("not listed");
    await db.query("INSERT INTO mk_sales (listing_id, buyer_user_id, state, exchange_state) VALUES ($1, '8', 'reserved', 'old-state')", [created.listing.id]);
    expect(await migrateMarketplace(db)).toEqual([2]);
    expect(await db.query("SELECT table_name FROM information_schema.tables WHERE table_name = 'mk_seller_credentials'")).toEqual([]);
    expect(await db.query("SELECT confirmation_id FROM mk_sales")).toEqual([{ confirmation_id: "old-state" }]);
  });
});
