import { randomUUID } from "node:crypto";
import { type ErrorCode, PATHS } from "@slotgate/protocol";
import { type ActorRule, type AnyEndpoint, placeInput } from "@slotgate/protocol/endpoints";
import { devUserLoginResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { z } from "zod";
import { expectError, expectJson, expectOk } from "../assertions.js";
import type { ConformanceContext } from "../context.js";
import type { CheckGroup } from "./check.js";

// Checks driven by the endpoint table (`@slotgate/protocol/endpoints`): each runs over every JSON row the
// target serves (`ctx.endpoints`), so a new row is checked the day it is added. The answers of every check
// are also held to the rows' answer schemas by `ctx.request`.

/** Headers that authenticate the suite to a row, or null when the suite has no such credentials. */
type Credentials = Record<string, string> | null;

/** The JSON rows the target serves. */
function jsonRows(ctx: ConformanceContext): AnyEndpoint[] {
  return ctx.endpoints.filter((row) => (row.transport ?? "json") === "json");
}

/** Whether a row takes credentials in a header (`client_post` travels in the body). */
function headerAuth(row: AnyEndpoint): boolean {
  return row.auth.some((method) => method !== "client_post");
}

/** The field names of a part's schema (a zod object), or none. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** A well-formed input of the row: its example, and "1" for a path parameter the example lacks. */
function exampleOf(row: AnyEndpoint): Record<string, unknown> {
  const placeholders = Object.fromEntries(fieldsOf(row.input.params).map((name) => [name, "1"]));
  return { ...placeholders, ...(row.example as Record<string, unknown> | undefined) };
}

/**
 * Sends one request to a row: `input` placed by the table (path, query, body), or `rawBody` as the JSON
 * body text instead of the input's body fields.
 */
function send(ctx: ConformanceContext, row: AnyEndpoint, input: Record<string, unknown>, headers: Record<string, string>, rawBody?: string): Promise<Response> {
  const placed = placeInput(row, input as never);
  const query = new URLSearchParams(placed.query).toString();
  const body = rawBody ?? (placed.body === undefined ? undefined : JSON.stringify(placed.body));
  return ctx.request(`${placed.path}${query ? `?${query}` : ""}`, {
    method: row.method.toUpperCase(),
    headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body }),
  });
}

/** Alice's access token at the web client, made once per context. */
const aliceTokens = new WeakMap<ConformanceContext, Promise<string>>();
function aliceToken(ctx: ConformanceContext): Promise<string> {
  let token = aliceTokens.get(ctx);
  if (!token) {
    token = ctx.accessToken(ctx.clients.web, ctx.users.alice).then((t) => t.access_token);
    aliceTokens.set(ctx, token);
  }
  return token;
}

/**
 * The suite's credentials for a row, by the first way the row accepts that the suite holds: Alice's
 * token at the web client, the developer's session, the chain client's HTTP Basic credentials, the
 * marketplace secret when the target gave it. `{}` for a public row or one authenticated in the body.
 */
async function credentialsFor(ctx: ConformanceContext, row: AnyEndpoint): Promise<Credentials> {
  for (const method of row.auth) {
    if (method === "user_bearer") return ctx.bearer(await aliceToken(ctx));
    if (method === "developer_bearer") return ctx.bearer(ctx.developer.token);
    if (method === "basic") return ctx.basic(ctx.clients.chain);
    if (method === "marketplace_bearer") {
      const secret = ctx.target.credentials?.marketplaceSecret;
      if (secret !== undefined) return ctx.bearer(secret);
    }
  }
  return headerAuth(row) ? null : {};
}

/** Asserts an error answer whose code the row lists among its error codes; returns the body. */
async function expectRowError(row: AnyEndpoint, response: Response, code: ErrorCode, what: string) {
  expect(row.errors, `${row.name} lists ${code} among its error codes`).toContain(code);
  return expectError(response, code, `${row.name} (${row.method.toUpperCase()} ${row.path}): ${what}`);
}

/** Every row that takes credentials in a header, called without them: 401 with the row's code (`invalid_token` or `invalid_client`). */
export async function tableRowsRefuseMissingCredentials(ctx: ConformanceContext): Promise<void> {
  const rows = jsonRows(ctx).filter(headerAuth);
  expect(rows.length, "rows with credentials in a header").toBeGreaterThan(0);
  for (const row of rows) {
    const response = await send(ctx, row, exampleOf(row), {});
    const code: ErrorCode = row.auth[0] === "user_bearer" || row.auth[0] === "developer_bearer" ? "invalid_token" : "invalid_client";
    await expectRowError(row, response, code, "no credentials");
  }
}

/**
 * Every row with an input, sent a bad one with good credentials: an unknown body field, a body that is not
 * an object, a missing required query parameter, a path parameter its schema refuses; each 400
 * invalid_request with field details, a code the row lists.
 */
