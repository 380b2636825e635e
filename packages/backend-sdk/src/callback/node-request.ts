/** A request from Express, Fastify, Koa or `node:http`: whatever carries the URL or a parsed query. */
export interface CallbackRequestLike {
  /** Express: the URL before router mounting rewrote it. */
  originalUrl?: string;
  /** `node:http`, Express, Fastify, Koa: path and query string. */
  url?: string;
  /** A parsed query object (used only when no URL string is available). */
  query?: unknown;
  /** The HTTP method, when known. */
  method?: string;
  /**
   * Node's header object (`IncomingHttpHeaders`). Not read; typed so that a WHATWG `Request`, whose
   * `headers` is a `Headers`, never matches this shape and takes the web-standard signature instead.
   */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function queryOf(req: CallbackRequestLike): string {
  const url = typeof req.originalUrl === "string" ? req.originalUrl : req.url;
  if (typeof url === "string") {
    const q = url.indexOf("?");
    return q === -1 ? "" : url.slice(q + 1);
  }
  const search = new URLSearchParams();
  if (req.query !== null && typeof req.query === "object") {
    for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
      for (const v of Array.isArray(value) ? value : [value]) if (typeof v === "string") search.append(name, v);
    }
  }
  return search.toString();
}

function pathOf(req: CallbackRequestLike): string {
  const url = typeof req.originalUrl === "string" ? req.originalUrl : req.url;
  if (typeof url !== "string") return "/";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Converts a Node framework's request to the WHATWG `Request` the callback handler reads, once. Only the
 * path, the query string and the method are carried over (the callback reads nothing else); the origin is
 * a placeholder, never used. Never throws: a path that is no valid URL path keeps only the query.
 */
export function toWebRequest(req: CallbackRequestLike): Request {
  const url = new URL("http://callback.invalid/");
  try {
    url.pathname = pathOf(req);
  } catch {
    // the path is not needed to read the callback
  }
  url.search = queryOf(req);
  const method = typeof req.method === "string" && METHODS.has(req.method.toUpperCase()) ? req.method.toUpperCase() : "POST";
  return new Request(url, { method });
}
