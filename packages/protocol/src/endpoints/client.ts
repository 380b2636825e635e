import { z } from "zod";
import type { AnyEndpoint, EndpointInput } from "./define.js";

/** The field names of an input schema (a zod object), or none. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * The endpoint's path with its `{name}` parameters filled in (each URL-encoded).
 *
 * @throws Error when a parameter is missing.
 *
 * @example
 * ```ts
 * fillPath(ENDPOINTS.slot, { cu_id: "game-1", meta_idx: 0 }); // "/v1/slots/game-1/0"
 * ```
 */
export function fillPath(row: Pick<AnyEndpoint, "path" | "name">, params: Record<string, unknown>): string {
  return row.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === "") throw new Error(`${row.name}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** Where each part of an endpoint's input goes on the wire. */
export interface PlacedInput {
  /** The path with its parameters filled in. */
  path: string;
  /** Query parameters (strings; absent values left out). */
  query: Record<string, string>;
  /** The JSON body, or undefined when the endpoint takes none. */
  body: Record<string, unknown> | undefined;
}

/** An endpoint's flat input split by part, as its schemas name the fields. */
export interface InputParts {
  /** Fields of the `params` schema (the path parameters). */
  params: Record<string, unknown>;
  /** Fields of the `query` schema. */
  query: Record<string, unknown>;
  /** The other fields, when the endpoint takes a body; undefined otherwise. */
  body: Record<string, unknown> | undefined;
}

/**
 * Splits an endpoint's flat input into its parts: fields of the `params` schema, fields of the `query`
 * schema, and the rest as the body (when the endpoint takes one). A client validates each part with the
 * row's schema for it, and `placeInput` puts them on the wire.
 *
 * @example
 * ```ts
 * splitInput(ENDPOINTS.balanceAdex, { slot: "0xabc…", cuid: "game-1" });
 * // { params: { slot: "0xabc…" }, query: { cuid: "game-1" }, body: undefined }
 * ```
 */
export function splitInput(row: AnyEndpoint, input: Record<string, unknown>): InputParts {
  const fields = { ...input };
  const take = (schema: z.ZodType | undefined) => {
    const part: Record<string, unknown> = {};
    for (const name of fieldsOf(schema)) {
      if (fields[name] !== undefined) part[name] = fields[name];
      delete fields[name];
    }
    return part;
  };
  const params = take(row.input.params);
  const query = take(row.input.query);
  return { params, query, body: row.input.body ? fields : undefined };
}

/**
 * Splits an endpoint's flat input into path, query and body: fields of the `params` schema fill the
 * path, fields of the `query` schema become the query string, the rest is the body (when the endpoint
 * takes one). A client made from the table sends `{ method: row.method, path, query, body }`.
 *
 * @example
 * ```ts
 * const placed = placeInput(ENDPOINTS.balanceAdex, { slot: "0xabc…", cuid: "game-1" });
 * // { path: "/v1/development-api/balance_adex/0xabc…", query: { cuid: "game-1" }, body: undefined }
 * const url = new URL(placed.path, base);
 * for (const [k, v] of Object.entries(placed.query)) url.searchParams.set(k, v);
 * ```
 */
export function placeInput<E extends AnyEndpoint>(row: E, input: EndpointInput<E>): PlacedInput {
  const parts = splitInput(row, input as Record<string, unknown>);
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(parts.query)) if (value !== null) query[name] = String(value);
  return { path: fillPath(row, parts.params), query, body: parts.body };
}
