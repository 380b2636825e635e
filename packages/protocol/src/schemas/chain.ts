import { z } from "zod";
import type {
  ExchangeTokenOwnerRequest,
  PinRecoverRequest,
  PinRecoverWithCodeRequest,
  PinRegisterRequest,
  PinOperation,
  PinResetRequest,
  PinVerifyRequest,
  TokenTransferRequest,
} from "../index.js";
import { cuid } from "./content-token.js";
import { address, keyShare, oneTimeCode, pinSalt, positiveUintString, recoveryId, sha256Hex, text, userIdString, userUuid, writeId } from "./primitives.js";

/** Body of `POST /v1/token/transfer`. */
export const tokenTransferSchema = z.strictObject({
  from_address: address,
  to_address: address,
  amount: positiveUintString,
  contract_address: address,
  pin_hash: sha256Hex,
  key_share_user: keyShare,
}) satisfies z.ZodType<TokenTransferRequest>;

/** A slot number (`meta_idx`). */
export const metaIdx = z.number().int("must be an integer").nonnegative("must be zero or more").max(Number.MAX_SAFE_INTEGER);

/** Body of `POST /idex-platform/exchange_token_owner`: the spec's fields plus the owner's PIN shares. */
export const exchangeTokenOwnerSchema = z.strictObject({
  state: text(512),
  cu_id: cuid,
  from_uuid: userIdString,
  to_uuid: userIdString,
  meta_idx: metaIdx,
  pin_hash: sha256Hex,
  pin_salt: pinSalt.optional(),
  key_share_user: keyShare,
}) satisfies z.ZodType<ExchangeTokenOwnerRequest>;

/** Twelve lowercase words separated by single spaces. */
export const mnemonic = z
  .string()
  .max(256)
  .regex(/^[a-z]+( [a-z]+){11}$/, "must be 12 lowercase words separated by single spaces");

/** Body of `POST /v1/pin/register`. */
export const pinRegisterSchema = z.strictObject({
  user_uuid: userUuid,
  pin_hash: sha256Hex,
  pin_salt: pinSalt,
}) satisfies z.ZodType<PinRegisterRequest>;

/** What `POST /v1/pin/verify` may sign besides the check (see `PinOperation`). */
export const pinOperationSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("verify_only") }),
  z.strictObject({ kind: z.literal("approve_purchases"), cuid, amount: positiveUintString }),
  z.strictObject({ kind: z.literal("buy_content_token"), cuid, amount: positiveUintString }),
  z.strictObject({ kind: z.literal("revoke_purchases"), cuid }),
]) satisfies z.ZodType<PinOperation>;

/** Body of `POST /v1/pin/verify`. */
export const pinVerifySchema = z.strictObject({
  user_uuid: userUuid,
  pin_hash: sha256Hex,
  pin_salt: pinSalt,
  key_share_user: keyShare,
  operation: pinOperationSchema.optional(),
}) satisfies z.ZodType<PinVerifyRequest>;

/** Body of `POST /v1/pin/reset`. */
export const pinResetSchema = z.strictObject({
  user_uuid: userUuid,
  mnemonic,
  new_pin_hash: sha256Hex,
  new_pin_salt: pinSalt,
}) satisfies z.ZodType<PinResetRequest>;

/** Body of `POST /v1/pin/recover`. */
export const pinRecoverSchema = z.strictObject({
  user_uuid: userUuid,
  pin_hash: sha256Hex,
  pin_salt: pinSalt,
}) satisfies z.ZodType<PinRecoverRequest>;

/** Body of `POST /v1/pin/recover/code` (the recovery the mailed code will be bound to). */
export const pinRecoverCodeSchema = pinRecoverSchema;

/** Body of `POST /v1/pin/recover`: the recovery plus the mailbox proof. */
export const pinRecoverWithCodeSchema = pinRecoverSchema.extend({
  recovery_id: recoveryId,
  code: oneTimeCode,
}) satisfies z.ZodType<PinRecoverWithCodeRequest>;

/**
 * Body the server accepts at `POST /v1/pin/recover`: the recovery with the mailbox proof optional, so
 * that a request without it is answered 403 `identity_not_verified` (naming the code request) rather than 400.
 */
export const pinRecoverAttemptSchema = pinRecoverWithCodeSchema.partial({ recovery_id: true, code: true });

/** Path parameter of `GET /v1/chain/writes/{write_id}`. */
export const chainWriteParamsSchema = z.strictObject({ write_id: writeId });

/** Body of an action endpoint that takes no fields (rotate, disable, enable, retry): nothing, or `{}`. */
export const emptyBodySchema = z.strictObject({});
