import type { CallbackParams } from "../slot-info/pending-store.js";

/** A request from Express, Fastify, Koa or `node:http`: whatever carries the URL or a parsed query. */
export interface CallbackRequestLike {
  /** Express: the URL before router mounting rewrote it. */
  originalUrl?: string;
  /** `node:http`, Express, Fastify, Koa: path and query string. */
  url?: string;
  /** A parsed query object (used only when no URL string is available). */
  query?: unknown;
}

const FIELDS = ["state", "code", "success", "error"] as const;
const MAX_VALUE = 2048;

function fromSearch(search: URLSearchParams): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of FIELDS) {
    const all = search.getAll(name);
    // A repeated parameter is ambiguous: treat it as absent.
    out[name] = all.length === 1 ? all[0] : undefined;
  }
  return out;
}

function fromObject(query: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of FIELDS) {
    const v = query[name];
    out[name] = typeof v === "string" ? v : undefined;
  }
  return out;
}

/**
 * Reads `state`, `code`, `success` and `error` from the callback's query
 * string. Returns `null` when the request carries no usable state.
 */
export function readCallbackParams(req: CallbackRequestLike): CallbackParams | null {
  let raw: Record<string, string | undefined>;
  const url = typeof req.originalUrl === "string" ? req.originalUrl : req.url;
  if (typeof url === "string") {
    const q = url.indexOf("?");
    raw = fromSearch(new URLSearchParams(q === -1 ? "" : url.slice(q + 1)));
  } else if (req.query !== null && typeof req.query === "object") {
    raw = fromObject(req.query as Record<string, unknown>);
  } else {
    return null;
  }
  const { state, code, success, error } = raw;
  if (state === undefined || state === "" || state.length > MAX_VALUE) return null;
  const params: CallbackParams = { state };
  if (code !== undefined && code !== "" && code.length <= MAX_VALUE) params.code = code;
  if (success !== undefined && success.length <= 16) params.success = success;
  if (error !== undefined && /^[A-Za-z0-9_.:-]{1,64}$/.test(error)) params.error = error;
  return params;
}
