import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoginStatusWebhookEvent } from "@slotgate/protocol";
import { type Database, appliedVersions, openDatabase } from "@slotgate/storage";
import { afterAll, describe, expect, it } from "vitest";
import { createSealer, loadSealKey } from "../src/sealing.js";
import { loadCredentials, pinSaltOf, saveCredentials } from "../src/storage/credentials.js";
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
      expect(await migrateMarketplace(db)).toEqual([1]);
      expect(await migrateMarketplace(db)).toEqual([]);
      expect(await appliedVersions(db, MARKETPLACE_MIGRATIONS)).toEqual([1]);
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

describe("sealed seller credentials", () => {
  it("store key_share_user sealed (AES-256-GCM) and open it only for its own user", async () => {
    const db = await fresh("pglite");
    await migrateMarketplace(db);
    const sealer = createSealer(randomBytes(32));
    const share = randomBytes(32).toString("hex");
    await saveCredentials(db, sealer, "7", { walletAddress: "0xabc", pinSalt: "ab".repeat(32), keyShareUser: share });
    const [row] = await db.query<{ sealed_key_share: string }>("SELECT sealed_key_share FROM mk_seller_credentials");
    expect(row!.sealed_key_share).toMatch(/^v1\./);
    expect(row!.sealed_key_share).not.toContain(share);
    expect(await loadCredentials(db, sealer, "7")).toEqual({ walletAddress: "0xabc", pinSalt: "ab".repeat(32), keyShareUser: share });
    expect(await pinSaltOf(db, "7")).toBe("ab".repeat(32));
    expect(await loadCredentials(db, sealer, "8")).toBeNull();
    // Copied onto another user's row, it does not open; nor under another key.
    await db.query("INSERT INTO mk_seller_credentials (user_id, wallet_address, pin_salt, sealed_key_share) VALUES ('8', '0xdef', $1, $2)", [
      "cd".repeat(32),
      row!.sealed_key_share,
    ]);
    await expect(loadCredentials(db, sealer, "8")).rejects.toThrow();
    await expect(loadCredentials(db, createSealer(randomBytes(32)), "7")).rejects.toThrow();
  });

  it("refuses a changed box", () => {
    const sealer = createSealer(randomBytes(32));
    const box = sealer.seal("secret share", "7");
    const [v, iv, tag, ct] = box.split(".");
    const flipped = Buffer.from(ct!, "base64url");
    flipped[0]! ^= 1;
    expect(() => sealer.open([v, iv, tag, flipped.toString("base64url")].join("."), "7")).toThrow();
    expect(sealer.open(box, "7")).toBe("secret share");
  });

  it("generates the key file once with mode 0600, reads it back, and prefers MARKETPLACE_SEAL_KEY", () => {
    const dir = mkdtempSync(join(tmpdir(), "marketplace-seal-"));
    dirs.push(dir);
    const first = loadSealKey(null, dir);
    expect(first.source).toEqual({ kind: "file", path: join(dir, "seal.key"), generated: true });
    expect(statSync(join(dir, "seal.key")).mode & 0o777).toBe(0o600);
    const again = loadSealKey(null, dir);
    expect(again.source).toMatchObject({ generated: false });
    expect(again.key.equals(first.key)).toBe(true);
    const env = "0f".repeat(32);
    expect(loadSealKey(env, dir)).toEqual({ key: Buffer.from(env, "hex"), source: { kind: "env" } });
    writeFileSync(join(dir, "seal.key"), "not hex\n");
    expect(() => loadSealKey(null, dir)).toThrow(/is not 64 hex characters/);
  });
});
