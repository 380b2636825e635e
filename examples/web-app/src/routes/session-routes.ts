import { type SlotgateBackend, SlotgateBackendError } from "@slotgate/backend-sdk";
import { type Router, json, Router as createRouter } from "express";
import { DemoStepError, sendError } from "../errors.js";
import type { DemoSession, SessionStore } from "../sessions.js";

/** The slot info the browser may see: everything but the access token and the code. */
function publicSlot(session: DemoSession) {
  const slot = session.slot;
  if (!slot) return null;
  return {
    user_id: slot.id,
    content_address: slot.content_address,
    token_nickname: slot.token_nickname,
    tr_cnt: slot.tr_cnt,
    // Which slot of the game's cuid backs this login (present when the game registered a cuid).
    ...(slot.cu_id === undefined ? {} : { cu_id: slot.cu_id, meta_idx: slot.meta_idx }),
  };
}

function requireSlot(session: DemoSession, loggedIn = true) {
  if (!session.slot) throw new DemoStepError("not_logged_in", 401, "Log in first (step 1).");
  if (loggedIn && !session.loggedIn) throw new DemoStepError("logged_out", 409, "This session logged out; log in again.");
  return session.slot;
}

/**
 * Login, status sync and logout (spec 4.4, 4.6) on the back end with `@slotgate/backend-sdk`.
 *
 * @example
 * ```ts
 * app.use("/api", sessionRoutes(slotgate, sessions));
 * ```
 */
export function sessionRoutes(slotgate: SlotgateBackend, sessions: SessionStore): Router {
  const router = createRouter();
  router.use(json({ limit: "16kb" }));

  // Step 2: the browser sends the popup's JWT; the back end turns it into slot info (oauth-meta flow).
  router.post("/session", async (req, res) => {
    const session = sessions.get(req, res);
    const jwt: unknown = (req.body as { jwt?: unknown } | undefined)?.jwt;
    try {
      if (typeof jwt !== "string") throw new SlotgateBackendError("missing_token");
      session.slot = await slotgate.getSlotInfo(jwt);
      session.loggedIn = true;
      res.json({ slot: publicSlot(session) });
    } catch (err) {
      sendError(res, err);
    }
  });

  router.get("/session", (req, res) => {
    const session = sessions.get(req, res);
    res.json({ slot: publicSlot(session), logged_in: session.loggedIn });
  });

  // Step 3: record "logged in" with the service (never blocks the user flow; 3 attempts with backoff).
  router.post("/status/login", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session);
      const result = await slotgate.statusLogin({ accessToken: slot.access_token, userId: slot.id });
      if (!result.ok) throw result.error;
      const check = await slotgate.statusCheck({ accessToken: slot.access_token, userId: slot.id });
      res.json({ login: result.response, attempts: result.attempts, check });
    } catch (err) {
      sendError(res, err);
    }
  });

  // Step 7: record "logged out": the slot becomes eligible for transfer on the marketplace.
  router.post("/logout", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session);
      const result = await slotgate.statusLogout({ accessToken: slot.access_token, userId: slot.id });
      if (!result.ok) throw result.error;
      const check = await slotgate.statusCheck({ accessToken: slot.access_token, userId: slot.id });
      session.loggedIn = false;
      res.json({ logout: result.response, attempts: result.attempts, check });
    } catch (err) {
      sendError(res, err);
    }
  });

  return router;
}

export { requireSlot };
