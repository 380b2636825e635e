import { type SlotgateBackend, SlotgateBackendError } from "@slotgate/backend-sdk";
import type { Database } from "@slotgate/storage";
import { type Router, Router as createRouter } from "express";
import { MarketError, sendError } from "../errors.js";
import type { Sealer } from "../sealing.js";
import type { SessionStore, SignedIn } from "../sessions.js";
import type { SlotgateApi } from "../slotgate-api.js";
import { pinSaltOf, saveCredentials } from "../storage/credentials.js";
import { type SellerStatus, sellerStatus } from "../storage/seller-status.js";

const HEX64 = /^[0-9a-f]{64}$/;

/** The signed-in user of a request, or 401 `not_signed_in`. */
export function requireUser(sessions: SessionStore, req: Parameters<SessionStore["current"]>[0]): SignedIn {
  const who = sessions.current(req);
  if (!who) throw new MarketError("not_signed_in", 401, "Sign in with Slotgate first.");
  return who;
}

/**
 * Sign-in with Slotgate (the popup's JWT → `getSlotInfo` on this back end), sign-out, and the seller's
 * PIN registration through this marketplace (`POST /v1/pin/register`; key_share_user sealed at rest).
 *
 * @example
 * ```ts
 * app.use("/api", sessionRoutes({ slotgate, sessions, db, api, sealer }));
 * ```
 */
export function sessionRoutes(deps: {
  slotgate: SlotgateBackend;
  sessions: SessionStore;
  db: Database;
  api: SlotgateApi;
  sealer: Sealer;
  games: ReadonlyMap<string, string>;
}): Router {
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
      const pinSalt = who ? await pinSaltOf(deps.db, who.userId) : null;
      // This marketplace's own view (fed by the webhooks) of the user at each game, by cuid.
      const gameStatus: Record<string, SellerStatus> = {};
      if (who) for (const [cuid, clientId] of deps.games) gameStatus[cuid] = await sellerStatus(deps.db, who.userId, clientId);
      res.json({
        user: who ? { user_id: who.userId, nickname: who.nickname } : null,
        pin_registered: pinSalt !== null,
        pin_salt: pinSalt,
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

  // The page generated pin_salt and hashed the PIN with it; the PIN itself never leaves the browser.
  router.post("/pin/register", async (req, res) => {
    try {
      const who = requireUser(deps.sessions, req);
      const body = (req.body ?? {}) as { pin_hash?: unknown; pin_salt?: unknown };
      if (typeof body.pin_hash !== "string" || !HEX64.test(body.pin_hash) || typeof body.pin_salt !== "string" || !HEX64.test(body.pin_salt)) {
        throw new MarketError("invalid_request", 400, "pin_hash and pin_salt must be 64 lowercase hex characters each.");
      }
      if (!/^\d{1,15}$/.test(who.userId))
        throw new MarketError("invalid_request", 400, "This account's user id is not a number; the PIN cannot be registered.");
      const wallet = await deps.api.registerPin({ accessToken: who.accessToken, userUuid: Number(who.userId), pinHash: body.pin_hash, pinSalt: body.pin_salt });
      await saveCredentials(deps.db, deps.sealer, who.userId, { walletAddress: wallet.address, pinSalt: body.pin_salt, keyShareUser: wallet.key_share_user });
      res.json({ pin_registered: true, wallet_address: wallet.address });
    } catch (err) {
      if (err instanceof MarketError && err.serviceError === "wallet_exists") {
        sendError(
          res,
          new MarketError(
            "pin_registered_elsewhere",
            409,
            "Your PIN was registered outside this marketplace, so it does not hold your key share; reset the PIN with your mnemonic there first.",
            "wallet_exists",
          ),
        );
        return;
      }
      sendError(res, err);
    }
  });

  return router;
}
