import { ERRORS, type ErrorCode, type WalletResultData, walletResultPayload } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import {
  walletActionPageQuerySchema,
  walletActionParamsSchema,
  walletConfirmationParamsSchema,
  walletConfirmPageQuerySchema,
} from "@slotgate/protocol/schemas";
import { http } from "msw";
import { requireClient, requireRegisteredRedirectUri } from "../clients.js";
import { type MockContext, endpointUrl } from "../context.js";
import { queryRecord, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";
import { errorResponse } from "../http/respond.js";
import { errorPage } from "../html/authorize-page.js";
import { html } from "../html/escape.js";
import { resultPage } from "../html/popup-result.js";
import { randomBase64url, randomTxHash } from "../random.js";
import type { WalletConfirmationRecord } from "../state.js";

/**
 * How the simulated player answers the next wallet window: approve, deny, or a failure of the service.
 *
 * @example
 * ```ts
 * const mock = createMockService({ walletDecision: "deny" }); // every window denied unless queued otherwise
 * mock.wallet.nextDecision("approve");
 * ```
 */
export type WalletDecision = "approve" | "deny" | "fail";

/** The error a simulated `fail` decision reports (the chain did not answer). */
const FAILURE: ErrorCode = "chain_unavailable";

/** A confirmation waits 10 minutes for the player (the server's `CONFIRMATION_LIFETIME_SECONDS`). */
const LIFETIME_MS = 600_000;

/** The confirmation's state on the wire: a pending one past `expires_at` is `expired`. */
function wireStatus(ctx: MockContext, record: WalletConfirmationRecord) {
  return record.status === "pending" && record.expires_at <= ctx.now() ? "expired" : record.status;
}

/** The next decision of the simulated player: the queued one (`mock.wallet.nextDecision`), else the option's. */
function decide(ctx: MockContext): WalletDecision {
  return ctx.walletDecisions.shift() ?? ctx.walletDecision;
}

/** An HTML error page with the status of the error's JSON answer. */
function errorHtml(error: unknown): Response {
  const httpError = error instanceof HttpError ? error : new HttpError("internal_error");
  return html(errorPage(httpError.code), errorResponse(httpError).status);
}

function failure(code: ErrorCode): { code: string; message: string } {
  return { code, message: ERRORS[code].message };
}

/** True when `cuid` was registered by `client` or by another client of the same developer (the server's rule). */
function ownsCuid(ctx: MockContext, client: { client_id: string; owner_uuid: string }, cuid: string): boolean {
  const registrant = ctx.state.providers.get(cuid)?.client_id;
  if (registrant === undefined) return false;
  return registrant === client.client_id || ctx.state.clients.get(registrant)?.owner_uuid === client.owner_uuid;
}

/**
 * The wallet window of the simulated service (issue 31):
 *
 * - `POST /v1/wallet/confirmations` and `GET /v1/wallet/confirmations/{confirmation_id}` (HTTP Basic), with the
 *   server's checks in its order after the table's preamble: a registered redirect URI (401
 *   `redirect_uri_mismatch`), a cuid of the client's developer account (registered by the client or another
 *   client of its developer) for `approve_purchases` and `slot_hand_over` (403 `cuid_not_owned`), a player who has a wallet (404 `wallet_not_found`: in the simulation every end user has
 *   one); another client's confirmation is 404 `confirmation_not_found`.
 * - The window, simulated: `GET /wallet/confirm/{id}?state=` and `GET /wallet/{action}?client_id&redirect_uri&state`
 *   answer at once the window's last page, whose script posts the `wallet_result` to the opener at the redirect
 *   URI's origin (and on `BroadcastChannel("slotgate_wallet")`, or in the redirect URI's fragment when COOP
 *   severed the opener): the protocol's payload and script, as the server's result page. The simulated player
 *   decides as `mock.wallet.nextDecision()` queued, else as the `walletDecision` option. There is no PIN, no key
 *   share and no browser session in the simulation: the window signs nothing; an approved confirmation gets a
 *   random `tx_hash` and moves nothing.
 */
export function walletWindowHandlers(ctx: MockContext) {
  const confirmations = ctx.state.walletConfirmations;
  return [
    ...mockEndpoint(ctx, ENDPOINTS.createWalletConfirmation, {}, async (input, { client }): Promise<Answer<"createWalletConfirmation">> => {
      requireRegisteredRedirectUri(ctx, client!, input.redirect_uri);
      const { request } = input;
      const cuid = request.kind === "approve_purchases" ? request.cuid : request.kind === "slot_hand_over" ? request.cu_id : null;
      if (cuid !== null && !ownsCuid(ctx, client!, cuid) && !ctx.faults.walletAnyClient) throw new HttpError("cuid_not_owned");
      const userId = String(input.user_uuid);
      if (!ctx.state.endUsers.has(userId)) throw new HttpError("wallet_not_found");
      const record: WalletConfirmationRecord = {
        id: randomBase64url(32),
        client_id: client!.client_id,
        user_id: userId,
        request,
        redirect_uri: input.redirect_uri,
        status: "pending",
        tx_hash: null,
        write_id: null,
        expires_at: ctx.now() + LIFETIME_MS,
      };
      confirmations.set(record.id, record);
      return {
        success: true,
        id: record.id,
        kind: request.kind,
        status: "pending",
        expires_at: Math.floor(record.expires_at / 1000),
        window_url: `${ctx.baseUrl}/wallet/confirm/${record.id}`,
      };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.getWalletConfirmation, {}, async ({ confirmation_id }, { client }): Promise<Answer<"getWalletConfirmation">> => {
      const record = confirmations.get(confirmation_id);
      if (!record || (record.client_id !== client!.client_id && !ctx.faults.walletAnyClient)) throw new HttpError("confirmation_not_found");
      return {
        success: true,
        id: record.id,
        kind: record.request.kind,
        status: wireStatus(ctx, record),
        tx_hash: record.tx_hash,
        write_id: record.write_id,
        ...(record.error ? { error: record.error } : {}),
      };
    }),
    http.get(endpointUrl(ctx, ENDPOINTS.walletConfirmPage), async ({ request, params }) => {
      await ctx.ready();
      let record: WalletConfirmationRecord;
      let state: string;
      try {
        const { confirmation_id } = validate(walletConfirmationParamsSchema, { ...params });
        state = validate(walletConfirmPageQuerySchema, queryRecord(new URL(request.url))).state;
        const found = confirmations.get(confirmation_id);
        if (!found) throw new HttpError("confirmation_not_found");
        record = found;
      } catch (error) {
        return errorHtml(error);
      }
      const data: WalletResultData = { action: record.request.kind, status: "failed", confirmation_id: record.id };
      if (wireStatus(ctx, record) !== "pending") {
        data.error = failure("confirmation_closed");
      } else {
        const decision = decide(ctx);
        if (decision === "approve") {
          record.status = "approved";
          record.tx_hash = randomTxHash();
          data.status = "approved";
          data.tx_hash = record.tx_hash;
        } else if (decision === "deny") {
          record.status = data.status = "denied";
        } else {
          record.status = "failed";
          record.error = data.error = failure(FAILURE);
        }
      }
      return html(resultPage("Slotgate — wallet", walletResultPayload(record.redirect_uri, state, data)));
    }),
    http.get(endpointUrl(ctx, ENDPOINTS.walletActionPage), async ({ request, params }) => {
      await ctx.ready();
      let action: WalletResultData["action"];
      let query: { client_id: string; redirect_uri: string; state: string };
      try {
        action = validate(walletActionParamsSchema, { ...params }).action;
        query = validate(walletActionPageQuerySchema, queryRecord(new URL(request.url)));
        const client = requireClient(ctx, query.client_id);
        requireRegisteredRedirectUri(ctx, client, query.redirect_uri);
      } catch (error) {
        return errorHtml(error);
      }
      const decision = decide(ctx);
      const data: WalletResultData = { action, status: decision === "approve" ? "approved" : decision === "deny" ? "denied" : "failed" };
      // The simulation has no browser session: the page-started window serves the seeded end user.
      if (decision === "approve" && action !== "approvals") data.address = ctx.state.userWalletOf(ctx.fixtures.endUser.user_id);
      if (decision === "fail") data.error = failure(FAILURE);
      return html(resultPage("Slotgate — wallet", walletResultPayload(query.redirect_uri, query.state, data)));
    }),
  ];
}
