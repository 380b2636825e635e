import { randomBytes } from "node:crypto";
import { PATHS, redirectUriAllowed, type WalletResultData, walletResultPayload } from "@slotgate/protocol";
import { ENDPOINTS, fillPath, routePath } from "@slotgate/protocol/endpoints";
import { type Request, type Response, Router } from "express";
import type { Services } from "../platform/app/services.js";
import { chainOf } from "../chain-api/chain/chain-of.js";
import { loadPageScript, servePageScript } from "../developer/page-script.js";
import { readBrowserSession } from "../oauth/authorize/browser-session.js";
import { issueCsrfToken } from "../oauth/authorize/csrf.js";
import { withQuery } from "../oauth/authorize/params.js";
import { clientPageBrand } from "../oauth/clients/client-brand.js";
import { findEndUserById } from "../identity/users/end-users-store.js";
import type { ClientRow } from "../oauth/clients/clients-store.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { sendHtml } from "../platform/http/html.js";
import { jsonBody, parseInput } from "../platform/http/input.js";
import { negotiateLocale, type Translator, translator } from "../platform/i18n/translator.js";
import { approveConfirmation } from "./approve.js";
import { consentsFor, revokeRoute } from "./approvals.js";
import { keyActionRoutes } from "./key-actions.js";
import { type ConfirmationRow, denyConfirmation, findConfirmation, wireStatus } from "./confirmations-store.js";
import {
  type ConfirmFacts,
  renderApprovalsPage,
  renderConfirmPage,
  renderKeyPage,
  renderWalletResult,
  renderWindowNotice,
  type WindowNotice,
} from "./pages.js";
import { windowLimits, windowPlayer } from "./window-session.js";

const confirmParams = ENDPOINTS.walletConfirmPage.input.params;
const confirmQuery = ENDPOINTS.walletConfirmPage.input.query;
const actionParams = ENDPOINTS.walletActionPage.input.params;
const actionQuery = ENDPOINTS.walletActionPage.input.query;

const confirmResultQuery = ENDPOINTS.walletConfirmResult.input.query;
const actionResultQuery = ENDPOINTS.walletActionResult.input.query;

/** The page's language: `?ui_locales=`, then Accept-Language, then English. */
function trOf(req: Request): Translator {
  return translator(negotiateLocale(req.query["ui_locales"], req));
}

/** The query without `ui_locales` (it is read for the language only). */
function queryOf(req: Request): Record<string, unknown> {
  const { ui_locales: _ignored, ...rest } = req.query as Record<string, unknown>;
  return rest;
}

/** A live client (401 `invalid_client` otherwise: the confirmation outlived its client, or it was disabled). */
async function clientOf(services: Services, clientId: string): Promise<ClientRow> {
  const client = await services.clients.get(clientId);
  if (!client) throw new SlotgateServerError("invalid_client");
  return client;
}

/** The confirmation `id` (404 `confirmation_not_found`). */
async function confirmationOf(services: Services, id: string): Promise<ConfirmationRow> {
  const row = await findConfirmation(services.db, id);
  if (!row) throw new SlotgateServerError("confirmation_not_found");
  return row;
}

/** The client's sign-in, in this window (popup display), for a window that has no session of the client. */
function signInUrl(clientId: string, redirectUri: string): string {
  return withQuery(PATHS.authorize, {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    display: "popup",
    state: randomBytes(16).toString("base64url"),
  });
}

/** Where each page-started key window posts. */
const KEY_POSTS = { "pin-setup": PATHS.walletPinSetup, "pin-reset": PATHS.walletPinReset, recover: PATHS.walletRecover } as const;

/** The window's pages post to their own origin (`connect-src 'self'`) and show the client's logo from it. */
const PAGE_POLICY = { connectSelf: true, imagesSelf: true };

const NOTICE_STATUS: Record<WindowNotice, number> = { noSession: 401, otherUser: 403, closed: 409 };

/**
 * The wallet window's pages and posts (docs/decisions/wallet-window.md), on the service's origin:
 * `GET /wallet/confirm/{id}` (a backend-created confirmation), its approve and deny posts and its result
 * page; `GET /wallet/pin-setup`, `/wallet/pin-reset` and `/wallet/recover` (page-started: set up the PIN with the
 * words shown once, reset it with the words, recover with the mailbox code; their posts are `key-actions.ts`)
 * and `/wallet/approvals` (the player's purchase consents for the client's cuids, each revoked with the PIN:
 * `approvals.ts`), and their result page. The player is the browser session of the confirmation's (or the page's) client; a window
 * without one, or with another player's, shows a notice and never the confirmation.
 */
