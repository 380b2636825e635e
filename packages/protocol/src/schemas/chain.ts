import { z } from "zod";
import type {
  ExchangeTokenOwnerRequest,
  PinRecoverRequest,
  PinRegisterRequest,
  PinResetRequest,
  PinVerifyRequest,
  TokenTransferRequest,
} from "../index.js";
import { cuid } from "./content-token.js";
import { address, keyShare, pinSalt, positiveUintString, sha256Hex, text, userUuid } from "./primitives.js";

/** Body of `POST /v1/token/transfer`. */
export const tokenTransferSchema = z.strictObject({
  from_address: address,
  to_address: address,
  amount: positiveUintString,
  contract_address: address,
  pin_hash: sha256Hex,
  key_share_user: keyShare,
}) satisfies z.ZodType<TokenTransferRequest>;

/** Body of `POST /idex-platform/exchange_token_owner`. */
export const exchangeTokenOwnerSchema = z.strictObject({
  state: text(512),
  cu_id: cuid,
  from_uuid: text(128),
  to_uuid: text(128),
  meta_idx: z.number().int("must be an integer").nonnegative("must be zero or more").max(Number.MAX_SAFE_INTEGER),
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

/** Body of `POST /v1/pin/verify`. */
export const pinVerifySchema = z.strictObject({
  user_uuid: userUuid,
  pin_hash: sha256Hex,
  pin_salt: pinSalt,
  key_share_user: keyShare,
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
