import type { z } from "zod";
import type { ErrorCode } from "../errors.js";

/** HTTP method of an endpoint (lowercase, as in OpenAPI). */
export type HttpMethod = "get" | "post" | "patch" | "delete";

/**
 * One way a caller may authenticate:
 *
 * - `basic`: a client application's credentials in HTTP Basic (`client_id:client_secret`), the provider backends.
 * - `client_post`: the client's `client_id` and `client_secret` in the body (`client_secret_post`).
 * - `user_bearer`: an end user's token as `Authorization: Bearer`: the user JWT of the popup or loopback
 *   login, or an access token of the code exchange.
 * - `developer_bearer`: a developer's session token from `login_devuser` / `signup`.
 * - `marketplace_bearer`: the marketplace's shared secret (`MARKETPLACE_SECRET`).
 *
 * An endpoint lists the ways it accepts; an empty list means anyone may call it.
 */
export type AuthMethod = "basic" | "client_post" | "user_bearer" | "developer_bearer" | "marketplace_bearer";

/**
 * How an endpoint is called: `json` (JSON in, JSON out; the server mounts these from the table), `form`
 * (an OAuth endpoint taking form-urlencoded or JSON, RFC 6749 spellings) or `page` (a browser
 * navigation answered with HTML or a redirect). `form` and `page` endpoints are listed for the
 * OpenAPI document and are mounted by hand.
 */
export type Transport = "json" | "form" | "page";

/**
 * An input field that must name the caller itself. `client`: the client authenticated by `basic`;
 * `user`: the user of the bearer token (`sub`); `token_client`: the client the bearer token was issued
 * to; all three are refused with 403 `token_user_mismatch`. `developer_client`: a client application
 * of the calling developer, refused with 404 `client_not_found` (it needs the records: the handler checks it).
 */
export interface ActorRule {
  /** Which part of the request carries the field. */
  in: "params" | "query" | "body";
  /** The field's name. */
  field: string;
  /** Whom the field must name. */
  is: "client" | "user" | "token_client" | "developer_client";
  /**
   * Codes the endpoint answers before this check, when the field also names a resource it looks up
   * first (e.g. an unknown client_id is 401 invalid_client before a token of another client is 403).
   * @default none: checked right after authentication and input parsing
   */
  checkedAfter?: readonly ErrorCode[];
}

/** The input schemas of an endpoint: one per part of the request, each a zod object. */
export interface EndpointInputSchemas {
  /** Path parameters (strings on the wire). */
  params?: z.ZodType;
  /** Query string parameters. */
  query?: z.ZodType;
  /** The request body. */
  body?: z.ZodType;
}

/** The success answers of an endpoint, by HTTP status. */
export type EndpointOutputSchemas = { readonly 200?: z.ZodType; readonly 201?: z.ZodType; readonly 202?: z.ZodType };

/** One part's fields (an empty strict object, `{ [k: string]: never }`, adds none). */
type Fields<T> = string extends keyof T ? unknown : T;
type In<S> = S extends z.ZodType ? Fields<z.input<S>> : unknown;
type Out<S> = S extends z.ZodType ? Fields<z.output<S>> : unknown;

/** The raw input of an endpoint as a client sends it: the path, query and body fields in one object. */
export type RawInput<I extends EndpointInputSchemas> = Merge<In<I["params"]> & In<I["query"]> & In<I["body"]>>;

/** The parsed input of an endpoint as the server receives it: the path, query and body fields in one object. */
export type ParsedInput<I extends EndpointInputSchemas> = Merge<Out<I["params"]> & Out<I["query"]> & Out<I["body"]>>;

type Merge<T> = unknown extends T ? Record<string, never> : { [K in keyof T]: T[K] };

/**
 * One endpoint of the Slotgate HTTP service: the single description the server mounts, the OpenAPI
 * document is generated from, and the mock service, conformance checks and SDK clients read.
 */
export interface EndpointDefinition<
  N extends string = string,
  I extends EndpointInputSchemas = EndpointInputSchemas,
  O extends EndpointOutputSchemas = EndpointOutputSchemas,
