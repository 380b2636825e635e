import type { CallbackParams } from "../slot-info/pending-store.js";

const FIELDS = ["state", "code", "success", "error"] as const;
const MAX_VALUE = 2048;

/**
 * Reads `state`, `code`, `success` and `error` from the callback's query
 * string (the body is ignored). A repeated parameter is ambiguous and counts
 * as absent. Returns `null` when the request carries no usable state.
 */
export function readCallbackParams(request: Request): CallbackParams | null {
  let search: URLSearchParams;
  try {
    search = new URL(request.url).searchParams;
  } catch {
    return null;
  }
  const raw: Record<string, string | undefined> = {};
  for (const name of FIELDS) {
    const all = search.getAll(name);
    raw[name] = all.length === 1 ? all[0] : undefined;
  }
  const { state, code, success, error } = raw;
  if (state === undefined || state === "" || state.length > MAX_VALUE) return null;
  const params: CallbackParams = { state };
  if (code !== undefined && code !== "" && code.length <= MAX_VALUE) params.code = code;
  if (success !== undefined && success.length <= 16) params.success = success;
  if (error !== undefined && /^[A-Za-z0-9_.:-]{1,64}$/.test(error)) params.error = error;
  return params;
}

/** The answer to every callback: 200 `{"success":true}`, never cached (the same for unknown or malformed ones). */
export function callbackAnswer(): Response {
  return new Response('{"success":true}', {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}
