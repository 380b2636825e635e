import type { ActorRule, AnyEndpoint, ENDPOINTS, EndpointName, EndpointOutput, EndpointParsedInput } from "@slotgate/protocol/endpoints";
import { type HttpHandler, http } from "msw";
import { z } from "zod";
import { authenticateClient, basicClient } from "../clients.js";
import { type MockContext, endpointUrl } from "../context.js";
import type { VerifiedToken } from "../jwt.js";
import type { ClientRecord } from "../state.js";
import { authenticateDev, authenticateUser } from "../tokens.js";
import { readJsonBody, validate } from "./body.js";
import { HttpError } from "./http-error.js";
import { idempotencyKeyOf, once } from "./idempotency.js";
import { guard, json } from "./respond.js";

/** Who called a simulated endpoint, as its row's `auth` authenticated them. */
export interface MockCaller {
  /** The client application (`basic` or `client_post`), else null. */
  client: ClientRecord | null;
  /** The end user's verified bearer token (`user_bearer`), else null. */
  claims: VerifiedToken | null;
  /** The developer's verified session token (`developer_bearer`), else null. */
  developer: VerifiedToken | null;
  /**
   * Runs the part of a write row that moves money or ownership under the request's `Idempotency-Key`
   * (see `once`): checks that refuse before anything moves go before it. A write row's handler must use it.
   */
  once<T>(work: () => Promise<T>): Promise<T>;
}

/** How one row is simulated, beyond what the row says. */
export interface MockEndpointOptions<E extends AnyEndpoint> {
  /** Headers of a success answer besides `Cache-Control: no-store` (and CORS for rows open to any origin). @default none */
  headers?: Record<string, string>;
  /** What a retry under the same `Idempotency-Key` is answered, from the first answer. @default the first answer */
  replay?: (first: EndpointOutput<E>) => EndpointOutput<E>;
}

/**
 * The success answer of a row, by name. A handler states it as its return type: TypeScript widens the
 * literals of an inferred answer (`success: true`) before it compares them with the row's schema.
 */
export type Answer<N extends EndpointName> = EndpointOutput<(typeof ENDPOINTS)[N]>;

/** What a simulated endpoint does: the parsed input and the caller in, the answer out. */
export type MockHandler<E extends AnyEndpoint> = (input: EndpointParsedInput<E>, caller: MockCaller, request: Request) => Promise<EndpointOutput<E>>;

const ANY_ORIGIN = { "Access-Control-Allow-Origin": "*" };

/** The caller, authenticated as the row's `auth` says (401); with both `basic` and `user_bearer`, a bearer token is a user's. */
async function authenticate(ctx: MockContext, row: AnyEndpoint, request: Request): Promise<Omit<MockCaller, "once">> {
  const caller: Omit<MockCaller, "once"> = { client: null, claims: null, developer: null };
  const bearer = /^bearer /i.test(request.headers.get("authorization") ?? "");
  if (row.auth.includes("user_bearer") && (bearer || !row.auth.includes("basic"))) caller.claims = await authenticateUser(ctx, request);
  else if (row.auth.includes("basic")) caller.client = basicClient(ctx, request);
  else if (row.auth.includes("developer_bearer")) caller.developer = await authenticateDev(ctx, request);
  return caller;
}

/** The query as a record for the row's schema; a parameter it names given twice is 400 (it must be given once). */
function queryOf(url: URL, schema: z.ZodType): Record<string, string> {
  const named = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (!(name in query)) query[name] = value;
    else if (named.includes(name)) {
      throw new HttpError("invalid_request", {
        message: `Invalid request: ${name} must be given once, as a string`,
        details: [{ path: name, message: "must be given once, as a string" }],
      });
    }
  }
  return query;
}

/** One actor rule: the field (when given) must name the caller, else 403 token_user_mismatch. */
function checkActor(rule: ActorRule, input: Record<string, unknown>, caller: Omit<MockCaller, "once">): void {
  const value = input[rule.field];
  if (value === undefined) return;
  const mismatch = (message: string) => new HttpError("token_user_mismatch", { message });
  if (rule.is === "client" && caller.client && value !== caller.client.client_id) throw mismatch(`The ${rule.field} is not the authenticated client.`);
  if (rule.is === "user" && caller.claims && String(value) !== caller.claims.sub) throw mismatch("The bearer token does not belong to this user.");
  if (rule.is === "token_client" && caller.claims && value !== caller.claims.client_id) throw mismatch("The bearer token was issued to another client.");
}

