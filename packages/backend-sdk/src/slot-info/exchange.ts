import { PATHS, type SlotInfo } from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";
import { buildUrl, requestJson } from "../http/request.js";
import type { FetchLike } from "../options.js";

/** What the authorize and get_token calls need. */
export interface ExchangeContext {
  fetch: FetchLike;
  authServerUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Step 1 (spec 4.4): `GET /v1/oauth-meta/authorize` with the user JWT as bearer. */
export async function callAuthorize(ctx: ExchangeContext, jwt: string, state: string, signal: AbortSignal): Promise<void> {
  const url = buildUrl(ctx.authServerUrl, PATHS.metaAuthorize, {
    client_id: ctx.clientId,
    redirect_uri: ctx.redirectUri,
    state,
  });
  const out = await requestJson(ctx.fetch, url, { method: "GET", headers: { authorization: `Bearer ${jwt}` }, signal });
  switch (out.kind) {
    case "ok":
      return;
    case "aborted":
      throw out.cause;
    case "network":
      throw new SlotgateBackendError("authorize_error", { detail: "the service could not be reached", cause: out.cause });
    case "invalid":
      throw new SlotgateBackendError("authorize_error", {
        detail: "the service answered something other than JSON",
        serviceStatus: out.status,
      });
    case "error":
      throw new SlotgateBackendError("authorize_error", {
        detail: `${out.error ?? "error"} (HTTP ${out.status})${out.message ? ` ${out.message}` : ""}`,
        ...(out.error === undefined ? {} : { error: out.error }),
        serviceStatus: out.status,
      });
  }
}

function isSlotInfo(body: Record<string, unknown>): boolean {
  return (
    typeof body.id === "string" &&
    typeof body.access_token === "string" &&
    typeof body.content_address === "string" &&
    typeof body.token_nickname === "string" &&
    typeof body.tr_cnt === "number" &&
    typeof body.code === "string"
  );
}

/** Step 3 (spec 4.4): `POST /v1/oauth-meta/get_token` exchanges the code for slot info (spec 2.3). */
export async function exchangeCode(ctx: ExchangeContext, code: string, signal: AbortSignal): Promise<SlotInfo> {
  const out = await requestJson(ctx.fetch, buildUrl(ctx.authServerUrl, PATHS.metaGetToken), {
    method: "POST",
    json: { client_id: ctx.clientId, client_secret: ctx.clientSecret, code, redirect_uri: ctx.redirectUri },
    signal,
  });
  switch (out.kind) {
    case "ok": {
      const b = out.body;
      if (!isSlotInfo(b)) {
        throw new SlotgateBackendError("token_exchange_error", {
          detail: "the answer lacks a slot info field",
          serviceStatus: out.status,
        });
      }
      return {
        id: b.id as string,
        access_token: b.access_token as string,
        content_address: b.content_address as string,
        token_nickname: b.token_nickname as string,
        tr_cnt: b.tr_cnt as number,
        code: b.code as string,
        // The slot of the client's cuid that backs this login (a client that registered a cuid).
        ...(typeof b.cu_id === "string" && typeof b.meta_idx === "number" ? { cu_id: b.cu_id, meta_idx: b.meta_idx } : {}),
        ...(typeof b.refresh_token === "string" ? { refresh_token: b.refresh_token } : {}),
      };
    }
    case "aborted":
      throw out.cause;
    case "network":
      throw new SlotgateBackendError("token_exchange_error", { detail: "the service could not be reached", cause: out.cause });
    case "invalid":
      throw new SlotgateBackendError("token_exchange_error", {
        detail: "the service answered something other than JSON",
        serviceStatus: out.status,
      });
    case "error":
      throw new SlotgateBackendError("token_exchange_error", {
        detail: `${out.error ?? "error"} (HTTP ${out.status})${out.message ? ` ${out.message}` : ""}`,
        ...(out.error === undefined ? {} : { error: out.error }),
        serviceStatus: out.status,
      });
  }
}
