import { z } from "zod";
import { ERROR_CODES } from "../errors.js";
import { address, uintString, writeId } from "./primitives.js";

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
  refresh_token: z.string().min(1).optional(),
});

/** Answer of `POST /oauth/device_authorization` (RFC 8628 section 3.2). */
export const deviceAuthorizationResponseSchema = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  verification_uri: z.url(),
  verification_uri_complete: z.url(),
  expires_in: z.number().int().positive(),
  interval: z.number().int().positive(),
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
  cu_id: z.string().min(1).optional(),
  meta_idx: z.number().int().nonnegative().optional(),
  refresh_token: z.string().min(1).optional(),
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

/** Answer of `POST /idex-platform/exchange_token_owner` (`ExchangeTokenOwnerResponse`). */
export const exchangeTokenOwnerResponseSchema = z.object({
  success: z.literal(true),
  tx_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  meta_idx: z.number().int().nonnegative(),
  new_owner: address,
  tr_cnt: z.number().int().nonnegative(),
});

/** Answer of test_encryption. */
export const testEncryptionResponseSchema = z.object({
  success: z.literal(true),
  encrypted_string: z.string().regex(/^([0-9a-f]{2})*$/),
});

/** Answer of `POST /v1/pin/recover/code`. */
export const pinRecoverCodeResponseSchema = z.object({
  success: z.literal(true),
  recovery_id: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  expires_in: z.number().int().positive(),
  sent_to: z.string().min(3),
});

/** Answer (HTTP 202) of a money endpoint whose chain write did not land within the wait (`PendingWriteResponse`). */
export const pendingWriteResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal("pending"),
  write_id: writeId,
});

/** Answer of `GET /v1/chain/writes/{write_id}` (`ChainWriteResponse`). */
export const chainWriteResponseSchema = z.object({
  success: z.literal(true),
  write_id: writeId,
  status: z.enum(["pending", "submitted", "confirmed", "failed"]),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
