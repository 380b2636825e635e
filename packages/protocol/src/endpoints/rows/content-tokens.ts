import { PATHS } from "../../paths.js";
import {
  increaseUsedContentTokenResponseSchema,
  initPermissionProviderResponseSchema,
  releaseUsedBalanceResponseSchema,
  spendProtectionResponseSchema,
} from "../../schemas/answers.js";
import {
  balanceAdexParamsSchema,
  balanceAdexQuerySchema,
  increaseUsedContentTokenSchema,
  initPermissionProviderSchema,
  releaseUsedBalanceSchema,
  spendProtectionSchema,
  testEncryptionSchema,
  userBuyContentTokenSchema,
} from "../../schemas/content-token.js";
import {
  balanceAdexResponseSchema,
  pendingWriteResponseSchema,
  testEncryptionResponseSchema,
  userBuyContentTokenResponseSchema,
} from "../../schemas/responses.js";
import { type ActorRule, defineEndpoint } from "../define.js";
import { EXAMPLE } from "../examples.js";
import { apiPath } from "../path.js";
import { WRITE_ERRORS } from "./write-errors.js";

/** `client_id` of the body must be the client authenticated by HTTP Basic. */
const provider: readonly ActorRule[] = [{ in: "body", field: "client_id", is: "client" }];
const providerErrors = ["invalid_request", "invalid_client", "token_user_mismatch"] as const;

/** The content-token endpoints of the provider backends (spec 4.7, 4.8): HTTP Basic client credentials. */
export const contentTokenEndpoints = [
  defineEndpoint({
    name: "initPermissionProvider",
    method: "post",
    path: PATHS.initPermissionProvider,
    auth: ["basic"],
    actors: provider,
    writes: true,
    input: { body: initPermissionProviderSchema },
    output: { 200: initPermissionProviderResponseSchema, 202: pendingWriteResponseSchema },
    errors: [...providerErrors, "cuid_taken", ...WRITE_ERRORS],
    summary: "Register a provider cuid; the first answers the AES key and IV (spec 4.7)",
    example: { client_id: EXAMPLE.clientId, cuid: EXAMPLE.cuid, release_per: 10, owner_addr: EXAMPLE.address },
  }),
  defineEndpoint({
    name: "userBuyContentToken",
    method: "post",
    path: PATHS.userBuyContentToken,
    auth: ["basic"],
    actors: provider,
    writes: true,
    input: { body: userBuyContentTokenSchema },
    output: { 200: userBuyContentTokenResponseSchema, 202: pendingWriteResponseSchema },
    errors: [...providerErrors, "provider_not_registered", "slot_not_found", "insufficient_allowance", "insufficient_balance", ...WRITE_ERRORS],
    summary: "Buy content tokens for a user's slot (15 % / 85 %)",
    example: { client_id: EXAMPLE.clientId, user_dbkey: EXAMPLE.userId, amount: "1.5", cuid: EXAMPLE.cuid },
  }),
  defineEndpoint({
    name: "increaseUsedContentToken",
    method: "post",
    path: PATHS.increaseUsedContentToken,
    auth: ["basic"],
    writes: true,
    input: { body: increaseUsedContentTokenSchema },
    output: { 200: increaseUsedContentTokenResponseSchema, 202: pendingWriteResponseSchema },
    errors: [
      "invalid_request",
      "invalid_client",
      "invalid_encrypted_message",
      "encrypted_message_mismatch",
      "insufficient_balance",
      "replayed_message",
      "stale_message",
      ...WRITE_ERRORS,
    ],
    summary: "Record spending: AES-256-CTR encrypted payload (spec 4.7, 4.8)",
  }),
  defineEndpoint({
    name: "releaseUsedBalance",
    method: "post",
    path: PATHS.releaseUsedBalance,
    auth: ["basic"],
    actors: provider,
    writes: true,
    input: { body: releaseUsedBalanceSchema },
    output: { 200: releaseUsedBalanceResponseSchema, 202: pendingWriteResponseSchema },
    errors: [...providerErrors, "release_disabled", ...WRITE_ERRORS],
    summary: "Provider settlement on used balances (operator-enabled per cuid)",
    example: { client_id: EXAMPLE.clientId, cuid: EXAMPLE.cuid, slot: EXAMPLE.address },
  }),
  defineEndpoint({
    name: "testEncryption",
    method: "post",
    path: PATHS.testEncryption,
    auth: ["basic"],
    actors: provider,
    input: { body: testEncryptionSchema },
    output: { 200: testEncryptionResponseSchema },
    errors: [...providerErrors, "provider_not_registered"],
    summary: "Encrypt a test string with the provider's key and IV",
    example: { client_id: EXAMPLE.clientId, test_string: "hello" },
  }),
  defineEndpoint({
    name: "spendProtection",
    method: "post",
    path: PATHS.spendProtection,
    auth: ["basic"],
    actors: provider,
    input: { body: spendProtectionSchema },
    output: { 200: spendProtectionResponseSchema },
    errors: [...providerErrors, "provider_not_registered"],
    summary: "Turn on (or off) the provider's spend replay protection: spend messages must carry a nonce (accepted once) and a fresh ts",
    example: { client_id: EXAMPLE.clientId, enabled: true },
  }),
  defineEndpoint({
    name: "balanceAdex",
    method: "get",
    path: apiPath(PATHS.balanceAdexSlot),
    auth: [],
    cors: true,
    input: { params: balanceAdexParamsSchema, query: balanceAdexQuerySchema },
    output: { 200: balanceAdexResponseSchema },
    errors: ["invalid_request", "slot_not_found"],
    summary: "Slot balance and used_balances, read from the chain (public)",
  }),
] as const;
