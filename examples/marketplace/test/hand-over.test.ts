/**
 * The hand-over's settlement from the service's record of the confirmation (`finishHandOver`), on PGlite with a fake
 * Slotgate module: every outcome of `getWalletConfirmation`, and that the page's word is never taken.
 */
import type { SlotView, WalletConfirmationResponse } from "@slotgate/protocol";
import { type Database, openDatabase } from "@slotgate/storage";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { MarketError } from "../src/errors.js";
import { type HandOverDeps, SELLER_DECLINED, SELLER_PLAYING, WRITING, finishHandOver, startHandOver } from "../src/listing/hand-over.js";
import type { SlotgateApi } from "../src/slotgate-api.js";
import { createListing } from "../src/storage/listings.js";
import { migrateMarketplace } from "../src/storage/migrations.js";
import { reserveListing } from "../src/storage/sales.js";

const ID = "c".repeat(43);
const TX = `0x${"ab".repeat(32)}`;
const SLOT = { slot: "0x1111111111111111111111111111111111111111", owner: "0x2222222222222222222222222222222222222222", tr_cnt: 1 } as unknown as SlotView;
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

/** A fake Slotgate module: createHandOver answers ID; confirmation answers the queued records in order. */
function fakeApi(records: Array<Partial<WalletConfirmationResponse>>) {
  const created: unknown[] = [];
  const api = {
    createHandOver: async (args: unknown) => {
      created.push(args);
      return { success: true, id: ID, kind: "slot_hand_over", status: "pending", expires_at: 1, window_url: `http://svc/wallet/confirm/${ID}` };
    },
    confirmation: async (id: string) => {
      expect(id).toBe(ID);
      const next = records.shift();
      if (!next) throw new Error("no more records");
      return { success: true, id: ID, kind: "slot_hand_over", tx_hash: null, write_id: null, ...next };
    },
    slot: async () => SLOT,
  };
  return { api: api as unknown as SlotgateApi, created };
}

let db: Database;
let listingId: string;
beforeEach(async () => {
  db = await openDatabase({});
  opened.push(db);
  await migrateMarketplace(db);
  const created = await createListing(db, { cuid: "g", metaIdx: 3, seller: "7", clientId: "sg_game", price: "5" });
  if (!("listing" in created)) throw new Error("not listed");
  listingId = created.listing.id;
  await reserveListing(db, listingId, "8");
});

const deps = (api: SlotgateApi): HandOverDeps => ({ db, api, walletRedirectUri: "http://127.0.0.1:3100/slotgate-callback.html" });
const state = async () => (await db.query<{ state: string }>("SELECT state FROM mk_listings WHERE id = $1", [listingId]))[0]!.state;

async function refusal(promise: Promise<unknown>): Promise<MarketError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketError);
  return error as MarketError;
}

describe("finishHandOver settles from the service's record", () => {
  it("start asks for the listing's slot to the buyer with the popup page, and keeps the confirmation id", async () => {
    const { api, created } = fakeApi([]);
    expect(await startHandOver(deps(api), { userId: "7" }, listingId)).toEqual({
      id: ID,
      kind: "slot_hand_over",
      window_url: `http://svc/wallet/confirm/${ID}`,
    });
    expect(created).toEqual([{ sellerUuid: 7, buyerUserId: "8", cuid: "g", metaIdx: 3, redirectUri: "http://127.0.0.1:3100/slotgate-callback.html" }]);
    expect(await db.query("SELECT confirmation_id FROM mk_sales")).toEqual([{ confirmation_id: ID }]);
    expect((await refusal(startHandOver(deps(api), { userId: "8" }, listingId))).code).toBe("not_your_listing");
  });

  it("refuses a finish before any start", async () => {
    expect((await refusal(finishHandOver(deps(fakeApi([]).api), { userId: "7" }, listingId))).code).toBe("hand_over_not_started");
  });

  it("approved with a tx hash: sold, with the owner and tr_cnt read from the chain", async () => {
    const { api } = fakeApi([{ status: "approved", tx_hash: TX }]);
    await startHandOver(deps(api), { userId: "7" }, listingId);
    const { sale, slot } = await finishHandOver(deps(api), { userId: "7" }, listingId);
    expect(sale).toMatchObject({ state: "sold", tx_hash: TX, new_owner: SLOT.owner, tr_cnt: 1 });
    expect(slot).toBe(SLOT);
    expect(await state()).toBe("sold");
  });

  it("approved while the write is on its way: pending, then sold once the service reports it landed", async () => {
    const { api } = fakeApi([
      { status: "approved", write_id: "w1", write_status: "submitted" },
      { status: "approved", write_id: "w1", write_status: "confirmed", tx_hash: TX },
    ]);
    await startHandOver(deps(api), { userId: "7" }, listingId);
    expect((await finishHandOver(deps(api), { userId: "7" }, listingId)).sale).toMatchObject({ state: "pending", write_id: "w1", message: WRITING });
    expect((await refusal(startHandOver(deps(api), { userId: "7" }, listingId))).code).toBe("hand_over_pending");
    expect((await finishHandOver(deps(api), { userId: "7" }, listingId)).sale).toMatchObject({ state: "sold", tx_hash: TX });
  });

  it("still pending (the window is open): nothing changes", async () => {
    const { api } = fakeApi([{ status: "pending" }]);
    await startHandOver(deps(api), { userId: "7" }, listingId);
    expect((await finishHandOver(deps(api), { userId: "7" }, listingId)).sale).toMatchObject({ state: "reserved", message: null });
    expect(await state()).toBe("reserved");
  });

  it("denied or expired: the sale waits", async () => {
    for (const status of ["denied", "expired"] as const) {
      const { api } = fakeApi([{ status }]);
      await startHandOver(deps(api), { userId: "7" }, listingId);
      expect((await finishHandOver(deps(api), { userId: "7" }, listingId)).sale).toMatchObject({ state: "reserved", message: SELLER_DECLINED });
    }
    expect(await state()).toBe("reserved");
  });

  it("failed logout_required: 409 seller_playing; another failure: 409 hand_over_failed with the service's code; reserved", async () => {
    const { api } = fakeApi([
      { status: "failed", error: { code: "logout_required", message: "plays" } },
      { status: "failed", error: { code: "slot_wallet_unsafe", message: "foreign implementation" } },
    ]);
    await startHandOver(deps(api), { userId: "7" }, listingId);
    const playing = await refusal(finishHandOver(deps(api), { userId: "7" }, listingId));
    expect([playing.code, playing.status, playing.message, playing.serviceError]).toEqual(["seller_playing", 409, SELLER_PLAYING, "logout_required"]);
    const failed = await refusal(finishHandOver(deps(api), { userId: "7" }, listingId));
    expect([failed.code, failed.status, failed.serviceError]).toEqual(["hand_over_failed", 409, "slot_wallet_unsafe"]);
    expect(failed.message).toContain("foreign implementation");
    expect(await state()).toBe("reserved");
  });
});
