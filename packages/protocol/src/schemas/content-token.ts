import { z } from "zod";
import type {
  IncreaseUsedContentTokenRequest,
  InitPermissionProviderRequest,
  ReleaseUsedBalanceRequest,
  SpendPayload,
  TestEncryptionRequest,
  UserBuyContentTokenRequest,
} from "../index.js";
import { LIMITS } from "../limits.js";
import { address, positiveUintString, text, xotnAmount } from "./primitives.js";

/** A content unique identifier issued by the provider. */
export const cuid = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, "must be 1-64 letters, digits or _ . : - starting with a letter or digit");

/** Body of `init_permission_provider`. */
export const initPermissionProviderSchema = z.strictObject({
  client_id: text(128),
  cuid,
  release_per: z
    .number()
    .int("must be an integer")
    .min(LIMITS.releasePerMin, `must be at least ${LIMITS.releasePerMin}`)
    .max(LIMITS.releasePerMax, `must be at most ${LIMITS.releasePerMax}`),
  owner_addr: address,
}) satisfies z.ZodType<InitPermissionProviderRequest>;

/** Body of `user_buy_content_token`. */
export const userBuyContentTokenSchema = z.strictObject({
  client_id: text(128),
  user_dbkey: text(128),
  amount: xotnAmount,
  cuid,
}) satisfies z.ZodType<UserBuyContentTokenRequest>;

/** Body of `increase_used_content_token`: hex ciphertext only. */
export const increaseUsedContentTokenSchema = z.strictObject({
  encrypted_message: z
    .string()
    .min(2, "must not be empty")
    .max(8192, "must be at most 8192 hex characters")
    .regex(/^([0-9a-fA-F]{2})+$/, "must be an even-length hex string"),
}) satisfies z.ZodType<IncreaseUsedContentTokenRequest>;

/** The decrypted spend payload: a purchase's fields, the amount in base units as a string, and its replay guards. */
export const spendPayloadSchema = userBuyContentTokenSchema.extend({
  amount: positiveUintString,
  nonce: z.string().min(8, "must be at least 8 characters").max(128).optional(),
  ts: z.number().int().positive().optional(),
}) satisfies z.ZodType<SpendPayload>;

/** Body of `release_used_balance`. */
export const releaseUsedBalanceSchema = z.strictObject({
  client_id: text(128),
  cuid,
  slot: address,
}) satisfies z.ZodType<ReleaseUsedBalanceRequest>;

/** Body of `test_encryption`. */
export const testEncryptionSchema = z.strictObject({
  client_id: text(128),
  test_string: z.string().max(4096, "must be at most 4096 characters"),
}) satisfies z.ZodType<TestEncryptionRequest>;

/** Body of `POST /v1/development-api/spend_protection`: the provider's opt-in replay protection of spend messages. */
export const spendProtectionSchema = z.strictObject({ client_id: text(128), enabled: z.boolean() });

/** Path parameter of `GET /v1/development-api/balance_adex/{slot}`. */
export const balanceAdexParamsSchema = z.strictObject({ slot: address });

/** Query of `GET /v1/development-api/balance_adex/{slot}` (other parameters are ignored). */
export const balanceAdexQuerySchema = z.object({ cuid: cuid.optional() });
