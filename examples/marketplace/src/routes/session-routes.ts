import { type SlotgateBackend, SlotgateBackendError } from "@slotgate/backend-sdk";
import type { Database } from "@slotgate/storage";
import { type Router, Router as createRouter } from "express";
import { MarketError, sendError } from "../errors.js";
import type { SessionStore, SignedIn } from "../sessions.js";
import { type SellerStatus, sellerStatus } from "../storage/seller-status.js";

/** The signed-in user of a request, or 401 `not_signed_in`. */
export function requireUser(sessions: SessionStore, req: Parameters<SessionStore["current"]>[0]): SignedIn {
  const who = sessions.current(req);
  if (!who) throw new MarketError("not_signed_in", 401, "Sign in with Slotgate first.");
  return who;
}

/**
 * Sign-in with Slotgate (the popup's JWT → `getSlotInfo` on this back end) and sign-out. The PIN is set up in
 * the Slotgate wallet window (the page's `SlotgateWallet.setUpPin`): this back end never sees it.
 *
 * @example
 * ```ts
 * app.use("/api", sessionRoutes({ slotgate, sessions, db, games }));
 * ```
 */
export function sessionRoutes(deps: { slotgate: SlotgateBackend; sessions: SessionStore; db: Database; games: ReadonlyMap<string, string> }): Router {
  const router = createRouter();

  router.post("/session", async (req, res) => {
    try {
      const jwt: unknown = (req.body as { jwt?: unknown } | undefined)?.jwt;
      if (typeof jwt !== "string") throw new SlotgateBackendError("missing_token");
      const info = await deps.slotgate.getSlotInfo(jwt);
      deps.sessions.signIn(req, res, { userId: info.id, accessToken: info.access_token, nickname: info.token_nickname });
      res.json({ user: { user_id: info.id, nickname: info.token_nickname } });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.get("/session", async (req, res) => {
    try {
      const who = deps.sessions.current(req);
      // This marketplace's own view (fed by the webhooks) of the user at each game, by cuid.
      const gameStatus: Record<string, SellerStatus> = {};
      if (who) for (const [cuid, clientId] of deps.games) gameStatus[cuid] = await sellerStatus(deps.db, who.userId, clientId);
      res.json({
        user: who ? { user_id: who.userId, nickname: who.nickname } : null,
        game_status: gameStatus,
      });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.post("/session/logout", (req, res) => {
    deps.sessions.signOut(req, res);
    res.json({ user: null });
  });

  return router;
}
