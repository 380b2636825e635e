import { z } from "zod";
import type { CreateWalletConfirmationRequest, CreateWalletConfirmationResponse, WalletConfirmationRequest, WalletConfirmationResponse } from "../index.js";
import { metaIdx, mnemonic } from "./chain.js";
import { cuid } from "./content-token.js";
import { address, httpUrl, keyShare, oneTimeCode, pinSalt, positiveUintString, recoveryId, sha256Hex, text, userIdString, userUuid } from "./primitives.js";

/** The id of a wallet confirmation: 22 to 64 base64url characters (random, unguessable). */
export const confirmationId = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, "must be a confirmation id as answered");

/** What a wallet confirmation asks the player to sign. */
export const walletConfirmationRequestSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("approve_purchases"), cuid, amount: positiveUintString }),
  z.strictObject({ kind: z.literal("token_transfer"), to_address: address, amount: positiveUintString }),
  z.strictObject({ kind: z.literal("slot_hand_over"), cu_id: cuid, to_uuid: userIdString, meta_idx: metaIdx }),
]) satisfies z.ZodType<WalletConfirmationRequest>;

/** Body of `POST /v1/wallet/confirmations`. */
export const createWalletConfirmationSchema = z.strictObject({
  user_uuid: userUuid,
  redirect_uri: httpUrl,
  request: walletConfirmationRequestSchema,
}) satisfies z.ZodType<CreateWalletConfirmationRequest>;

/** Path parameter of `GET /v1/wallet/confirmations/{confirmation_id}` and the window's confirmation pages. */
export const walletConfirmationParamsSchema = z.strictObject({ confirmation_id: confirmationId });

const kind = z.enum(["approve_purchases", "token_transfer", "slot_hand_over"]);
const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

/** Answer (201) of `POST /v1/wallet/confirmations`. */
export const createWalletConfirmationResponseSchema = z.object({
  success: z.literal(true),
  id: confirmationId,
  kind,
  status: z.literal("pending"),
  expires_at: z.number().int().positive(),
  window_url: z.url(),
}) satisfies z.ZodType<CreateWalletConfirmationResponse>;

/** Answer of `GET /v1/wallet/confirmations/{confirmation_id}`. */
export const walletConfirmationResponseSchema = z.object({
  success: z.literal(true),
  id: confirmationId,
  kind,
  status: z.enum(["pending", "approved", "denied", "expired", "failed"]),
  tx_hash: txHash.nullable(),
  write_id: z.string().nullable(),
  write_status: z.enum(["pending", "submitted", "confirmed", "failed"]).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
}) satisfies z.ZodType<WalletConfirmationResponse>;

/** Query of the confirmation window `GET /wallet/confirm/{confirmation_id}`: the opener's `state`. */
export const walletConfirmPageQuerySchema = z.strictObject({ state: text(512) });

/** Path parameter of a page-started wallet window `GET /wallet/{action}`. */
export const walletActionParamsSchema = z.strictObject({ action: z.enum(["pin-setup", "pin-reset", "recover", "approvals"]) });

/** Query of a page-started wallet window: the client, its registered redirect URI, the opener's `state`. */
export const walletActionPageQuerySchema = z.strictObject({ client_id: text(128), redirect_uri: text(2048), state: text(512) });

/** Body of the window's `POST /wallet/confirm/{confirmation_id}/approve` (same-origin, CSRF double-submit). */
export const walletApproveSchema = z.strictObject({
  csrf_token: text(128),
  pin_hash: sha256Hex,
  pin_salt: pinSalt,
  key_share_user: keyShare,
});

/** Body of the window's `POST /wallet/confirm/{confirmation_id}/deny`. */
export const walletDenySchema = z.strictObject({ csrf_token: text(128) });

/** Query of the confirmation window's result page: the opener's `state`. */
export const walletConfirmResultQuerySchema = walletConfirmPageQuerySchema;

/** Body of the window's `POST /wallet/pin-setup` (same-origin, CSRF double-submit): the new PIN's hash and salt. */
export const walletPinSetupSchema = z.strictObject({ csrf_token: text(128), client_id: text(128), pin_hash: sha256Hex, pin_salt: pinSalt });

/** Query of a page-started window's result page. */
export const walletActionResultQuerySchema = walletActionPageQuerySchema.extend({ outcome: z.enum(["approved", "denied"]) });

/** Body of the window's `POST /wallet/pin-reset`: the twelve words and the new PIN's hash and salt. */
export const walletPinResetSchema = z.strictObject({ csrf_token: text(128), client_id: text(128), mnemonic, pin_hash: sha256Hex, pin_salt: pinSalt });

/** Body of the window's `POST /wallet/recover/code`: the new PIN the mailed code will be bound to. */
export const walletRecoverCodeSchema = walletPinSetupSchema;

/** Body of the window's `POST /wallet/recover`: the new PIN and the mailed code. */
export const walletRecoverSchema = walletPinSetupSchema.extend({ recovery_id: recoveryId, code: oneTimeCode });

/** Body of the window's `POST /wallet/approvals/revoke`: the cuid and the PIN shares the window keeps. */
export const walletRevokePurchasesSchema = z.strictObject({
  csrf_token: text(128),
  client_id: text(128),
  cuid,
  pin_hash: sha256Hex,
  pin_salt: pinSalt,
  key_share_user: keyShare,
});
