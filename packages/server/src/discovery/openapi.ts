import { ERRORS, PATHS } from "@slotgate/protocol";
import * as schemas from "@slotgate/protocol/schemas";
import { z } from "zod";

type Schema = z.ZodType;

function json(schema: Schema, io: "input" | "output") {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "openapi-3.0" });
}

const errorResponse = (codes: string[]) => ({
  description: `Error: ${codes.join(", ")}`,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

interface Op {
  method: "get" | "post" | "patch" | "delete";
  path: string;
  summary: string;
  request?: Schema;
  query?: Schema;
  form?: boolean;
  response?: Schema;
  bearer?: boolean;
  /** HTTP Basic client credentials (development-api). */
  basic?: boolean;
  /**
   * A money-moving chain write: takes an optional `Idempotency-Key` header and may answer 202 with a
   * pending write to follow at `GET /v1/chain/writes/{write_id}`.
   */
  write?: boolean;
  /** Answers 201 Created (not 200) on success. */
  created?: boolean;
  errors: string[];
}

/** The `Idempotency-Key` request header of the money-moving endpoints. */
const idempotencyKeyHeader = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes retries safe: the same key with the same body answers the first answer (also while it is in flight), another body under a used key is 422 idempotency_key_reused. Kept at least 24 h, per client or user.",
  schema: json(schemas.primitives.idempotencyKey, "input"),
};

/** The 202 answer of a write that did not land within the wait. */
const acceptedResponse = {
  description: "Accepted: recorded and on its way; follow Location (GET /v1/chain/writes/{write_id}) after Retry-After seconds.",
  headers: {
    Location: { schema: { type: "string" }, description: "/v1/chain/writes/{write_id}" },
    "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait before asking again" },
  },
  content: { "application/json": { schema: json(schemas.pendingWriteResponseSchema, "output") } },
};

/** Errors every money-moving write may answer besides its own. */
const WRITE_ERRORS = ["idempotency_key_reused", "sponsorship_budget_exceeded"];

/**
 * The OpenAPI 3.0 document of the endpoints, generated from the protocol's zod schemas.
 *
 * @example
 * ```ts
 * const doc = buildOpenApi("http://127.0.0.1:8080");
 * doc.paths["/oauth/token"].post.summary;
 * ```
 */
