import { timingSafeEqual } from "node:crypto";
import type { AuthorizationStatus, RevokeResponse, StatusCheckResponse, StatusLoginResponse, StatusLogoutResponse, ValidateResponse } from "@slotgate/protocol";
import { statusCheckQuerySchema, statusUpdateSchema } from "@slotgate/protocol/schemas";
import { type NextFunction, type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput } from "../http/validate.js";
import { type BearerClaims, bearerFrom } from "../keys/tokens.js";
import { getLoginStatus } from "../storage/login-status.js";
import { endRefreshFamily } from "../token/refresh-tokens.js";
import { settleTransferHold, transferInProgress } from "./listing-lock.js";
import { StatusBatcher } from "./status-batcher.js";

const MARKETPLACE_MAX_ATTEMPTS = 15;

function cors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  if (req.method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type");
    res.setHeader("Access-Control-Max-Age", "600");
    res.status(204).end();
    return;
  }
  next();
}

/** The bearer claims must name the same user and client as the request. */
function requireOwner(claims: BearerClaims, userId: string, clientId: string): void {
  if (claims.sub !== userId || claims.client_id !== clientId) throw new SlotgateServerError("token_user_mismatch");
}

/**
 * Token validation and revocation, the login-status sync (spec 4.6, 4.6a) and the marketplace's
 * listing check.
 */
export function statusRoutes(services: Services): Router {
  const router = Router();
  const limit = rateLimit("status", services.config.rateLimit.statusPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix);
  const statuses = new StatusBatcher(services.db, { marketplaceUrl: services.config.marketplaceUrl, maxAttempts: MARKETPLACE_MAX_ATTEMPTS });
  const bearer = async (req: Request) => services.tokens.verifyBearer(bearerFrom(req.headers.authorization));

  router.options(["/v1/oauth/validate", "/v1/oauth/revoke"], cors);

  router.get("/v1/oauth/validate", cors, async (req: Request, res: Response) => {
    const claims = await bearer(req);
    const answer: ValidateResponse = {
      success: true,
      valid: true,
      user_id: claims.sub,
      client_id: claims.client_id,
      token_use: claims.token_use,
      expires_at: new Date(claims.exp * 1000).toISOString(),
    };
    res.setHeader("Cache-Control", "no-store");
    res.json(answer);
  });

  router.post("/v1/oauth/revoke", cors, limit, async (req: Request, res: Response) => {
    const claims = await bearer(req);
    await services.revocations.revoke(claims.jti, new Date(claims.exp * 1000), "revoked_by_holder");
    if (claims.sid) await endRefreshFamily(services, claims.sid, "revoked_by_holder", true);
    const answer: RevokeResponse = { success: true, revoked: true };
    res.json(answer);
  });

  const update = (status: AuthorizationStatus) => async (req: Request, res: Response) => {
    const claims = await bearer(req);
    const body = parseInput(statusUpdateSchema, req.body);
    requireOwner(claims, body.user_id, body.client_id);
    const change = { userId: body.user_id, clientId: body.client_id, status };
    let write = await statuses.set(change);
    // The listing lock: a login meets the hold of a sale in flight. Ended when that sale settled, else 409.
    if (!write.stored && (await settleTransferHold(services, change, write.hold))) write = await statuses.set(change);
    if (!write.stored) throw transferInProgress(write.hold.until);
    const updatedAt = write.at;
    // Logout ends the refresh-token family; the access token in hand stays valid until it expires (status check after logout).
    if (status === "logged_out" && claims.sid) await endRefreshFamily(services, claims.sid, "logout", false);
    services.outbox.kick();
    const timestamp = updatedAt.toISOString();
    if (status === "logged_in") {
      const answer: StatusLoginResponse = { success: true, message: "Login status recorded.", user_id: body.user_id, status, timestamp };
      res.json(answer);
    } else {
      const answer: StatusLogoutResponse = {
        success: true,
        message: "Logout recorded; the authorization may now be listed for transfer.",
        user_id: body.user_id,
        status,
        transfer_enabled: true,
        timestamp,
      };
      res.json(answer);
    }
  };
  router.post("/v1/oauth/status/login", limit, jsonBody, update("logged_in"));
  router.post("/v1/oauth/status/logout", limit, jsonBody, update("logged_out"));

  router.get("/v1/oauth/status/check", limit, async (req: Request, res: Response) => {
    const claims = await bearer(req);
    const query = parseInput(statusCheckQuerySchema, { ...(req.query as object) });
    requireOwner(claims, query.user_id, query.client_id);
    const row = await getLoginStatus(services.db, query.user_id, query.client_id);
    const status = row?.status ?? "logged_out";
    const answer: StatusCheckResponse = {
      success: true,
      user_id: query.user_id,
      client_id: query.client_id,
      status,
      transfer_enabled: status === "logged_out",
      timestamp: row ? new Date(row.updated_at).toISOString() : null,
    };
    res.setHeader("Cache-Control", "no-store");
    res.json(answer);
  });

  router.get("/v1/marketplace/listing_allowed", async (req: Request, res: Response) => {
    const secret = services.config.marketplaceSecret;
    const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const ok = secret !== null && presented.length === secret.length && timingSafeEqual(Buffer.from(presented), Buffer.from(secret));
    if (!ok) throw new SlotgateServerError("invalid_client", { message: "The marketplace must authenticate with Authorization: Bearer <MARKETPLACE_SECRET>." });
    const query = parseInput(statusCheckQuerySchema, { ...(req.query as object) });
    const row = await getLoginStatus(services.db, query.user_id, query.client_id);
    const status = row?.status ?? "logged_out";
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, user_id: query.user_id, client_id: query.client_id, status, listing_allowed: status === "logged_out" });
  });

  return router;
}
