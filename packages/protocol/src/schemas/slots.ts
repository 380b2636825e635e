import { z } from "zod";
import type { SlotActivateRequest, SlotActivateResponse, SlotListResponse, SlotOpenRequest, SlotResponse, SlotView } from "../index.js";
import { metaIdx } from "./chain.js";
import { cuid } from "./content-token.js";
import { address, uintString } from "./primitives.js";

/** A slot as the service shows it (`SlotView`). */
export const slotViewSchema = z.object({
  cuid,
  meta_idx: metaIdx,
  slot: address,
  owner: address,
  owner_user_id: z.string().min(1).nullable(),
  tr_cnt: z.number().int().nonnegative(),
  balance: uintString,
  used_balances: uintString,
  state: z.enum(["active", "sleeping"]),
  registered: z.boolean(),
}) satisfies z.ZodType<SlotView>;

/** Body of `POST /v1/slots`. */
export const slotOpenSchema = z.strictObject({ cu_id: cuid }) satisfies z.ZodType<SlotOpenRequest>;

/** Body of `POST /v1/slots/activate`. */
export const slotActivateSchema = z.strictObject({ cu_id: cuid, meta_idx: metaIdx }) satisfies z.ZodType<SlotActivateRequest>;

/** Query of `GET /v1/slots` (other parameters are ignored). */
export const slotListQuerySchema = z.object({ cu_id: cuid });

/** Path parameters of `GET /v1/slots/:cu_id/:meta_idx` (strings in the path; `meta_idx` becomes a number). */
export const slotParamsSchema = z.strictObject({
  cu_id: cuid,
  meta_idx: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, "must be a non-negative integer")
    .transform(Number)
    .pipe(metaIdx),
});

/** Answer of `GET /v1/slots`. */
export const slotListResponseSchema = z.object({ success: z.literal(true), slots: z.array(slotViewSchema) }) satisfies z.ZodType<SlotListResponse>;

/** Answer of `POST /v1/slots` and `GET /v1/slots/:cu_id/:meta_idx`. */
export const slotResponseSchema = z.object({ success: z.literal(true), slot: slotViewSchema }) satisfies z.ZodType<SlotResponse>;

/** Answer of `POST /v1/slots/activate`. */
export const slotActivateResponseSchema = z.object({ success: z.literal(true), active: slotViewSchema }) satisfies z.ZodType<SlotActivateResponse>;
