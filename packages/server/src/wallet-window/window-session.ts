import type { Request, RequestHandler, Response } from "express";
import type { Services } from "../platform/app/services.js";
import { readBrowserSession } from "../oauth/authorize/browser-session.js";
import { csrfMatches } from "../oauth/authorize/csrf.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { runGuards } from "../platform/http/mount-endpoint.js";
import { pinLimits } from "../chain-api/pin/pin-limits.js";

/**
 * The player of a wallet window's post: the service's browser session for `clientId` (set when the player
 * signed in through that client's login), which must be `userId` when the post is about a confirmation.
 * The double-submit CSRF token comes first. 403 `csrf_failed`, 401 `wallet_session_required`, 403
 * `wallet_user_mismatch`.
 *
 * @example
 * ```ts
 * const userId = windowPlayer(services, req, body.csrf_token, row.client_id, row.user_id);
 * ```
 */
export function windowPlayer(services: Services, req: Request, csrfToken: string, clientId: string, userId?: string): string {
  if (!csrfMatches(req, csrfToken)) throw new SlotgateServerError("csrf_failed");
  const session = readBrowserSession(services, req, clientId);
  if (!session) throw new SlotgateServerError("wallet_session_required");
  if (userId !== undefined && session.userId !== userId) throw new SlotgateServerError("wallet_user_mismatch");
  return session.userId;
}

/**
 * The brute-force limits of the PIN endpoints ({@link pinLimits}, the same budgets) for the window's posts that
 * derive a key: one budget per IP before anything runs, then, once the player is known, one per account and
 * a bound on the account's derivations in flight ({@link WindowLimits.forPlayer}).
 */
export interface WindowLimits {
  /** Per-IP middleware, first in the route. */
  perIp: RequestHandler;
  /** Runs the per-account limit and the derivation bound for `userId`. */
  forPlayer(req: Request, res: Response, userId: string): Promise<void>;
}

/**
 * The window's {@link WindowLimits}, with the PIN endpoints' settings.
 *
 * @example
 * ```ts
 * const limits = windowLimits(services);
 * router.post(path, limits.perIp, jsonBody, async (req, res) => { await limits.forPlayer(req, res, userId); … });
 * ```
 */
export function windowLimits(services: Services): WindowLimits {
  const { perIp, perAccount, inFlight } = pinLimits(services);
  return {
    perIp,
    async forPlayer(req, res, userId) {
      res.locals["account"] = userId;
      await runGuards([perAccount, inFlight], req, res);
    },
  };
}