> {
  /** camelCase name, the key in `ENDPOINTS` and the SDK method name. */
  name: N;
  method: HttpMethod;
  /** Path relative to the service base URL, parameters as `{name}` (OpenAPI style). */
  path: string;
  /** @default "json" */
  transport?: Transport;
  /** The ways a caller may authenticate; empty: anyone. */
  auth: readonly AuthMethod[];
  /** Input fields that must name the caller itself. @default none */
  actors?: readonly ActorRule[];
  /** One schema per part of the request (strict objects where unknown fields are refused). */
  input: I;
  /** The success answers by status; a write also answers 202 with a pending write. */
  output: O;
  /**
   * A chain write that moves money or ownership: an `Idempotency-Key` header is honoured (the same key
   * with the same request answers the first outcome) and the answer may be 202 pending. @default false
   */
  writes?: boolean;
  /** The stable error codes it may answer besides the ones every endpoint may (rate_limited, internal_error …). */
  errors: readonly ErrorCode[];
  /** One line for the OpenAPI document. */
  summary: string;
  /** Whether browsers of any origin may call it (`Access-Control-Allow-Origin: *`). @default false */
  cors?: boolean;
  /** Served on the development chain only (`CHAIN=anvil`); left out of the OpenAPI document by default. @default false */
  development?: boolean;
  /** A valid request (the raw input), for endpoints with actor rules: checks swap its actor fields for another caller's. */
  example?: RawInput<I>;
}

/** Any endpoint definition. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds rows of every input and output type.
export type AnyEndpoint = EndpointDefinition<string, any, any>;

/**
 * The raw input a client sends to an endpoint: its path, query and body fields in one object
 * (`placeInput` splits it).
 *
 * @example
 * ```ts
 * const input: EndpointInput<typeof ENDPOINTS.activateSlot> = { cu_id: "game-1", meta_idx: 2 };
 * ```
 */
export type EndpointInput<E extends AnyEndpoint> = RawInput<E["input"]>;

/**
 * The input of an endpoint once parsed by its schemas (what the server's handler receives).
 *
 * @example
 * ```ts
 * const parsed: EndpointParsedInput<typeof ENDPOINTS.slot> = { cu_id: "game-1", meta_idx: 0 };
 * ```
 */
export type EndpointParsedInput<E extends AnyEndpoint> = ParsedInput<E["input"]>;

/**
 * A success answer of an endpoint: the union of its answers over every success status.
 *
 * @example
 * ```ts
 * const answer: EndpointOutput<typeof ENDPOINTS.activateSlot> = await response.json();
 * ```
 */
export type EndpointOutput<E extends AnyEndpoint> = {
  [S in keyof E["output"]]: E["output"][S] extends z.ZodType ? z.output<E["output"][S]> : never;
}[keyof E["output"]];

/**
 * Defines one endpoint row, keeping its literal name and schema types for `EndpointInput` and `EndpointOutput`.
 *
 * @example
 * ```ts
 * const activateSlot = defineEndpoint({
 *   name: "activateSlot", method: "post", path: "/v1/slots/activate", auth: ["user_bearer"],
 *   input: { body: slotActivateSchema }, output: { 200: slotActivateResponseSchema },
 *   errors: ["invalid_request", "invalid_token", "logout_required"], summary: "Make a slot the active one",
 * });
 * ```
 */
export function defineEndpoint<const N extends string, I extends EndpointInputSchemas, O extends EndpointOutputSchemas>(
  row: EndpointDefinition<N, I, O>,
): EndpointDefinition<N, I, O> {
  return row;
}

/**
 * The table of endpoints by name, from a list of rows.
 *
 * @example
 * ```ts
 * const table = endpointTable(activateSlot, listSlots);
 * table.activateSlot.path; // "/v1/slots/activate"
 * ```
 */
export function endpointTable<const R extends readonly AnyEndpoint[]>(...rows: R): { readonly [E in R[number] as E["name"]]: E } {
  const table: Record<string, AnyEndpoint> = {};
  for (const row of rows) {
    if (Object.hasOwn(table, row.name)) throw new Error(`endpoint ${row.name} is defined twice`);
    table[row.name] = row;
  }
  return table as { readonly [E in R[number] as E["name"]]: E };
}
