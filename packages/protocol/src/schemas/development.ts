import { z } from "zod";
import { metaIdx } from "./chain.js";
import { cuid } from "./content-token.js";
import { positiveUintString, text, userIdString } from "./primitives.js";

/** Body of `POST /v1/dev/fund_slot` (development chain only): XOTN for a user's slot and its purchase consent for `cuid`. */
export const devFundSlotSchema = z.strictObject({ client_id: text(128), user_id: userIdString, xotn: positiveUintString, cuid });

/** Body of `POST /v1/dev/enable_release` (development chain only). */
export const devEnableReleaseSchema = z.strictObject({ client_id: text(128).optional(), cuid, enabled: z.boolean().optional() });

/** Body of `POST /v1/dev/register_slot` (development chain only): records a user's wallet as a slot's owner. */
export const devRegisterSlotSchema = z.strictObject({ client_id: text(128), cuid, meta_idx: metaIdx, user_id: userIdString });
