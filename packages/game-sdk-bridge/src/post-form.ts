import { GameSdkBridgeError } from "./errors.js";

/** A Slotgate OAuth endpoint's answer: the JSON body of a 2xx, or the error fields of a refusal (printable, at most 300 characters). @internal */
export type FormAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; error: string | undefined; description: string | undefined };

/** The `cancelled` error of every flow. @internal */
export function cancelled(): GameSdkBridgeError {
  return new GameSdkBridgeError("cancelled", "The login was cancelled.");
}

/**
 * POSTs a form to a Slotgate OAuth endpoint (`/oauth/token`, `/oauth/device_authorization`) and reads
 * its JSON answer. Unreachable or a non-JSON answer: `network_error`; aborted: `cancelled`.
 * @internal
 */
export async function postForm(fetchFn: typeof fetch, url: URL, fields: Record<string, string>, signal: AbortSignal | undefined): Promise<FormAnswer> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(fields).toString(),
      ...(signal ? { signal } : {}),
    });
  } catch (cause) {
    if (signal?.aborted) throw cancelled();
    throw new GameSdkBridgeError("network_error", `The Slotgate service at ${url.origin} could not be reached.`, { cause });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    if (signal?.aborted) throw cancelled();
    body = undefined;
  }
  const record = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (!record) throw new GameSdkBridgeError("network_error", `The Slotgate service answered HTTP ${response.status} without a JSON body.`);
  if (response.ok) return { ok: true, body: record };
  const text = (v: unknown) => (typeof v === "string" ? v.replace(/[^\x20-\x7e]/g, "?").slice(0, 300) : undefined);
  return { ok: false, error: text(record["error"]), description: text(record["error_description"] ?? record["message"]) };
}