/** The CORS preflight of a row open to any origin, as the service answers it. */
function preflight(row: AnyEndpoint, url: string): HttpHandler {
  const headers: Record<string, string> = {
    ...ANY_ORIGIN,
    "Access-Control-Allow-Methods": `${row.method.toUpperCase()}, OPTIONS`,
    "Access-Control-Max-Age": "600",
  };
  if (row.auth.length > 0 || row.input.body) headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type";
  return http.options(url, () => new Response(null, { status: 204, headers }));
}

/**
 * Simulates one JSON endpoint of the table with the service's one preamble, in the service's order:
 * the body read (415, 413, 400 malformed_json; no body is `{}`), the caller authenticated as the row's
 * `auth` says (401), path parameters, query and body parsed once with the row's schemas (400
 * invalid_request with field details), `client_post` credentials of the body (401), the `Idempotency-Key`
 * of a write (400 when malformed), the row's actor rules (403 token_user_mismatch; a `developer_client`
 * rule and a rule checked after the handler's own lookups are the handler's), then `run`. The answer is
 * JSON with `Cache-Control: no-store`, 201 when the row answers 201; rows open to any origin carry
 * `Access-Control-Allow-Origin: *` (errors too) and get a preflight. Errors answer the contract's body.
 *
 * @example
 * ```ts
 * mockEndpoint(ctx, ENDPOINTS.activateSlot, {}, async (input, { claims }) => ({
 *   success: true,
 *   active: slotView(ctx, activate(ctx, claims!.sub, input.cu_id, input.meta_idx)),
 * }));
 * ```
 */
export function mockEndpoint<E extends AnyEndpoint>(
  ctx: MockContext,
  row: E,
  options: MockEndpointOptions<NoInfer<E>>,
  run: MockHandler<NoInfer<E>>,
): HttpHandler[] {
  if ((row.transport ?? "json") !== "json") throw new Error(`${row.name} is a ${row.transport} endpoint: simulate it by hand`);
  if (row.auth.includes("marketplace_bearer")) throw new Error(`${row.name}: the simulated service keeps no marketplace secret`);
  const url = endpointUrl(ctx, row);
  const cors = row.cors ? ANY_ORIGIN : {};
  const status = "201" in row.output ? 201 : 200;
  const skipUserRules = ctx.faults.skipTokenUserCheck === true;
  const actors = (row.actors ?? []).filter((rule) => rule.is !== "developer_client" && !rule.checkedAfter && !(skipUserRules && rule.is !== "client"));
  const handler = http[row.method](url, ({ request, params }) =>
    guard(
      async () => {
        await ctx.ready();
        const body = row.input.body ? await readJsonBody(request, ctx.bodyLimit) : undefined;
        const who = await authenticate(ctx, row, request);
        const input: Record<string, unknown> = {
          ...(row.input.params ? validate(row.input.params, { ...params }) : {}),
          ...(row.input.query ? validate(row.input.query, queryOf(new URL(request.url), row.input.query)) : {}),
          ...(row.input.body ? validate(row.input.body, body) : {}),
        };
        if (row.auth.includes("client_post")) who.client = authenticateClient(ctx, String(input["client_id"]), String(input["client_secret"]));
        const key = row.writes ? idempotencyKeyOf(request) : undefined;
        for (const rule of actors) checkActor(rule, input, who);
        const scope = who.client ? `client:${who.client.client_id}` : `user:${who.claims?.sub ?? who.developer?.sub}`;
        const write = { scope, key, fingerprint: `${new URL(request.url).pathname} ${JSON.stringify(input)}` };
        let wrote = false;
        const caller: MockCaller = {
          ...who,
          once: (work) => {
            wrote = true;
            return once(ctx, write, work, options.replay as never);
          },
        };
        const answer = await run(input as EndpointParsedInput<NoInfer<E>>, caller, request);
        if (row.writes && !wrote) throw new Error(`${row.name} is a write: its handler must move money through caller.once`);
        return json(answer, status, { "Cache-Control": "no-store", ...cors, ...options.headers });
      },
      { headers: cors },
    ),
  );
  return row.cors ? [preflight(row, url), handler] : [handler];
}