export function buildOpenApi(issuer: string) {
  const ops: Op[] = [
    { method: "post", path: PATHS.devUserSignup, summary: "Create a developer account", request: schemas.devUserCredentialsSchema, response: schemas.devUserLoginResponseSchema, errors: ["invalid_request", "email_taken", "rate_limited"] },
    { method: "post", path: PATHS.devUserLogin, summary: "Developer login (spec 4.1)", request: schemas.devUserCredentialsSchema, response: schemas.devUserLoginResponseSchema, errors: ["invalid_request", "invalid_credentials", "sign_in_throttled", "rate_limited"] },
    { method: "post", path: PATHS.clients, summary: "Register a client application (secret shown once)", request: schemas.clientRegistrationSchema, bearer: true, errors: ["invalid_request", "invalid_token"] },
    { method: "get", path: PATHS.clients, summary: "List your client applications", bearer: true, errors: ["invalid_token"] },
    { method: "patch", path: `${PATHS.clients}/{client_id}`, summary: "Edit a client application: name, redirect URIs (the whole list, exact match), download_url, web_url; recorded in its audit list", request: schemas.clientUpdateSchema, bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "delete", path: `${PATHS.clients}/{client_id}`, summary: "Delete a client application: sign-ins and client authentication stop, every issued token is revoked, the client_id is never reused", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/secret`, summary: "Rotate the client secret (new one shown once); the previous one works until previous_secret_valid_until (CLIENT_SECRET_OVERLAP_SECONDS)", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/disable`, summary: "Disable a client application: sign-ins and client authentication stop, tokens issued so far are revoked, refresh sessions end", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/enable`, summary: "Enable a disabled client application again (tokens revoked by the disable stay revoked)", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "get", path: `${PATHS.clients}/{client_id}/audit`, summary: "The client application's audit list (who, when, what), newest first", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "get", path: `${PATHS.clients}/{client_id}/deliveries`, summary: "Recent authorize callbacks and marketplace webhooks of the client application: status, attempts, last error, next retry", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/deliveries/{delivery_id}/retry`, summary: "Retry a pending or failed delivery now", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found", "delivery_not_found", "delivery_not_retryable"] },
    { method: "get", path: `${PATHS.clients}/{client_id}/provider`, summary: "The client application's provider side: AES key state, spend replay protection, cuids with release_per and release flag", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found", "service_unavailable"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/provider/cuids`, write: true, summary: "Register a cuid (init_permission_provider); the first answers the AES key and IV, once (Idempotency-Key honoured; 202 when the write has not landed yet)", request: schemas.providerCuidSchema, bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found", "cuid_taken", "service_unavailable"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/provider/replay_protection`, summary: "Turn the spend replay protection on or off", request: schemas.replayProtectionSchema, bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found", "provider_not_registered", "service_unavailable"] },
    { method: "post", path: `${PATHS.clients}/{client_id}/provider/key`, summary: "Rotate the AES key and IV (answered once); the previous ones decrypt spends for PROVIDER_KEY_OVERLAP_SECONDS more", bearer: true, errors: ["invalid_request", "invalid_token", "client_not_found", "provider_not_registered", "service_unavailable"] },
    { method: "get", path: PATHS.devMailbox, summary: "The development mailbox (embedded default without SMTP_URL): the mails the server kept", bearer: true, errors: ["invalid_token", "not_found"] },
    { method: "get", path: PATHS.authorize, summary: "Sign-in and consent page (spec 4.2); state may be left out only with PKCE S256 on a code redirect (ERR_MISSING_PARAMS otherwise)", query: schemas.authorizeQuerySchema, errors: ["ERR_MISSING_PARAMS", "invalid_client", "redirect_uri_mismatch", "unsupported_response_type"] },
    { method: "post", path: PATHS.passkeyOptions, summary: "Passkey sign-in challenge for the authorize page (form csrf_token; JSON { flow, options })", errors: ["csrf_failed", "rate_limited", "not_found"] },
    { method: "get", path: PATHS.identityProviderCallback, summary: "Return from an upstream OpenID Connect provider (state, code)", errors: ["invalid_request", "identity_provider_error"] },
    { method: "post", path: PATHS.token, summary: "Token endpoint: authorization-code exchange (spec 4.3), refresh_token (rotating) and the device grant's poll (RFC 8628)", request: z.union([schemas.tokenRequestSchema, schemas.refreshTokenRequestSchema, schemas.deviceTokenRequestSchema]), form: true, response: schemas.tokenResponseSchema, errors: ["invalid_request", "invalid_client", "unsupported_grant_type", "unauthorized_client", "redirect_uri_mismatch", "invalid_grant", "authorization_pending", "slow_down", "expired_token", "access_denied"] },
    { method: "post", path: PATHS.deviceAuthorization, summary: "Device authorization (RFC 8628 3.1): device_code, user_code and the verification URI", request: schemas.deviceAuthorizationRequestSchema, form: true, response: schemas.deviceAuthorizationResponseSchema, errors: ["invalid_request", "invalid_client", "unauthorized_client"] },
    { method: "get", path: PATHS.deviceVerification, summary: "Device verification page: enter the user code, sign in, approve or deny (HTML; display=popup for a popup)", errors: ["invalid_request", "csrf_failed"] },
    { method: "get", path: PATHS.validate, summary: "Validate a bearer token", bearer: true, response: schemas.validateResponseSchema, errors: ["invalid_token"] },
    { method: "post", path: PATHS.revoke, summary: "Revoke the bearer token", bearer: true, errors: ["invalid_token"] },
    { method: "post", path: PATHS.statusLogin, summary: "Record login (spec 4.6)", bearer: true, request: schemas.statusUpdateSchema, response: schemas.statusLoginResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "slot_transfer_in_progress"] },
    { method: "post", path: PATHS.statusLogout, summary: "Record logout (spec 4.6)", bearer: true, request: schemas.statusUpdateSchema, response: schemas.statusLogoutResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch"] },
    { method: "get", path: PATHS.statusCheck, summary: "Current login status (spec 4.6a)", bearer: true, query: schemas.statusCheckQuerySchema, response: schemas.statusCheckResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch"] },
    { method: "get", path: PATHS.listingAllowed, summary: "Marketplace: may this authorization be listed?", query: schemas.statusCheckQuerySchema, errors: ["invalid_client", "invalid_request"] },
    { method: "get", path: PATHS.metaAuthorize, summary: "Backend SDK authorize (spec 4.4 step 1)", bearer: true, query: schemas.metaAuthorizeQuerySchema, errors: ["invalid_token", "invalid_client", "redirect_uri_mismatch", "token_user_mismatch"] },
    { method: "post", path: PATHS.metaGetToken, summary: "Backend SDK code exchange (spec 4.4 step 3)", request: schemas.metaGetTokenSchema, response: schemas.metaGetTokenResponseSchema, errors: ["invalid_request", "invalid_client", "redirect_uri_mismatch", "invalid_grant"] },
    { method: "post", path: PATHS.pinRegister, summary: "Register a PIN: wallet + key split (spec 4.10)", bearer: true, request: schemas.pinRegisterSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "wallet_exists", "rate_limited", "service_unavailable"] },
    { method: "post", path: PATHS.pinVerify, write: true, summary: "Verify the PIN; optionally sign one wallet operation (spec 4.10)", bearer: true, request: schemas.pinVerifySchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "wallet_not_found", "provider_not_registered", "pin_invalid", "pin_locked", "insufficient_balance", "chain_reverted", "sponsorship_refused", "rate_limited", "service_unavailable"] },
    { method: "post", path: PATHS.pinReset, summary: "Reset the PIN with the mnemonic (spec 4.10)", bearer: true, request: schemas.pinResetSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "wallet_not_found", "mnemonic_mismatch", "rate_limited", "service_unavailable"] },
    { method: "post", path: PATHS.pinRecoverCode, summary: "Recovery step 1: mail a one-time code to the account's verified address, bound to this user and new PIN", bearer: true, request: schemas.pinRecoverCodeSchema, response: schemas.pinRecoverCodeResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "email_not_verified", "rate_limited", "service_unavailable"] },
    { method: "post", path: PATHS.pinRecover, summary: "Recovery step 2: new owner key once the emailed code (recovery_id, code) proves the mailbox (spec 4.10 rule 8)", bearer: true, request: schemas.pinRecoverWithCodeSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "identity_not_verified", "otp_invalid", "otp_expired", "otp_locked", "wallet_not_found", "rate_limited", "service_unavailable"] },
    { method: "post", path: PATHS.tokenTransfer, write: true, summary: "Sponsored ERC-20 transfer from the bearer user's wallet (spec 4.5)", bearer: true, request: schemas.tokenTransferSchema, errors: ["invalid_request", "invalid_token", "not_owner", "pin_invalid", "pin_locked", "chain_reverted", "sponsorship_refused", "service_unavailable"] },
    { method: "post", path: PATHS.exchangeTokenOwner, write: true, summary: "Slot ownership transfer; plus pin_hash, key_share_user of from_uuid (spec 4.9)", bearer: true, request: schemas.exchangeTokenOwnerSchema, response: schemas.exchangeTokenOwnerResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "logout_required", "slot_transfer_in_progress", "not_owner", "pin_invalid", "replayed_message", "service_unavailable"] },
    { method: "get", path: PATHS.slots, summary: "The bearer user's slots of a cuid: slot wallet, owner and tr_cnt from the chain, active or sleeping", bearer: true, query: schemas.slotListQuerySchema, response: schemas.slotListResponseSchema, errors: ["invalid_request", "invalid_token", "service_unavailable"] },
    { method: "post", path: PATHS.slots, created: true, summary: "Open another slot of a cuid for the bearer user (201); it sleeps unless the user has no active slot of the cuid; its on-chain registration is queued", bearer: true, request: schemas.slotOpenSchema, response: schemas.slotResponseSchema, errors: ["invalid_request", "invalid_token", "provider_not_registered", "rate_limited", "service_unavailable"] },
    { method: "post", path: PATHS.slotActivate, summary: "Make one of the bearer user's slots of a cuid the active one (the previous one sleeps); only while logged out at the game that registered the cuid (spec 3.1 rule 2)", bearer: true, request: schemas.slotActivateSchema, response: schemas.slotActivateResponseSchema, errors: ["invalid_request", "invalid_token", "logout_required", "not_owner", "slot_not_found", "rate_limited", "service_unavailable"] },
    { method: "get", path: PATHS.slot.replace(":cu_id", "{cu_id}").replace(":meta_idx", "{meta_idx}"), summary: "One slot read from the chain: slot wallet, owner, tr_cnt, balance and used_balances (public)", response: schemas.slotResponseSchema, errors: ["invalid_request", "slot_not_found", "service_unavailable"] },
    { method: "post", path: PATHS.initPermissionProvider, write: true, summary: "Register a provider cuid; the first answers the AES key and IV (spec 4.7)", basic: true, request: schemas.initPermissionProviderSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "cuid_taken"] },
    { method: "post", path: PATHS.userBuyContentToken, write: true, summary: "Buy content tokens for a user's slot (15 % / 85 %)", basic: true, request: schemas.userBuyContentTokenSchema, response: schemas.userBuyContentTokenResponseSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "provider_not_registered", "slot_not_found", "insufficient_allowance", "insufficient_balance"] },
    { method: "post", path: PATHS.increaseUsedContentToken, write: true, summary: "Record spending: AES-256-CTR encrypted payload (spec 4.7, 4.8)", basic: true, request: schemas.increaseUsedContentTokenSchema, errors: ["invalid_request", "invalid_client", "invalid_encrypted_message", "encrypted_message_mismatch", "insufficient_balance", "replayed_message", "stale_message"] },
    { method: "post", path: PATHS.releaseUsedBalance, write: true, summary: "Provider settlement on used balances (operator-enabled per cuid)", basic: true, request: schemas.releaseUsedBalanceSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "release_disabled"] },
    { method: "post", path: PATHS.testEncryption, summary: "Encrypt a test string with the provider's key and IV", basic: true, request: schemas.testEncryptionSchema, response: schemas.testEncryptionResponseSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "provider_not_registered"] },
    { method: "get", path: PATHS.chainWrite.replace(":write_id", "{write_id}"), summary: "A chain write's state and, once settled, the answer its request would have given (the client or user that made it only)", bearer: true, basic: true, response: schemas.chainWriteResponseSchema, errors: ["invalid_request", "invalid_client", "invalid_token", "write_not_found", "service_unavailable"] },
    { method: "get", path: PATHS.chainInfo, summary: "The chain id and deployed contracts (and the development chain's JSON-RPC URL), public", errors: ["service_unavailable"] },
    { method: "get", path: `${PATHS.balanceAdex}/{slot}`, summary: "Slot balance and used_balances, read from the chain (public)", response: schemas.balanceAdexResponseSchema, errors: ["invalid_request", "slot_not_found"] },
  ];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const queryParameters = op.query
      ? Object.entries((json(op.query, "input") as { properties?: Record<string, unknown>; required?: string[] }).properties ?? {}).map(([name, schema]) => ({
          name,
          in: "query",
          required: ((json(op.query!, "input") as { required?: string[] }).required ?? []).includes(name),
          schema,
        }))
      : [];
    const pathParameters = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    const parameters = [...pathParameters, ...queryParameters, ...(op.write ? [idempotencyKeyHeader] : [])];
    const requestContent: Record<string, unknown> = {};
    if (op.request) {
      requestContent["application/json"] = { schema: json(op.request, "input") };
      if (op.form) requestContent["application/x-www-form-urlencoded"] = { schema: json(op.request, "input") };
    }
    const responses: Record<string, unknown> = {
      [op.created ? "201" : "200"]: op.response ? { description: op.created ? "Created" : "OK", content: { "application/json": { schema: json(op.response, "output") } } } : { description: "OK" },
    };
    if (op.write) responses["202"] = acceptedResponse;
    for (const code of op.write ? [...op.errors, ...WRITE_ERRORS] : op.errors) {
      const status = String(ERRORS[code as keyof typeof ERRORS].status);
      responses[status] = errorResponse([...(((responses[status] as { description?: string })?.description ?? "").replace("Error: ", "").split(", ").filter(Boolean)), code]);
    }
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.request ? { requestBody: { required: true, content: requestContent } } : {}),
      ...(op.bearer || op.basic ? { security: [...(op.bearer ? [{ bearer: [] }] : []), ...(op.basic ? [{ clientBasic: [] }] : [])] } : {}),
      responses,
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "Slotgate reference server", version: "0.1.0", description: "Generated from @slotgate/protocol schemas." },
    servers: [{ url: issuer }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" }, clientBasic: { type: "http", scheme: "basic" } },
      schemas: { Error: json(schemas.errorBodySchema, "output") },
    },
  };
}
