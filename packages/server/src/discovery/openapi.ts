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
  errors: string[];
}

/**
 * The OpenAPI 3.0 document of the part-1 endpoints, generated from the protocol's zod schemas.
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
      responses,
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "Slotgate reference server", version: "0.1.0", description: "Generated from @slotgate/protocol schemas." },
    servers: [{ url: issuer }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Error: json(schemas.errorBodySchema, "output") },
    },
  };
}
