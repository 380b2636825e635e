import type { Request } from "express";
import type { Services } from "../platform/app/services.js";
import { readBrowserSession } from "../oauth/authorize/browser-session.js";
import { csrfMatches } from "../oauth/authorize/csrf.js";
import { SlotgateServerError } from "../platform/http/errors.js";

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