export function walletWindowRoutes(services: Services): Router {
  const router = Router();
  const secure = services.issuer.startsWith("https:");
  const limits = windowLimits(services);
  const script = loadPageScript("wallet-window", "/wallet/assets");
  router.get(script.path, servePageScript(script));

  const notice = (res: Response, tr: Translator, client: ClientRow, redirectUri: string, kind: WindowNotice) =>
    sendHtml(
      res,
      NOTICE_STATUS[kind],
      (nonce) =>
        renderWindowNotice(nonce, tr, {
          brand: clientPageBrand(client, new URL(redirectUri).origin),
          notice: kind,
          ...(kind === "noSession" ? { signInUrl: signInUrl(client.client_id, redirectUri) } : {}),
        }),
      { imagesSelf: true },
    );

  /**
   * The confirmation of a window's GET, its client and its player's language; null once a notice was sent
   * (no browser session of that client, or another player's).
   */
  const confirmationForPlayer = async (req: Request, res: Response, confirmationId: string) => {
    const tr = trOf(req);
    const row = await confirmationOf(services, confirmationId);
    const client = await clientOf(services, row.client_id);
    const session = readBrowserSession(services, req, row.client_id);
    if (!session) return void notice(res, tr, client, row.redirect_uri, "noSession");
    if (session.userId !== row.user_id) return void notice(res, tr, client, row.redirect_uri, "otherUser");
    return { tr, row, client };
  };

  router.get(routePath(ENDPOINTS.walletConfirmPage.path), async (req, res) => {
    const { confirmation_id } = parseInput(confirmParams, { ...req.params });
    const { state } = parseInput(confirmQuery, queryOf(req));
    const found = await confirmationForPlayer(req, res, confirmation_id);
    if (!found) return;
    const { tr, row, client } = found;
    if (wireStatus(row) !== "pending") return notice(res, tr, client, row.redirect_uri, "closed");
    const chain = chainOf(services);
    const request = row.params;
    const facts: ConfirmFacts = {};
    if (request.kind === "token_transfer") facts.from = (await chain.walletAddressFor(Number(row.user_id))) ?? "";
    if (request.kind === "slot_hand_over") {
      const slot = await chain.slotInfo(request.cu_id, request.meta_idx);
      facts.balance = slot.balance;
      facts.used = slot.used_balances;
      const buyer = await findEndUserById(services.db, request.to_uuid);
      if (buyer) facts.toNickname = buyer.nickname;
    }
    const csrfToken = issueCsrfToken(req, res, secure, "/wallet");
    sendHtml(
      res,
      200,
      (nonce) =>
        renderConfirmPage(nonce, tr, {
          brand: clientPageBrand(client, new URL(row.redirect_uri).origin),
          request,
          facts,
          script,
          config: {
            page: "confirm",
            userId: row.user_id,
            csrfToken,
            postUrl: fillPath(ENDPOINTS.walletConfirmApprove, { confirmation_id }),
            denyUrl: fillPath(ENDPOINTS.walletConfirmDeny, { confirmation_id }),
            resultUrl: withQuery(fillPath(ENDPOINTS.walletConfirmResult, { confirmation_id }), { state }),
          },
        }),
      PAGE_POLICY,
    );
  });

  router.post(routePath(ENDPOINTS.walletConfirmApprove.path), limits.perIp, jsonBody, async (req, res) => {
    const { confirmation_id } = parseInput(confirmParams, { ...req.params });
    const body = parseInput(ENDPOINTS.walletConfirmApprove.input.body, req.body);
    const row = await confirmationOf(services, confirmation_id);
    windowPlayer(services, req, body.csrf_token, row.client_id, row.user_id);
    await limits.forPlayer(req, res, row.user_id);
    const outcome = await approveConfirmation(services, confirmation_id, {
      pin_hash: body.pin_hash,
      pin_salt: body.pin_salt,
      key_share_user: body.key_share_user,
    });
    res.set("Cache-Control", "no-store").json({ success: true, ...outcome });
  });

  router.post(routePath(ENDPOINTS.walletConfirmDeny.path), jsonBody, async (req, res) => {
    const { confirmation_id } = parseInput(confirmParams, { ...req.params });
    const body = parseInput(ENDPOINTS.walletConfirmDeny.input.body, req.body);
    const row = await confirmationOf(services, confirmation_id);
    windowPlayer(services, req, body.csrf_token, row.client_id, row.user_id);
    if (!(await denyConfirmation(services.db, confirmation_id))) throw new SlotgateServerError("confirmation_closed");
    res.set("Cache-Control", "no-store").json({ success: true, status: "denied" });
  });

  router.get(routePath(ENDPOINTS.walletConfirmResult.path), async (req, res) => {
    const { confirmation_id } = parseInput(confirmParams, { ...req.params });
    const { state } = parseInput(confirmResultQuery, queryOf(req));
    const found = await confirmationForPlayer(req, res, confirmation_id);
    if (!found) return;
    const { tr, row, client } = found;
    const status = wireStatus(row);
    if (status === "pending" || status === "expired") return notice(res, tr, client, row.redirect_uri, "closed");
    const data: WalletResultData = {
      action: row.kind,
      status,
      confirmation_id: row.id,
      ...(row.tx_hash ? { tx_hash: row.tx_hash } : {}),
      ...(row.write_id ? { write_id: row.write_id } : {}),
      ...(row.error ? { error: row.error } : {}),
    };
    sendHtml(res, 200, (nonce) => renderWalletResult(nonce, tr, walletResultPayload(row.redirect_uri, state, data), status === "approved"));
  });

  /** The page-started window's client and redirect URI, checked as `/oauth/authorize` checks them. */
  const pageClient = async (clientId: string, redirectUri: string): Promise<ClientRow> => {
    const client = await services.clients.get(clientId);
    if (!client) throw new SlotgateServerError("invalid_client");
    if (!redirectUriAllowed(client, redirectUri)) throw new SlotgateServerError("redirect_uri_mismatch");
    return client;
  };

  router.get(routePath(ENDPOINTS.walletActionPage.path), async (req, res, next) => {
    if (!actionParams.safeParse({ ...req.params }).success) return next();
    const { action } = parseInput(actionParams, { ...req.params });
    const query = parseInput(actionQuery, queryOf(req));
    const tr = trOf(req);
    const client = await pageClient(query.client_id, query.redirect_uri);
    const session = readBrowserSession(services, req, client.client_id);
    if (!session) return notice(res, tr, client, query.redirect_uri, "noSession");
    const csrfToken = issueCsrfToken(req, res, secure, "/wallet");
    const resultBase = fillPath(ENDPOINTS.walletActionResult, { action });
    const resultUrl = withQuery(resultBase, { client_id: client.client_id, redirect_uri: query.redirect_uri, state: query.state });
    const brand = clientPageBrand(client, new URL(query.redirect_uri).origin);
    if (action === "approvals") {
      const consents = await consentsFor(services, session.userId, client.client_id);
      const config = { page: action, userId: session.userId, csrfToken, postUrl: PATHS.walletRevokePurchases, resultUrl };
      return sendHtml(res, 200, (nonce) => renderApprovalsPage(nonce, tr, { brand, script, consents, config }), PAGE_POLICY);
    }
    sendHtml(
      res,
      200,
      (nonce) =>
        renderKeyPage(nonce, tr, {
          brand,
          script,
          config: {
            page: action,
            userId: session.userId,
            csrfToken,
            postUrl: KEY_POSTS[action],
            ...(action === "recover" ? { codeUrl: PATHS.walletRecoverCode } : {}),
            resultUrl,
          },
        }),
      PAGE_POLICY,
    );
  });

  keyActionRoutes(router, services, limits);
  revokeRoute(router, services, limits);

  router.get(routePath(ENDPOINTS.walletActionResult.path), async (req, res, next) => {
    if (!actionParams.safeParse({ ...req.params }).success) return next();
    const { action } = parseInput(actionParams, { ...req.params });
    const query = parseInput(actionResultQuery, queryOf(req));
    const tr = trOf(req);
    const client = await pageClient(query.client_id, query.redirect_uri);
    const session = readBrowserSession(services, req, client.client_id);
    if (!session) return notice(res, tr, client, query.redirect_uri, "noSession");
    const data: WalletResultData = { action, status: query.outcome };
    if (query.outcome === "approved") {
      const address = await chainOf(services).walletAddressFor(Number(session.userId));
      if (address) data.address = address;
    }
    sendHtml(res, 200, (nonce) => renderWalletResult(nonce, tr, walletResultPayload(query.redirect_uri, query.state, data), query.outcome === "approved"));
  });
  return router;
}
