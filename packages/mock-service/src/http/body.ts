import { summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import type { z } from "zod";
import { HttpError } from "./http-error.js";

/** Reads the raw body, enforcing the 64 KiB limit (unless disabled by a fault). */
export async function readText(request: Request, limit: number | null): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (limit !== null && declared > limit) throw new HttpError("payload_too_large");
  const buffer = await request.arrayBuffer();
  if (limit !== null && buffer.byteLength > limit) throw new HttpError("payload_too_large");
  return new TextDecoder().decode(buffer);
}

/** Validates `data` with a schema, or throws 400 invalid_request with `details`. */
export function validate<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  // reportInput lets validationDetails tell "is required" from "wrong type" (zod 4 omits issue.input by default).
  const parsed = schema.safeParse(data, { reportInput: true });
  if (parsed.success) return parsed.data;
  const details = validationDetails(parsed.error);
  throw new HttpError("invalid_request", { message: `Invalid request: ${summarizeDetails(details)}.`, details });
}

/** Parses JSON text or throws 400 malformed_json. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError("malformed_json");
  }
}

/**
 * Reads a JSON API body as the service does: no body is `{}` (the schema then names the missing fields),
 * a body of another declared media type 415, over the limit 413, not JSON 400 malformed_json.
 */
export async function readJsonBody(request: Request, limit: number | null): Promise<unknown> {
  if (request.body === null || request.headers.get("content-length") === "0") return {};
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) throw new HttpError("unsupported_media_type");
  const text = await readText(request, limit);
  return text === "" ? {} : parseJson(text);
}

/** Reads a form (`application/x-www-form-urlencoded`) or JSON body into a string record (first value wins). */
export async function readParams(request: Request, limit: number | null): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const text = await readText(request, limit);
  if (type.startsWith("application/json")) {
    const data = parseJson(text);
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      throw new HttpError("invalid_request", { message: "The body must be a JSON object." });
    }
    return data as Record<string, unknown>;
  }
  if (type.startsWith("application/x-www-form-urlencoded") || type === "") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of new URLSearchParams(text)) if (!(key in out)) out[key] = value;
    return out;
  }
  throw new HttpError("unsupported_media_type", { message: "Send the body as application/x-www-form-urlencoded or application/json." });
}

/** The query string as a record (first value wins). */
export function queryRecord(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}
