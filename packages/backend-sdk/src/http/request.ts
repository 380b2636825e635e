import { type BackendErrorCode, SlotgateBackendError } from "../errors.js";
import type { FetchLike } from "../options.js";

/** What a request to the Slotgate service came back with. */
export type HttpOutcome =
  | { kind: "ok"; status: number; body: Record<string, unknown>; retryAfterMs?: number }
  | { kind: "error"; status: number; error: string | undefined; message: string | undefined; retryAfterMs?: number }
  | { kind: "invalid"; status: number; detail?: string }
  | { kind: "network"; cause: unknown }
  | { kind: "aborted"; cause: unknown };

/** A request without its URL; the URL is built from a base and a path. */
export interface JsonRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
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
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const after = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (response.ok) {
    return record ? { kind: "ok", status: response.status, body: record, ...after } : { kind: "invalid", status: response.status };
  }
  return { kind: "error", status: response.status, error: clip(record?.error), message: clip(record?.message), ...after };
}

/**
 * A `Retry-After` header (RFC 9110 10.2.3: delay-seconds or an HTTP-date) in milliseconds from now,
 * or undefined when absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) || /^[0-9]/.test(text) ? undefined : Math.max(0, at - now);
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

/**
 * The error of an answer that is not `ok`, for the API calls that throw: `aborted`, `network_error`,
 * `invalid_response`, or `serviceError` (default `service_error`) carrying the service's `error` and status.
 */
export function outcomeError(out: Exclude<HttpOutcome, { kind: "ok" }>, serviceError: BackendErrorCode = "service_error"): SlotgateBackendError {
  switch (out.kind) {
    case "aborted":
      return new SlotgateBackendError("aborted", { cause: out.cause });
    case "network":
      return new SlotgateBackendError("network_error", { cause: out.cause });
    case "invalid":
      return new SlotgateBackendError("invalid_response", { ...(out.detail === undefined ? {} : { detail: out.detail }), serviceStatus: out.status });
    case "error":
      return new SlotgateBackendError(serviceError, {
        detail: `${out.error ?? "error"} (HTTP ${out.status})${out.message ? ` ${out.message}` : ""}`,
        ...(out.error === undefined ? {} : { error: out.error }),
        ...(out.message === undefined ? {} : { serviceMessage: out.message }),
        serviceStatus: out.status,
      });
  }
}
