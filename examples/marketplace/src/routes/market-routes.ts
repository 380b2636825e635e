import type { Database } from "@slotgate/storage";
import { type Router, Router as createRouter } from "express";
import { MarketError, sendError } from "../errors.js";
import { type HandOverDeps, finishHandOver, startHandOver } from "../listing/hand-over.js";
import { listSlot } from "../listing/list-slot.js";
import type { SessionStore } from "../sessions.js";
import type { SlotgateApi } from "../slotgate-api.js";
import { getListing, listingsIn, withdrawListing } from "../storage/listings.js";
import { latestSale, reserveListing } from "../storage/sales.js";
import { requireUser } from "./session-routes.js";

const PRICE = /^[1-9]\d{0,29}$/;

function field<T>(body: unknown, name: string, test: (v: unknown) => v is T, what: string): T {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (!test(value)) throw new MarketError("invalid_request", 400, `${name} must be ${what}.`);
  return value;
}
const isString = (v: unknown): v is string => typeof v === "string";
const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 31;

/**
 * The marketplace's pages' API: my slots (with the chain's figures), listing, the listings, buying
 * (the buyer's commitment), the seller's hand-over (started here, confirmed in the Slotgate wallet window,
 * settled from the service's record of the confirmation).
 *
 * @example
 * ```ts
 * app.use("/api", marketRoutes({ db, api, walletRedirectUri, sessions, games }));
 * ```
 */
export function marketRoutes(deps: HandOverDeps & { sessions: SessionStore; games: ReadonlyMap<string, string> }): Router {
  const router = createRouter();
  const db: Database = deps.db;
  const api: SlotgateApi = deps.api;
  const firstGame = [...deps.games.keys()][0]!;

  router.get("/slots", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      const cuid = typeof req.query["cuid"] === "string" ? req.query["cuid"] : firstGame;
      if (!deps.games.has(cuid)) throw new MarketError("unknown_game", 404, `No game with cuid ${cuid} is traded on this marketplace.`);
      const mine = await api.listSlots({ accessToken: who.accessToken, cuid });
      // The figures of each slot as the chain has them (balance, used_balances, tr_cnt), read publicly.
      const slots = await Promise.all(
        mine.map((s) =>
          api.slot(cuid, s.meta_idx).then(
            (chain) => ({ ...s, ...chain, state: s.state }),
            () => s,
          ),
        ),
      );
      const live = (await listingsIn(db, ["listed", "reserved"], who.userId)).filter((l) => l.cuid === cuid);
      res.json({ cuid, slots: slots.map((s) => ({ ...s, listing: live.find((l) => l.meta_idx === s.meta_idx) ?? null })) });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.get("/listings", async (req, res) => {
    try {
      const who = deps.sessions.current(req);
      const listings = await listingsIn(db, ["listed", "reserved", "sold"]);
      const withSales = await Promise.all(listings.map(async (l) => ({ ...l, sale: l.state === "listed" ? null : await latestSale(db, l.id) })));
      res.json({ me: who?.userId ?? null, listings: withSales });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.post("/listings", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      const cuid = field(req.body, "cuid", isString, "the game's cuid");
      const metaIdx = field(req.body, "meta_idx", isIndex, "the slot's meta_idx (an integer >= 0)");
      const price = field(req.body, "price", (v): v is string => typeof v === "string" && PRICE.test(v), 'a positive integer string, e.g. "100"');
      res.status(201).json({ listing: await listSlot({ db, api, games: deps.games }, who, { cuid, metaIdx, price }) });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.post("/listings/:id/withdraw", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      const listing = await withdrawListing(db, req.params["id"] ?? "", who.userId);
      if (!listing) throw new MarketError("not_withdrawable", 409, "Only your own listing that no buyer has committed to can be withdrawn.");
      res.json({ listing });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.post("/listings/:id/buy", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      const id = req.params["id"] ?? "";
      const reserved = await reserveListing(db, id, who.userId);
      if (!reserved) {
        const listing = await getListing(db, id);
        if (!listing) throw new MarketError("listing_not_found", 404, "No such listing.");
        if (listing.seller_user_id === who.userId) throw new MarketError("own_listing", 409, "This is your own listing.");
        throw new MarketError("not_listed", 409, `This listing is ${listing.state}; it cannot be bought.`);
      }
      res.json({ ...reserved, message: "Reserved for you: the seller confirms the hand-over with the PIN in the Slotgate window." });
    } catch (err) {
      sendError(res, err);
    }
  });

  // The page opens the wallet window with the answer (SlotgateWallet.confirmSlotHandOver), then calls /finish.
  router.post("/listings/:id/hand-over", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      res.json(await startHandOver(deps, who, req.params["id"] ?? ""));
    } catch (err) {
      sendError(res, err);
    }
  });

  // Settles from the service's record of the confirmation (the page's message is not trusted); also follows a pending write.
  router.post("/listings/:id/hand-over/finish", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      res.json(await finishHandOver(deps, who, req.params["id"] ?? ""));
    } catch (err) {
      sendError(res, err);
    }
  });

  return router;
}
