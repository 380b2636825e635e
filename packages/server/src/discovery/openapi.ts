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
  method: "get" | "post";
  path: string;
  summary: string;
  request?: Schema;
  query?: Schema;
  form?: boolean;
  response?: Schema;
  bearer?: boolean;
  /** HTTP Basic client credentials (development-api). */
  basic?: boolean;
  errors: string[];
}

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
    { method: "post", path: PATHS.devUserLogin, summary: "Developer login (spec 4.1)", request: schemas.devUserCredentialsSchema, response: schemas.devUserLoginResponseSchema, errors: ["invalid_request", "invalid_credentials", "rate_limited"] },
    { method: "post", path: PATHS.clients, summary: "Register a client application (secret shown once)", request: schemas.clientRegistrationSchema, bearer: true, errors: ["invalid_request", "invalid_token"] },
    { method: "get", path: PATHS.clients, summary: "List your client applications", bearer: true, errors: ["invalid_token"] },
    { method: "get", path: PATHS.authorize, summary: "Sign-in and consent page (spec 4.2)", query: schemas.authorizeQuerySchema, errors: ["ERR_MISSING_PARAMS", "invalid_client", "redirect_uri_mismatch", "unsupported_response_type"] },
    { method: "post", path: PATHS.token, summary: "Authorization-code exchange (spec 4.3)", request: schemas.tokenRequestSchema, form: true, response: schemas.tokenResponseSchema, errors: ["invalid_request", "invalid_client", "unsupported_grant_type", "redirect_uri_mismatch", "invalid_grant"] },
    { method: "get", path: PATHS.validate, summary: "Validate a bearer token", bearer: true, response: schemas.validateResponseSchema, errors: ["invalid_token"] },
    { method: "post", path: PATHS.revoke, summary: "Revoke the bearer token", bearer: true, errors: ["invalid_token"] },
    { method: "post", path: PATHS.statusLogin, summary: "Record login (spec 4.6)", bearer: true, request: schemas.statusUpdateSchema, response: schemas.statusLoginResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch"] },
    { method: "post", path: PATHS.statusLogout, summary: "Record logout (spec 4.6)", bearer: true, request: schemas.statusUpdateSchema, response: schemas.statusLogoutResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch"] },
    { method: "get", path: PATHS.statusCheck, summary: "Current login status (spec 4.6a)", bearer: true, query: schemas.statusCheckQuerySchema, response: schemas.statusCheckResponseSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch"] },
    { method: "get", path: PATHS.listingAllowed, summary: "Marketplace: may this authorization be listed?", query: schemas.statusCheckQuerySchema, errors: ["invalid_client", "invalid_request"] },
    { method: "get", path: PATHS.metaAuthorize, summary: "Backend SDK authorize (spec 4.4 step 1)", bearer: true, query: schemas.metaAuthorizeQuerySchema, errors: ["invalid_token", "invalid_client", "redirect_uri_mismatch", "token_user_mismatch"] },
    { method: "post", path: PATHS.metaGetToken, summary: "Backend SDK code exchange (spec 4.4 step 3)", request: schemas.metaGetTokenSchema, response: schemas.metaGetTokenResponseSchema, errors: ["invalid_request", "invalid_client", "redirect_uri_mismatch", "invalid_grant"] },
    { method: "post", path: PATHS.pinRegister, summary: "Register a PIN: wallet + key split (spec 4.10)", bearer: true, request: schemas.pinRegisterSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "wallet_exists", "service_unavailable"] },
    { method: "post", path: PATHS.pinVerify, summary: "Verify the PIN; optionally sign one wallet operation (spec 4.10)", bearer: true, request: schemas.pinVerifySchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "wallet_not_found", "pin_invalid", "pin_locked", "service_unavailable"] },
    { method: "post", path: PATHS.pinReset, summary: "Reset the PIN with the mnemonic (spec 4.10)", bearer: true, request: schemas.pinResetSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "wallet_not_found", "mnemonic_mismatch", "service_unavailable"] },
    { method: "post", path: PATHS.pinRecover, summary: "Recover: new owner key after a fresh sign-in (email, password in the body) (spec 4.10)", bearer: true, request: schemas.pinRecoverSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "identity_not_verified", "invalid_credentials", "wallet_not_found", "service_unavailable"] },
    { method: "post", path: PATHS.tokenTransfer, summary: "Sponsored ERC-20 transfer from the bearer user's wallet (spec 4.5)", bearer: true, request: schemas.tokenTransferSchema, errors: ["invalid_request", "invalid_token", "not_owner", "pin_invalid", "pin_locked", "chain_reverted", "service_unavailable"] },
    { method: "post", path: PATHS.exchangeTokenOwner, summary: "Slot ownership transfer; plus pin_hash, key_share_user of from_uuid (spec 4.9)", bearer: true, request: schemas.exchangeTokenOwnerSchema, errors: ["invalid_request", "invalid_token", "token_user_mismatch", "not_owner", "pin_invalid", "replayed_message", "service_unavailable"] },
    { method: "post", path: PATHS.initPermissionProvider, summary: "Register a provider cuid; the first answers the AES key and IV (spec 4.7)", basic: true, request: schemas.initPermissionProviderSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "cuid_taken"] },
    { method: "post", path: PATHS.userBuyContentToken, summary: "Buy content tokens for a user's slot (15 % / 85 %)", basic: true, request: schemas.userBuyContentTokenSchema, response: schemas.userBuyContentTokenResponseSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "provider_not_registered", "insufficient_allowance"] },
    { method: "post", path: PATHS.increaseUsedContentToken, summary: "Record spending: AES-256-CTR encrypted payload (spec 4.7, 4.8)", basic: true, request: schemas.increaseUsedContentTokenSchema, errors: ["invalid_request", "invalid_client", "invalid_encrypted_message", "encrypted_message_mismatch", "insufficient_balance", "replayed_message", "stale_message"] },
    { method: "post", path: PATHS.releaseUsedBalance, summary: "Provider settlement on used balances (operator-enabled per cuid)", basic: true, request: schemas.releaseUsedBalanceSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "release_disabled"] },
    { method: "post", path: PATHS.testEncryption, summary: "Encrypt a test string with the provider's key and IV", basic: true, request: schemas.testEncryptionSchema, response: schemas.testEncryptionResponseSchema, errors: ["invalid_request", "invalid_client", "token_user_mismatch", "provider_not_registered"] },
    { method: "get", path: `${PATHS.balanceAdex}/{slot}`, summary: "Slot balance and used_balances, read from the chain (public)", response: schemas.balanceAdexResponseSchema, errors: ["invalid_request", "slot_not_found"] },
  ];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const parameters = op.query
      ? Object.entries((json(op.query, "input") as { properties?: Record<string, unknown>; required?: string[] }).properties ?? {}).map(([name, schema]) => ({
          name,
          in: "query",
          required: ((json(op.query!, "input") as { required?: string[] }).required ?? []).includes(name),
          schema,
        }))
      : undefined;
    const requestContent: Record<string, unknown> = {};
    if (op.request) {
      requestContent["application/json"] = { schema: json(op.request, "input") };
      if (op.form) requestContent["application/x-www-form-urlencoded"] = { schema: json(op.request, "input") };
    }
    const responses: Record<string, unknown> = {
      "200": op.response ? { description: "OK", content: { "application/json": { schema: json(op.response, "output") } } } : { description: "OK" },
    };
    for (const code of op.errors) {
      const status = String(ERRORS[code as keyof typeof ERRORS].status);
      responses[status] = errorResponse([...(((responses[status] as { description?: string })?.description ?? "").replace("Error: ", "").split(", ").filter(Boolean)), code]);
    }
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      ...(parameters ? { parameters } : {}),
      ...(op.request ? { requestBody: { required: true, content: requestContent } } : {}),
      ...(op.bearer ? { security: [{ bearer: [] }] } : {}),
      ...(op.basic ? { security: [{ clientBasic: [] }] } : {}),
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
