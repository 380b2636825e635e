import { z } from "zod";
import { GRANT_TYPES } from "../grant-types.js";
import type {
  ChainInfoResponse,
  ClientApplication,
  ClientAuditEntry,
  ClientRegistrationResponse,
  PublicClientRegistrationResponse,
  Delivery,
  IncreaseUsedContentTokenResponse,
  InitPermissionProviderResponse,
  MetaAuthorizeResponse,
  PinRegisterResponse,
  ProviderKeyRotation,
  ProviderStatus,
  ReleaseUsedBalanceResponse,
  RevokeResponse,
  TokenTransferResponse,
} from "../index.js";
import { address, uintString } from "./primitives.js";

// Answer schemas of the endpoints `responses.ts` does not cover, written from the wire types in `types/`.
// They describe what the service sends (plain objects: a newer service may add fields).

const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const hex = (chars: number) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${chars}}$`));
const grantType = z.enum([GRANT_TYPES.authorizationCode, GRANT_TYPES.refreshToken, GRANT_TYPES.deviceCode]);

/** Answer of `POST /v1/oauth/revoke` (`RevokeResponse`). */
export const revokeResponseSchema = z.object({ success: z.literal(true), revoked: z.literal(true) }) satisfies z.ZodType<RevokeResponse>;

/** Answer of `GET /v1/marketplace/listing_allowed`. */
export const listingAllowedResponseSchema = z.object({
  success: z.literal(true),
  user_id: z.string(),
  client_id: z.string(),
  status: z.enum(["logged_in", "logged_out"]),
  listing_allowed: z.boolean(),
});

/** Answer of `GET /v1/oauth-meta/authorize` (`MetaAuthorizeResponse`). */
export const metaAuthorizeResponseSchema = z.object({ success: z.literal(true), message: z.string() }) satisfies z.ZodType<MetaAuthorizeResponse>;

/** A client application as the developer center shows it (`ClientApplication`), never with its secret. */
export const clientApplicationSchema = z.object({
  client_id: z.string().min(1),
  name: z.string(),
  redirect_uris: z.array(z.string()),
  download_url: z.string(),
  web_url: z.string(),
  platform: z.enum(["web", "desktop", "game"]),
  blockchain: z.boolean(),
  grant_types: z.array(grantType),
  token_endpoint_auth_method: z.enum(["client_secret_basic", "none"]).optional(),
  created_at: z.string(),
  disabled: z.boolean().optional(),
  previous_secret_valid_until: z.string().nullable().optional(),
}) satisfies z.ZodType<ClientApplication>;

/** Answer of a client registration and of a secret rotation: the application and its secret, shown once. */
export const clientSecretResponseSchema = clientApplicationSchema.extend({
  success: z.literal(true),
  client_secret: z.string().min(1),
}) satisfies z.ZodType<ClientRegistrationResponse>;

/** Answer of the registration of a public native client (`token_endpoint_auth_method: "none"`): it has no secret (RFC 7591 section 3.2.1). */
export const publicClientResponseSchema = clientApplicationSchema.extend({
  success: z.literal(true),
  token_endpoint_auth_method: z.literal("none"),
}) satisfies z.ZodType<PublicClientRegistrationResponse>;

/** Answer of an edit, disable or enable of a client application: the application as it is now. */
export const clientApplicationResponseSchema = clientApplicationSchema.extend({ success: z.literal(true) });

/** Answer of `GET /v1/dev-user/clients`. */
export const clientListResponseSchema = z.object({ success: z.literal(true), clients: z.array(clientApplicationSchema) });

/** Answer of `DELETE /v1/dev-user/clients/{client_id}`. */
export const clientDeletedResponseSchema = z.object({ success: z.literal(true), client_id: z.string(), deleted: z.literal(true) });

/** One audit entry (`ClientAuditEntry`). */
export const clientAuditEntrySchema = z.object({
  actor: z.string(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
}) satisfies z.ZodType<ClientAuditEntry>;

/** Answer of `GET /v1/dev-user/clients/{client_id}/audit`. */
export const clientAuditResponseSchema = z.object({ success: z.literal(true), entries: z.array(clientAuditEntrySchema) });

/** One delivery of the service to an application's endpoints (`Delivery`). */
export const deliverySchema = z.object({
  id: z.string(),
  kind: z.enum(["authorize_callback", "marketplace_webhook"]),
  target: z.string().nullable(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int().nonnegative(),
  max_attempts: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
}) satisfies z.ZodType<Delivery>;

/** Answer of `GET /v1/dev-user/clients/{client_id}/deliveries`. */
export const deliveryListResponseSchema = z.object({ success: z.literal(true), deliveries: z.array(deliverySchema) });

/** Answer of `POST /v1/dev-user/clients/{client_id}/deliveries/{delivery_id}/retry`. */
export const deliveryResponseSchema = z.object({ success: z.literal(true), delivery: deliverySchema });

/** A client application's provider side (`ProviderStatus`). */
export const providerStatusSchema = z.object({
  success: z.literal(true),
  client_id: z.string(),
  registered: z.boolean(),
  replay_protection: z.boolean(),
  key_rotated_at: z.string().nullable(),
  previous_key_valid_until: z.string().nullable(),
  cuids: z.array(
    z.object({
      cuid: z.string(),
      release_per: z.number().int().nullable(),
      release_enabled: z.boolean(),
      owner_addr: z.string().nullable(),
      tx_hash: z.string(),
    }),
  ),
}) satisfies z.ZodType<ProviderStatus>;

/** Answer of an AES key rotation (`ProviderKeyRotation`): the new key and IV, shown once. */
export const providerKeyRotationSchema = z.object({
  success: z.literal(true),
  client_id: z.string(),
  aes_key: hex(64),
  aes_iv: hex(32),
  previous_key_valid_until: z.string().nullable(),
}) satisfies z.ZodType<ProviderKeyRotation>;

/** Answer of `GET /v1/dev-user/mailbox` (development mailbox). */
export const devMailboxResponseSchema = z.object({
  success: z.literal(true),
  warning: z.string(),
  messages: z.array(z.object({ id: z.string(), date: z.string(), from: z.string(), to: z.string(), subject: z.string(), text: z.string() })),
});

/** Answer of `POST /v1/pin/register`, `/v1/pin/reset` and `/v1/pin/recover` (`PinRegisterResponse`). */
export const pinWalletsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(z.object({ address, mnemonic: z.string(), key_share_user: hex(64) })),
}) satisfies z.ZodType<PinRegisterResponse>;

/** Answer of `POST /v1/pin/verify`: the wallet and, for an operation other than `verify_only`, its transaction. */
export const pinVerifyResponseSchema = z.object({
  success: z.literal(true),
  address,
  tx_hash: txHash.nullable(),
  user_op_hash: txHash.nullable(),
  deployed_wallet: z.boolean(),
  new_owner: address.optional(),
  mnemonic: z.string().optional(),
});

/** Answer of `POST /v1/token/transfer` (`TokenTransferResponse`). */
export const tokenTransferResponseSchema = z.object({ success: z.literal(true), transaction_hash: txHash }) satisfies z.ZodType<TokenTransferResponse>;

/** Answer of `init_permission_provider` (`InitPermissionProviderResponse`); the key and IV only in the first answer. */
export const initPermissionProviderResponseSchema = z.object({
  success: z.literal(true),
  tx_hash: txHash,
  key_issued: z.boolean(),
  aes_key: hex(64).optional(),
  aes_iv: hex(32).optional(),
}) satisfies z.ZodType<InitPermissionProviderResponse>;

/** Answer of `increase_used_content_token` (`IncreaseUsedContentTokenResponse`). */
export const increaseUsedContentTokenResponseSchema = z.object({
  success: z.literal(true),
  tx_hash: txHash,
  slot: address,
  cuid: z.string(),
  amount: uintString,
  balance: uintString,
  used_balances: uintString,
}) satisfies z.ZodType<IncreaseUsedContentTokenResponse>;

/** Answer of `release_used_balance` (`ReleaseUsedBalanceResponse`). */
export const releaseUsedBalanceResponseSchema = z.object({
  success: z.literal(true),
  released_amount: uintString,
  tx_hash: txHash,
}) satisfies z.ZodType<ReleaseUsedBalanceResponse>;

/** Answer of `POST /v1/development-api/spend_protection`. */
export const spendProtectionResponseSchema = z.object({ success: z.literal(true), client_id: z.string(), replay_protection: z.boolean() });

/** Answer of `GET /v1/chain` (`ChainInfoResponse`). */
export const chainInfoResponseSchema = z.object({
  success: z.literal(true),
  chain_id: uintString,
  contracts: z.object({ xotn: address, exchange: address, entry_point: address, account_factory: address, paymaster: address }),
  rpc_url: z.string().optional(),
}) satisfies z.ZodType<ChainInfoResponse>;

/** Answer of `GET /healthz`. */
export const healthResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal("ok"),
  database: z.string(),
  chain: z.string(),
});

/** Answer of `GET /.well-known/jwks.json` (RFC 7517): the public signing keys. */
export const jwksResponseSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/** A JSON document described elsewhere (RFC 8414 metadata, the OpenAPI document itself). */
export const jsonDocumentSchema = z.record(z.string(), z.unknown());

/** Answer of `POST /v1/dev/fund_slot` (development chain only). */
export const devFundSlotResponseSchema = z.object({ success: z.literal(true), slot: address, xotn: uintString, cuid: z.string() });

/** Answer of `POST /v1/dev/enable_release` (development chain only). */
export const devEnableReleaseResponseSchema = z.object({ success: z.literal(true), cuid: z.string(), enabled: z.boolean(), tx_hash: txHash });

/** Answer of `POST /v1/dev/register_slot` (development chain only). */
export const devRegisterSlotResponseSchema = z.object({
  success: z.literal(true),
  cuid: z.string(),
  meta_idx: z.number().int().nonnegative(),
  owner: address,
  tx_hash: txHash,
});
