import { z } from "zod";
import { ERRORS, type ErrorCode } from "../errors.js";
import { idempotencyKey } from "../schemas/primitives.js";
import { errorBodySchema, pendingWriteResponseSchema } from "../schemas/responses.js";
import type { AnyEndpoint, AuthMethod } from "./define.js";
import { ENDPOINTS } from "./table.js";

/** A JSON Schema (2020-12, as OpenAPI 3.1 embeds it). */
type JsonSchema = Record<string, unknown>;

/** Options of {@link buildOpenApi}. */
export interface OpenApiOptions {
  /** The rows to describe. @default every row of `ENDPOINTS` */
  endpoints?: readonly AnyEndpoint[];
  /** Describe the development-chain-only rows too. @default false */
  includeDevelopment?: boolean;
  /** `info.title`. @default "Slotgate reference server" */
  title?: string;
  /** `info.version`. @default "0.1.0" */
  version?: string;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/** The security requirement of each way to authenticate (`client_post` travels in the body: none). */
const SECURITY: Record<AuthMethod, string | null> = {
  basic: "clientBasic",
  client_post: null,
  user_bearer: "bearer",
  developer_bearer: "developerBearer",
  marketplace_bearer: "marketplaceBearer",
};

const idempotencyKeyHeader = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes retries safe: the same key with the same body answers the first answer (also while it is in flight), another body under a used key is 422 idempotency_key_reused. Kept at least 24 h, per client or user.",
  schema: jsonSchema(idempotencyKey, "input"),
};

const acceptedResponse = {
  description: "Accepted: recorded and on its way; follow Location (GET /v1/chain/writes/{write_id}) after Retry-After seconds.",
  headers: {
    Location: { schema: { type: "string" }, description: "/v1/chain/writes/{write_id}" },
    "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait before asking again" },
  },
  content: { "application/json": { schema: jsonSchema(pendingWriteResponseSchema, "output") } },
};

function parametersOf(row: AnyEndpoint, part: "params" | "query"): Array<Record<string, unknown>> {
  const schema = row.input[part] as z.ZodType | undefined;
  if (!schema) return [];
  const described = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(described.properties ?? {}).map(([name, property]) => ({
    name,
    in: part === "params" ? "path" : "query",
    required: part === "params" || (described.required ?? []).includes(name),
    schema: property,
  }));
}

function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const [status, list] of byStatus) {
    responses[String(status)] = {
      description: `Error: ${list.join(", ")}`,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return responses;
}

function operationOf(row: AnyEndpoint): Record<string, unknown> {
  const parameters = [...parametersOf(row, "params"), ...parametersOf(row, "query"), ...(row.writes ? [idempotencyKeyHeader] : [])];
  const body = row.input.body as z.ZodType | undefined;
  const requestContent: Record<string, unknown> = {};
  if (body) {
    requestContent["application/json"] = { schema: jsonSchema(body, "input") };
    if (row.transport === "form") requestContent["application/x-www-form-urlencoded"] = { schema: jsonSchema(body, "input") };
  }
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(row.output as Record<string, z.ZodType>)) {
    if (status === "202") {
      responses[status] = acceptedResponse;
    } else if (row.transport === "page") {
      responses[status] = { description: "An HTML page", content: { "text/html": { schema: { type: "string" } } } };
    } else {
      responses[status] = { description: status === "201" ? "Created" : "OK", content: { "application/json": { schema: jsonSchema(schema, "output") } } };
    }
  }
  Object.assign(responses, errorResponses(row.errors));
  const security = row.auth.map((method: AuthMethod) => SECURITY[method]).filter((name: string | null): name is string => name !== null);
  return {
    operationId: row.name,
    summary: row.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: requestContent } } : {}),
    ...(security.length > 0 ? { security: security.map((name: string) => ({ [name]: [] })) } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the service, generated from the endpoint table: one operation per row
 * (`operationId` is the row's name), parameters and bodies from its input schemas, answers from its
 * output schemas and error codes (grouped by status), the `Idempotency-Key` header and the 202 answer
 * of chain writes, and the security scheme of each way to authenticate.
 *
 * @param issuer - the service's base URL (`servers[0].url`)
 *
 * @example
 * ```ts
 * import { buildOpenApi } from "@slotgate/protocol/endpoints";
 * const doc = buildOpenApi("http://127.0.0.1:8080");
 * doc.paths["/v1/slots/activate"].post.operationId; // "activateSlot"
 * ```
 */
export function buildOpenApi(issuer: string, options: OpenApiOptions = {}) {
  const rows = (options.endpoints ?? (Object.values(ENDPOINTS) as AnyEndpoint[])).filter((row) => options.includeDevelopment || !row.development);
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const row of rows) {
    paths[row.path] ??= {};
    paths[row.path]![row.method] = operationOf(row);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Slotgate reference server",
      version: options.version ?? "0.1.0",
      description: "Generated from the @slotgate/protocol endpoint table.",
    },
    servers: [{ url: issuer }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An end user's token: the user JWT of the popup or loopback login, or an access token.",
        },
        developerBearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A developer's session token (login_devuser, signup)." },
        marketplaceBearer: { type: "http", scheme: "bearer", description: "The marketplace's shared secret (MARKETPLACE_SECRET)." },
        clientBasic: { type: "http", scheme: "basic", description: "A client application's client_id and client_secret." },
      },
      schemas: { Error: jsonSchema(errorBodySchema, "output") },
    },
  };
}
