import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import type { MockContext } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";
import { randomTxHash } from "../random.js";
import { activate, assertLoggedOut, findSlot, moveSlot, openSlot, slotView, slotsOf } from "../slots.js";

/**
 * The slot endpoints (`GET`/`POST /v1/slots`, `POST /v1/slots/activate`, public `GET
 * /v1/slots/:cu_id/:meta_idx`) and `POST /idex-platform/exchange_token_owner`, over the simulated slot
 * model (`../slots.ts`). After the table's preamble (bearer 401, input 400, actor 403): the listing lock
 * (409 `logout_required`), then the slot's own refusals.
 */
export function slotHandlers(ctx: MockContext) {
  return [
    ...mockEndpoint(
      ctx,
      ENDPOINTS.listSlots,
      {},
      async (input, { claims }): Promise<Answer<"listSlots">> => ({
        success: true,
        slots: slotsOf(ctx, claims!.sub, input.cu_id).map((slot) => slotView(ctx, slot)),
      }),
    ),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.openSlot,
      {},
      async (input, { claims }): Promise<Answer<"openSlot">> => ({ success: true, slot: slotView(ctx, openSlot(ctx, claims!.sub, input.cu_id)) }),
    ),
    ...mockEndpoint(ctx, ENDPOINTS.activateSlot, {}, async (input, { claims }): Promise<Answer<"activateSlot">> => {
      assertLoggedOut(ctx, claims!.sub, input.cu_id);
      return { success: true, active: slotView(ctx, activate(ctx, claims!.sub, input.cu_id, input.meta_idx)) };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.slot, {}, async (input): Promise<Answer<"slot">> => {
      const slot = findSlot(ctx, input.cu_id, input.meta_idx);
      if (!slot) throw new HttpError("slot_not_found", { message: `No slot ${input.meta_idx} of cuid ${input.cu_id} was opened.` });
      return { success: true, slot: slotView(ctx, slot) };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.exchangeTokenOwner, {}, async (input, caller): Promise<Answer<"exchangeTokenOwner">> => {
      // The listing lock. The sale settles within this request, so no transfer hold outlives it.
      assertLoggedOut(ctx, input.from_uuid, input.cu_id);
      return caller.once(async () => {
        if (input.to_uuid === input.from_uuid) {
          throw new HttpError("invalid_request", {
            message: "Invalid request: to_uuid must differ from from_uuid.",
            details: [{ path: "to_uuid", message: "must differ from from_uuid" }],
          });
        }
        const stateKey = `${input.from_uuid}|${input.state}`;
        if (ctx.state.exchangeStates.has(stateKey))
          throw new HttpError("replayed_message", { message: "This state token was already used for a slot exchange; send a new one." });
        if (!ctx.state.endUsers.has(input.to_uuid))
          throw new HttpError("wallet_not_found", { message: "The new owner has no wallet; they must register a PIN first." });
        const slot = findSlot(ctx, input.cu_id, input.meta_idx);
        if (!slot) throw new HttpError("slot_not_found", { message: `No slot ${input.meta_idx} of cuid ${input.cu_id} was opened.` });
        if (slot.user_id !== input.from_uuid) throw new HttpError("not_owner", { message: "from_uuid does not own this slot." });
        // The simulation keeps no PINs: pin_hash and key_share_user are checked for shape only.
        ctx.state.exchangeStates.add(stateKey);
        moveSlot(ctx, slot, input.to_uuid);
        return {
          success: true as const,
          tx_hash: randomTxHash(),
          meta_idx: slot.meta_idx,
          new_owner: ctx.state.userWalletOf(input.to_uuid),
          tr_cnt: slot.tr_cnt,
        };
      });
    }),
  ];
}
