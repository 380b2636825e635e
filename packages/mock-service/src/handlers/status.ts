import type { StatusCheckResponse, StatusLoginResponse, StatusLogoutResponse } from "@slotgate/protocol";
import { statusCheckQuerySchema, statusUpdateSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { type MockContext, urlOf } from "../context.js";
import { queryRecord, readJson, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import type { VerifiedToken } from "../jwt.js";
import { MockState } from "../state.js";
import { endFamilyOf } from "../refresh-tokens.js";
import { authenticateUser } from "../tokens.js";

function requireOwnToken(ctx: MockContext, claims: VerifiedToken, userId: string, clientId: string): void {
  if (ctx.faults.skipTokenUserCheck) return;
  if (claims.sub !== userId || claims.client_id !== clientId) throw new HttpError("token_user_mismatch");
}

/** `POST /v1/oauth/status/login`, `POST /v1/oauth/status/logout`, `GET /v1/oauth/status/check`. */
export function statusHandlers(ctx: MockContext) {
  const update = (status: "logged_in" | "logged_out") =>
    http.post(urlOf(ctx, status === "logged_in" ? "/v1/oauth/status/login" : "/v1/oauth/status/logout"), ({ request }) =>
      guard(async () => {
        const claims = await authenticateUser(ctx, request);
        const body = await readJson(request, statusUpdateSchema, ctx.bodyLimit);
        requireOwnToken(ctx, claims, body.user_id, body.client_id);
        const timestamp = new Date(ctx.now()).toISOString();
        ctx.state.statuses.set(MockState.statusKey(body.user_id, body.client_id), { status, timestamp });
        if (status === "logged_out") endFamilyOf(ctx, claims.jti, false);
        if (status === "logged_in") {
          const answer: StatusLoginResponse = {
            success: true,
            message: "Login status recorded.",
            user_id: body.user_id,
            status: "logged_in",
            timestamp,
          };
          return json(answer);
        }
        const answer: StatusLogoutResponse = {
          success: true,
          message: "Logout status recorded; rights may be listed for transfer.",
          user_id: body.user_id,
          status: "logged_out",
          transfer_enabled: !ctx.faults.logoutKeepsTransferDisabled,
          timestamp,
        };
        return json(answer);
      }),
    );
  return [
    update("logged_in"),
    update("logged_out"),
    http.get(urlOf(ctx, "/v1/oauth/status/check"), ({ request }) =>
      guard(async () => {
        const claims = await authenticateUser(ctx, request);
        const query = validate(statusCheckQuerySchema, queryRecord(new URL(request.url)));
        requireOwnToken(ctx, claims, query.user_id, query.client_id);
        const record = ctx.state.statuses.get(MockState.statusKey(query.user_id, query.client_id));
        const status = record?.status ?? "logged_out";
        const answer: StatusCheckResponse = {
          success: true,
          user_id: query.user_id,
          client_id: query.client_id,
          status,
          transfer_enabled: status === "logged_out",
          timestamp: record?.timestamp ?? null,
        };
        return json(answer);
      }),
    ),
  ];
}
