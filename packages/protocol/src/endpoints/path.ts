/**
 * A path of `PATHS` (`:name` parameters, Express style) in the table's OpenAPI style (`{name}`).
 *
 * @example
 * ```ts
 * apiPath("/v1/slots/:cu_id/:meta_idx"); // "/v1/slots/{cu_id}/{meta_idx}"
 * ```
 */
export function apiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

/**
 * A table path (`{name}` parameters) in Express style (`:name`), for mounting.
 *
 * @example
 * ```ts
 * routePath("/v1/slots/{cu_id}/{meta_idx}"); // "/v1/slots/:cu_id/:meta_idx"
 * ```
 */
export function routePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}
