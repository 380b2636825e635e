import type { FetchLike } from "../options.js";

/** What a request to the Slotgate service came back with. */
export type HttpOutcome =
  | { kind: "ok"; status: number; body: Record<string, unknown> }
  | { kind: "error"; status: number; error: string | undefined; message: string | undefined }
  | { kind: "invalid"; status: number }
  | { kind: "network"; cause: unknown }
  | { kind: "aborted"; cause: unknown };

/** A request without its URL; the URL is built from a base and a path. */
export interface JsonRequest {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  json?: unknown;
  signal?: AbortSignal;
}

const MAX_TEXT = 200;

/** Keeps a service-supplied string short and printable before it goes into an error message. */
export function clip(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const printable = value.replace(/[^\x20-\x7e]/g, "?");
  return printable.length > MAX_TEXT ? `${printable.slice(0, MAX_TEXT)}…` : printable;
}

/**
 * Sends one request and classifies the answer; never throws. The URL is not
 * echoed into the outcome (it may carry a state), nor is the request body.
 */
export async function requestJson(fetchFn: FetchLike, url: string, req: JsonRequest): Promise<HttpOutcome> {
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  if (req.json !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: req.method,
      headers,
      ...(req.json === undefined ? {} : { body: JSON.stringify(req.json) }),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (cause) {
    return req.signal?.aborted ? { kind: "aborted", cause: req.signal.reason } : { kind: "network", cause };
  }
  let body: unknown;
  try {
    const text = await response.text();
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    if (req.signal?.aborted) return { kind: "aborted", cause: req.signal.reason };
    body = undefined;
  }
  const record = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (response.ok) {
    return record ? { kind: "ok", status: response.status, body: record } : { kind: "invalid", status: response.status };
  }
  return { kind: "error", status: response.status, error: clip(record?.error), message: clip(record?.message) };
}

/** Builds a URL from a base (without trailing slash), a path and a query. */
export function buildUrl(base: string, path: string, query?: Record<string, string>): string {
  const qs = query ? `?${new URLSearchParams(query).toString()}` : "";
  return `${base}${path}${qs}`;
}

/** Resolves the fetch to use at call time, so a fetch patched later (e.g. by MSW) is honoured. */
export function resolveFetch(fetchFn: FetchLike | undefined): FetchLike {
  return fetchFn ?? ((input, init) => globalThis.fetch(input, init));
}
