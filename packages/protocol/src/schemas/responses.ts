import { z } from "zod";
import { ERROR_CODES } from "../errors.js";
import { address, uintString } from "./primitives.js";

const isoTimestamp = z.iso.datetime({ offset: true });

/** Any error response body. */
export const errorBodySchema = z.object({
  success: z.literal(false),
  error: z.enum(ERROR_CODES as [string, ...string[]]),
  message: z.string().min(1),
  error_description: z.string().optional(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** Developer-user login result (spec 2.1). */
export const devUserLoginResponseSchema = z.object({
  success: z.literal(true),
  token: z.string().min(1),
  uuid: z.string().min(1),
});

/** Token response (spec 2.2). */
export const tokenResponseSchema = z.object({
  success: z.literal(true),
  access_token: z.string().min(1),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().positive(),
  user_id: z.string().min(1),
  content_address: address.optional(),
});

/** Answer of `GET /v1/oauth/validate`. */
export const validateResponseSchema = z.object({
  success: z.literal(true),
  valid: z.literal(true),
  user_id: z.string().min(1),
  client_id: z.string().optional(),
  token_use: z.enum(["access_token", "user_jwt"]),
  expires_at: isoTimestamp,
});

/** Answer of status login. */
export const statusLoginResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user_id: z.string(),
  status: z.literal("logged_in"),
  timestamp: isoTimestamp,
});

/** Answer of status logout. */
export const statusLogoutResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user_id: z.string(),
  status: z.literal("logged_out"),
  transfer_enabled: z.boolean(),
  timestamp: isoTimestamp,
});

/** Answer of status check. */
export const statusCheckResponseSchema = z.object({
  success: z.literal(true),
  user_id: z.string(),
  client_id: z.string(),
  status: z.enum(["logged_in", "logged_out"]),
  transfer_enabled: z.boolean(),
  timestamp: isoTimestamp.nullable(),
});

/** Slot info answer of get_token (spec 2.3). */
export const metaGetTokenResponseSchema = z.object({
  success: z.literal(true),
  id: z.string().min(1),
  access_token: z.string().min(1),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().positive(),
  content_address: z.union([address, z.literal("")]),
  token_nickname: z.string(),
  tr_cnt: z.number().int().nonnegative(),
  code: z.string().min(1),
});

/** Purchase result (spec 2.5). */
export const userBuyContentTokenResponseSchema = z.object({
  success: z.literal(true),
  tx_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  token_amount: uintString,
  xotn_paid: uintString,
  platform_fee: uintString,
  provider_received: uintString,
});

/** Slot balance (spec 2.5). */
export const balanceAdexResponseSchema = z.object({
  success: z.literal(true),
  slot: address,
  balance: uintString,
  used_balances: uintString,
  cuid: z.string(),
});

/** Answer of test_encryption. */
export const testEncryptionResponseSchema = z.object({
  success: z.literal(true),
  encrypted_string: z.string().regex(/^([0-9a-f]{2})*$/),
});
