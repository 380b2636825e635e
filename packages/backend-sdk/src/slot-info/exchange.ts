import type { SlotInfo } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { type ApiContext, type CallAnswer, callEndpoint } from "../api/call-endpoint.js";
import { type BackendErrorCode, SlotgateBackendError } from "../errors.js";
import type { HttpOutcome } from "../http/request.js";

/** What the authorize and get_token calls need. */
export interface ExchangeContext {
  api: ApiContext;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/**
 * The failure of a step of the slot-info flow as that step's error (`authorize_error`,
 * `token_exchange_error`), with the service's code and status when it answered one.
 */
function stepFailure(code: BackendErrorCode, invalidAnswer: string) {
  return (out: Exclude<HttpOutcome, { kind: "ok" }>): SlotgateBackendError => {
    switch (out.kind) {
      case "aborted":
        return new SlotgateBackendError("aborted", { cause: out.cause });
      case "network":
        return new SlotgateBackendError(code, { detail: "the service could not be reached", cause: out.cause });
      case "invalid":
        return new SlotgateBackendError(code, {
          detail: out.detail === undefined ? "the service answered something other than JSON" : invalidAnswer,
          serviceStatus: out.status,
        });
      case "error":
        return new SlotgateBackendError(code, {
          detail: `${out.error ?? "error"} (HTTP ${out.status})${out.message ? ` ${out.message}` : ""}`,
          ...(out.error === undefined ? {} : { error: out.error }),
          serviceStatus: out.status,
        });
    }
  };
}

/** Step 1 (spec 4.4): `GET /v1/oauth-meta/authorize` with the user JWT as bearer. */
export async function callAuthorize(ctx: ExchangeContext, jwt: string, state: string, signal: AbortSignal): Promise<void> {
  const query = { client_id: ctx.clientId, redirect_uri: ctx.redirectUri, state };
  await callEndpoint(
    ctx.api,
    ENDPOINTS.metaAuthorize,
    query,
    { bearer: jwt },
    { signal },
    stepFailure("authorize_error", "the answer is not the documented acceptance"),
  );
}

/** Step 3 (spec 4.4): `POST /v1/oauth-meta/get_token` exchanges the code for slot info (spec 2.3). */
export async function exchangeCode(ctx: ExchangeContext, code: string, signal: AbortSignal): Promise<SlotInfo> {
  const input = { client_id: ctx.clientId, client_secret: ctx.clientSecret, code, redirect_uri: ctx.redirectUri };
  const fail = stepFailure("token_exchange_error", "the answer lacks a slot info field");
  let b: CallAnswer<typeof ENDPOINTS.metaGetToken>;
  try {
    b = await callEndpoint(ctx.api, ENDPOINTS.metaGetToken, input, null, { signal }, fail);
  } catch (error) {
    // The code came with the callback, not from the caller: a code no request can carry is the service's fault.
    if (error instanceof SlotgateBackendError && error.code === "invalid_argument")
      throw new SlotgateBackendError("token_exchange_error", { detail: "the callback's code is not a code" });
    throw error;
  }
  return {
    id: b.id,
    access_token: b.access_token,
    content_address: b.content_address,
    token_nickname: b.token_nickname,
    tr_cnt: b.tr_cnt,
    code: b.code,
    // The slot of the client's cuid that backs this login (a client that registered a cuid).
    ...(b.cu_id !== undefined && b.meta_idx !== undefined ? { cu_id: b.cu_id, meta_idx: b.meta_idx } : {}),
    ...(b.refresh_token === undefined ? {} : { refresh_token: b.refresh_token }),
  };
}
