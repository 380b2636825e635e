import type { SlotgateBackend } from "@slotgate/backend-sdk";
import { type Router, json, Router as createRouter } from "express";
import type { DemoConfig } from "../config.js";
import { DemoStepError, sendError } from "../errors.js";
import type { SessionStore } from "../sessions.js";
import { requireSlot } from "./session-routes.js";

function metaIdxOf(body: unknown): number {
  const value = (body as { meta_idx?: unknown } | undefined)?.meta_idx;
  const index = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : value;
  if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) {
    throw new DemoStepError("invalid_meta_idx", 400, "meta_idx must be the number of one of your slots, e.g. 1");
  }
  return index;
}

/**
 * Several slots per player (spec 3.1 rule 2) with `@slotgate/backend-sdk`: list the player's slots of the
 * demo cuid, open another one, and make one of them the active slot. The service refuses activation
 * (409 `logout_required`) while the player is logged in to the game; after logout it is accepted, and the
 * next login's slot info names the newly active slot.
 *
 * @example
 * ```ts
 * app.use("/api/slots", slotRoutes(config, slotgate, sessions));
 * ```
 */
export function slotRoutes(config: DemoConfig, slotgate: SlotgateBackend, sessions: SessionStore): Router {
  const router = createRouter();
  router.use(json({ limit: "16kb" }));

  router.get("/", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session, false);
      res.json(await slotgate.listSlots({ accessToken: slot.access_token, cuid: config.cuid }));
    } catch (err) {
      sendError(res, err);
    }
  });

  router.post("/", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session, false);
      res.status(201).json(await slotgate.openSlot({ accessToken: slot.access_token, cuid: config.cuid }));
    } catch (err) {
      sendError(res, err);
    }
  });

  router.post("/activate", async (req, res) => {
    const session = sessions.get(req, res);
    try {
      const slot = requireSlot(session, false);
      const metaIdx = metaIdxOf(req.body);
      res.json(await slotgate.activateSlot({ accessToken: slot.access_token, cuid: config.cuid, metaIdx }));
    } catch (err) {
      sendError(res, err);
    }
  });

  return router;
}
