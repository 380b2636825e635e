/**
 * The endpoint table of the Slotgate HTTP service: one row per endpoint with its method, path, who may
 * call it and how, request and answer schemas, whether it is an idempotent chain write, and its error
 * codes. The server mounts its JSON routes from it, `/openapi.json` is generated from it, and clients
 * are made from it.
 *
 * This entry point depends on zod, like `@slotgate/protocol/schemas`.
 *
 * @example
 * ```ts
 * import { ENDPOINTS, placeInput } from "@slotgate/protocol/endpoints";
 * const row = ENDPOINTS.activateSlot;
 * const { path, body } = placeInput(row, { cu_id: "game-1", meta_idx: 2 });
 * await fetch(new URL(path, base), { method: row.method.toUpperCase(), headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" }, body: JSON.stringify(body) });
 * ```
 *
 * @packageDocumentation
 */
export { fillPath, type InputParts, placeInput, type PlacedInput, splitInput } from "./endpoints/client.js";
export {
  defineEndpoint,
  endpointTable,
  type ActorRule,
  type AnyEndpoint,
  type AuthMethod,
  type EndpointDefinition,
  type EndpointInput,
  type EndpointInputSchemas,
  type EndpointOutput,
  type EndpointOutputSchemas,
  type EndpointParsedInput,
  type HttpMethod,
  type Transport,
} from "./endpoints/define.js";
export { EXAMPLE } from "./endpoints/examples.js";
export { buildOpenApi, type OpenApiOptions } from "./endpoints/openapi.js";
export { apiPath, routePath } from "./endpoints/path.js";
export { ENDPOINTS, type EndpointName } from "./endpoints/table.js";
