import { PATHS, type ExchangeTokenOwnerResponse, type SlotActivateResponse, type SlotListResponse, type SlotResponse } from "@slotgate/protocol";
import { exchangeTokenOwnerSchema, slotActivateSchema, slotListQuerySchema, slotOpenSchema, slotParamsSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { type MockContext, urlOf } from "../context.js";
import { readJson, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { idempotent } from "../http/idempotency.js";
import { guard, json } from "../http/respond.js";
import { randomTxHash } from "../random.js";
import { activate, assertLoggedOut, findSlot, moveSlot, openSlot, slotView, slotsOf } from "../slots.js";
import { authenticateUser } from "../tokens.js";

const NO_STORE = { "Cache-Control": "no-store" };
const CORS_ANY = { "Access-Control-Allow-Origin": "*" };

/** The `cu_id` query parameter, given at most once (400 otherwise, as the server's `singleValued`). */
function listQuery(url: URL): Record<string, string> {
  const values = url.searchParams.getAll("cu_id");
  if (values.length > 1) {
    throw new HttpError("invalid_request", {
      message: "Invalid request: cu_id must be given once, as a string",
      details: [{ path: "cu_id", message: "must be given once, as a string" }],
    });
  }
  return values.length === 1 ? { cu_id: values[0]! } : {};
}

/**
 * The slot endpoints (`GET`/`POST /v1/slots`, `POST /v1/slots/activate`, public `GET
 * /v1/slots/:cu_id/:meta_idx`) and `POST /idex-platform/exchange_token_owner`, over the simulated slot
 * model (`../slots.ts`). Check order as on the server: bearer (401), input (400), actor (403), the listing
 * lock (409 `logout_required`), then the slot's own refusals.
 */
export function slotHandlers(ctx: MockContext) {
  return [
    http.get(urlOf(ctx, PATHS.slots), ({ request }) =>
      guard(async () => {
        const claims = await authenticateUser(ctx, request);
        const query = validate(slotListQuerySchema, listQuery(new URL(request.url)));
        const answer: SlotListResponse = { success: true, slots: slotsOf(ctx, claims.sub, query.cu_id).map((slot) => slotView(ctx, slot)) };
        return json(answer, 200, NO_STORE);
      }),
    ),
    http.post(urlOf(ctx, PATHS.slots), ({ request }) =>
      guard(async () => {
        const claims = await authenticateUser(ctx, request);
        const body = await readJson(request, slotOpenSchema, ctx.bodyLimit);
        const answer: SlotResponse = { success: true, slot: slotView(ctx, openSlot(ctx, claims.sub, body.cu_id)) };
        return json(answer, 201, NO_STORE);
      }),
    ),
    http.post(urlOf(ctx, PATHS.slotActivate), ({ request }) =>
      guard(async () => {
        const claims = await authenticateUser(ctx, request);
        const body = await readJson(request, slotActivateSchema, ctx.bodyLimit);
        assertLoggedOut(ctx, claims.sub, body.cu_id);
        const answer: SlotActivateResponse = { success: true, active: slotView(ctx, activate(ctx, claims.sub, body.cu_id, body.meta_idx)) };
        return json(answer, 200, NO_STORE);
      }),
    ),
    http.options(urlOf(ctx, PATHS.slot), () =>
      new Response(null, { status: 204, headers: { ...CORS_ANY, "Access-Control-Allow-Methods": "GET, OPTIONS", "Access-Control-Max-Age": "600" } }),
    ),
    http.get(urlOf(ctx, PATHS.slot), ({ params }) =>
      guard(
        async () => {
          await ctx.ready();
          const input = validate(slotParamsSchema, { cu_id: params["cu_id"], meta_idx: params["meta_idx"] });
          const slot = findSlot(ctx, input.cu_id, input.meta_idx);
          if (!slot) throw new HttpError("slot_not_found", { message: `No slot ${input.meta_idx} of cuid ${input.cu_id} was opened.` });
          const answer: SlotResponse = { success: true, slot: slotView(ctx, slot) };
          return json(answer, 200, { ...NO_STORE, ...CORS_ANY });
        },
        { headers: CORS_ANY },
      ),
    ),
    http.post(urlOf(ctx, PATHS.exchangeTokenOwner), ({ request }) =>
      guard(async () => {
        const claims = await authenticateUser(ctx, request);
        const body = await readJson(request, exchangeTokenOwnerSchema, ctx.bodyLimit);
        if (claims.sub !== body.from_uuid) throw new HttpError("token_user_mismatch", { message: "The bearer token does not belong to this user." });
        // The listing lock. The sale settles within this request, so no transfer hold outlives it.
        assertLoggedOut(ctx, body.from_uuid, body.cu_id);
        return idempotent(ctx, request, `user:${claims.sub}`, body, async () => {
          if (body.to_uuid === body.from_uuid) {
            throw new HttpError("invalid_request", { message: "Invalid request: to_uuid must differ from from_uuid.", details: [{ path: "to_uuid", message: "must differ from from_uuid" }] });
          }
          const stateKey = `${body.from_uuid}|${body.state}`;
          if (ctx.state.exchangeStates.has(stateKey)) {
            throw new HttpError("replayed_message", { message: "This state token was already used for a slot exchange; send a new one." });
          }
          if (!ctx.state.endUsers.has(body.to_uuid)) throw new HttpError("wallet_not_found", { message: "The new owner has no wallet; they must register a PIN first." });
          const slot = findSlot(ctx, body.cu_id, body.meta_idx);
          if (!slot) throw new HttpError("slot_not_found", { message: `No slot ${body.meta_idx} of cuid ${body.cu_id} was opened.` });
          if (slot.user_id !== body.from_uuid) throw new HttpError("not_owner", { message: "from_uuid does not own this slot." });
          // The simulation keeps no PINs: pin_hash and key_share_user are checked for shape only.
          ctx.state.exchangeStates.add(stateKey);
          moveSlot(ctx, slot, body.to_uuid);
          const answer: ExchangeTokenOwnerResponse = {
            success: true,
            tx_hash: randomTxHash(),
            meta_idx: slot.meta_idx,
            new_owner: ctx.state.userWalletOf(body.to_uuid),
            tr_cnt: slot.tr_cnt,
          };
          return json(answer, 200, NO_STORE);
        });
      }),
    ),
  ];
}