export async function tableRowsRefuseBadInput(ctx: ConformanceContext): Promise<void> {
  let checked = 0;
  for (const row of jsonRows(ctx)) {
    const headers = await credentialsFor(ctx, row);
    if (headers === null) continue;
    const input = exampleOf(row);
    if (row.input.body) {
      const unknown = await expectRowError(
        row,
        await send(ctx, row, input, headers, JSON.stringify({ conformance_unknown_field: true })),
        "invalid_request",
        "an unknown body field",
      );
      expect(unknown.details?.length, `${row.name}: details name the fields`).toBeGreaterThan(0);
      await expectRowError(row, await send(ctx, row, input, headers, "[1,2]"), "invalid_request", "a body that is not an object");
      checked++;
    }
    const query = row.input.query as z.ZodType | undefined;
    if (query && !query.safeParse({}).success) {
      const withoutQuery = Object.fromEntries(Object.entries(input).filter(([name]) => !fieldsOf(query).includes(name)));
      const error = await expectRowError(row, await send(ctx, row, withoutQuery, headers), "invalid_request", "no query parameters");
      expect(error.details?.length, `${row.name}: details name the missing parameters`).toBeGreaterThan(0);
      checked++;
    }
    const params = row.input.params as z.ZodType | undefined;
    const bad = Object.fromEntries(fieldsOf(params).map((name) => [name, "~not valid~"]));
    if (params && !params.safeParse(bad).success) {
      await expectRowError(row, await send(ctx, row, { ...input, ...bad }, headers), "invalid_request", "path parameters its schema refuses");
      checked++;
    }
  }
  expect(checked, "rows with an input checked").toBeGreaterThan(0);
}

/** A second developer, for the rows whose client_id must be one of the caller's own applications. */
async function strangerDeveloper(ctx: ConformanceContext): Promise<string> {
  const signup = await ctx.postJson(PATHS.devUserSignup, { email: `${ctx.unique("stranger")}@conformance.test`, password: `pw-${randomUUID()}` });
  return (await expectOk(signup, devUserLoginResponseSchema, 201, "a second developer")).token;
}

/** A user id in the type the example uses for the field (`user_uuid` is a number on the wire). */
function idLike(example: unknown, id: string): string | number {
  return typeof example === "number" ? Number(id) : id;
}

/**
 * Every actor rule of every row with an example, broken one at a time with good credentials: the field
 * names another user (`user`), another client than the token's (`token_client`, with that client's
 * redirect URI where the row takes one) or than the authenticated one (`client`): 403
 * token_user_mismatch; a client application of another developer (`developer_client`): 404
 * client_not_found. The other actor fields name the caller.
 */
export async function tableRowsRefuseAnotherActor(ctx: ConformanceContext): Promise<void> {
  const { web, chain } = ctx.clients;
  const rows = jsonRows(ctx).filter((row) => (row.actors ?? []).length > 0);
  expect(rows.length, "rows with actor rules").toBeGreaterThan(0);
  let stranger: string | undefined;
  for (const row of rows) {
    expect(row.example, `${row.name} names actors, so it has an example to break`).toBeDefined();
    const example = exampleOf(row);
    const own: Record<ActorRule["is"], string> = {
      user: ctx.users.alice.user_id,
      token_client: web.client_id,
      client: chain.client_id,
      developer_client: web.client_id,
    };
    const other: Record<ActorRule["is"], string> = {
      user: ctx.users.bob.user_id,
      token_client: chain.client_id,
      client: web.client_id,
      developer_client: web.client_id,
    };
    const rules = row.actors ?? [];
    const right = { ...example, ...Object.fromEntries(rules.map((rule) => [rule.field, idLike(example[rule.field], own[rule.is])])) };
    if ("redirect_uri" in right && rules.some((rule) => rule.is === "token_client")) right["redirect_uri"] = web.redirect_uri;
    for (const rule of rules) {
      const input = { ...right, [rule.field]: idLike(example[rule.field], other[rule.is]) };
      if (rule.is === "token_client" && "redirect_uri" in input) input["redirect_uri"] = chain.redirect_uri;
      const what = `${rule.in} ${rule.field} naming another ${rule.is.replace("_", " ")}`;
      if (rule.is === "developer_client") {
        stranger ??= await strangerDeveloper(ctx);
        await expectRowError(row, await send(ctx, row, input, ctx.bearer(stranger)), "client_not_found", what);
      } else {
        const headers = await credentialsFor(ctx, row);
        expect(headers, `${row.name}: the suite holds its credentials`).not.toBeNull();
        await expectRowError(row, await send(ctx, row, input, headers!), "token_user_mismatch", what);
      }
    }
  }
}

/** `/openapi.json` describes exactly the rows the target serves: one operation per row, named by it. */
export async function openApiListsEveryRow(ctx: ConformanceContext): Promise<void> {
  const doc = await expectJson(await ctx.request(PATHS.openapi), 200, "openapi.json");
  expect(String(doc["openapi"]), "an OpenAPI 3 document").toMatch(/^3\./);
  const paths = (doc["paths"] ?? {}) as Record<string, Record<string, { operationId?: string }>>;
  const listed = Object.entries(paths).flatMap(([path, operations]) => Object.entries(operations).map(([method, op]) => `${method} ${path} ${op.operationId}`));
  const served = ctx.endpoints.map((row) => `${row.method} ${row.path} ${row.name}`);
  expect(listed.sort()).toEqual(served.sort());
}

/** The endpoint table's checks. */
export const endpointTableChecks: CheckGroup = {
  "every row with credentials in a header -> 401 without them": tableRowsRefuseMissingCredentials,
  "every row with an input -> 400 invalid_request for a bad body, query or path parameter": tableRowsRefuseBadInput,
  "every actor rule -> 403 token_user_mismatch (404 client_not_found) for another caller": tableRowsRefuseAnotherActor,
  "/openapi.json lists every row served": openApiListsEveryRow,
};
