import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import type { MockContext } from "../context.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";
import { endFamilyOf } from "../refresh-tokens.js";
import { MockState } from "../state.js";

/**
 * `POST /v1/oauth/status/login`, `POST /v1/oauth/status/logout`, `GET /v1/oauth/status/check`. The
 * table's actor rules make the bearer token's user and client the ones named (403 otherwise).
 */
export function statusHandlers(ctx: MockContext) {
  const record = (userId: string, clientId: string, status: "logged_in" | "logged_out") => {
    const timestamp = new Date(ctx.now()).toISOString();
    ctx.state.statuses.set(MockState.statusKey(userId, clientId), { status, timestamp });
    return timestamp;
  };
  return [
    ...mockEndpoint(
      ctx,
      ENDPOINTS.statusLogin,
      {},
      async (body): Promise<Answer<"statusLogin">> => ({
        success: true,
        message: "Login status recorded.",
        user_id: body.user_id,
        status: "logged_in",
        timestamp: record(body.user_id, body.client_id, "logged_in"),
      }),
    ),
    ...mockEndpoint(ctx, ENDPOINTS.statusLogout, {}, async (body, { claims }): Promise<Answer<"statusLogout">> => {
      const timestamp = record(body.user_id, body.client_id, "logged_out");
      endFamilyOf(ctx, claims!.jti, false);
      return {
        success: true,
        message: "Logout status recorded; rights may be listed for transfer.",
        user_id: body.user_id,
        status: "logged_out",
        transfer_enabled: !ctx.faults.logoutKeepsTransferDisabled,
        timestamp,
      };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.statusCheck, {}, async (query): Promise<Answer<"statusCheck">> => {
      const known = ctx.state.statuses.get(MockState.statusKey(query.user_id, query.client_id));
      const status = known?.status ?? "logged_out";
      return {
        success: true,
        user_id: query.user_id,
        client_id: query.client_id,
        status,
        transfer_enabled: status === "logged_out",
        timestamp: known?.timestamp ?? null,
      };
    }),
  ];
}
