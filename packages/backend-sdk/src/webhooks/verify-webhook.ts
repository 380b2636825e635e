import type { LoginStatusWebhookEvent } from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";
import { isWebRequest, readBodyCapped } from "../http/web-request.js";

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * `MARKETPLACE_SECRET`, the HMAC key the service signs with. During a rotation pass both the new and
   * the old secret: a signature under either is accepted.
   */
  secret: string | readonly string[];
  /** Largest accepted difference between the signature's time and now, in seconds. @default 300 */
  toleranceSeconds?: number;
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number;
}

const encoder = new TextEncoder();
/** Largest webhook body read from a `Request` (an event is a few hundred bytes). */
const MAX_WEBHOOK_BYTES = 64 * 1024;

function refused(code: "webhook_signature_invalid" | "webhook_timestamp_out_of_window" | "webhook_payload_invalid", detail: string): SlotgateBackendError {
  return new SlotgateBackendError(code, { detail });
}

/** `t=<seconds>,v1=<hex>[,v1=<hex>…]` → the time and the v1 signatures, or null when malformed. */
function parseSignature(header: string): { timestamp: number; signatures: Uint8Array[] } | null {
  let timestamp: number | null = null;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value !== undefined && /^[0-9]{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && value !== undefined && /^[0-9a-f]{64}$/.test(value))
      signatures.push(Uint8Array.from(value.match(/../g)!, (byte) => parseInt(byte, 16)));
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

function isEvent(value: unknown): value is LoginStatusWebhookEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event["id"] === "string" &&
    event["type"] === "login_status.changed" &&
    typeof event["user_id"] === "string" &&
    typeof event["client_id"] === "string" &&
    (event["status"] === "logged_in" || event["status"] === "logged_out") &&
    event["transfer_enabled"] === (event["status"] === "logged_out") &&
    typeof event["timestamp"] === "string" &&
    !Number.isNaN(Date.parse(event["timestamp"]))
  );
}

/**
 * Verifies a login-status webhook as the marketplace receives it and returns its event: the
 * `Slotgate-Signature` header must carry a `v1` HMAC-SHA256 of `t + "." + body` under `secret` (compared
 * in constant time by WebCrypto) and a time `t` within `toleranceSeconds` of now; the body must be a
 * `login_status.changed` event. Pass the body exactly as received (the raw bytes, before any JSON
 * parsing). Refusals are {@link SlotgateBackendError}s `webhook_signature_invalid`,
 * `webhook_timestamp_out_of_window` and `webhook_payload_invalid` (answer them 400: the service retries
 * non-2xx answers). Deliveries are at least once and may come late or out of order: deduplicate by
 * `event.id` and keep the latest `event.timestamp` per (`user_id`, `client_id`).
 *
 * @example
 * ```ts
 * app.post("/webhooks/slotgate", express.raw({ type: "application/json" }), async (req, res) => {
 *   try {
 *     const event = await verifyWebhook(req.body, req.get("Slotgate-Signature"), { secret: process.env.MARKETPLACE_SECRET! });
 *     await recordStatusOnce(event); // by event.id
 *     res.sendStatus(204);
 *   } catch (error) {
 *     res.status(isSlotgateBackendError(error) ? error.status : 500).end();
 *   }
 * });
 * ```
 */
export function verifyWebhook(
  body: string | Uint8Array,
  signatureHeader: string | null | undefined,
  options: VerifyWebhookOptions,
): Promise<LoginStatusWebhookEvent>;
/**
 * The same check on web standards: reads the raw body (at most 64 KiB, else `webhook_payload_invalid`)
 * and the `Slotgate-Signature` header from a WHATWG `Request` (Next.js route handlers, Hono, Bun, Deno,
 * Workers). The request's body is consumed.
 *
 * @example
 * ```ts
 * // Next.js App Router: app/webhooks/slotgate/route.ts
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verifyWebhook(request, { secret: process.env.MARKETPLACE_SECRET! });
 *     await recordStatusOnce(event); // by event.id
 *     return new Response(null, { status: 204 });
 *   } catch (error) {
 *     return new Response(null, { status: isSlotgateBackendError(error) ? error.status : 500 });
 *   }
 * }
 * ```
 */
export function verifyWebhook(request: Request, options: VerifyWebhookOptions): Promise<LoginStatusWebhookEvent>;
export async function verifyWebhook(
  bodyOrRequest: string | Uint8Array | Request,
  headerOrOptions: string | null | undefined | VerifyWebhookOptions,
  maybeOptions?: VerifyWebhookOptions,
): Promise<LoginStatusWebhookEvent> {
  if (isWebRequest(bodyOrRequest)) {
    const options = headerOrOptions as VerifyWebhookOptions;
    const body = await readBodyCapped(bodyOrRequest, MAX_WEBHOOK_BYTES);
    if (!body) throw refused("webhook_payload_invalid", `the body is over ${MAX_WEBHOOK_BYTES} bytes`);
    return verifySigned(body, bodyOrRequest.headers.get("slotgate-signature"), options);
  }
  return verifySigned(bodyOrRequest, headerOrOptions as string | null | undefined, maybeOptions as VerifyWebhookOptions);
}

async function verifySigned(
  body: string | Uint8Array,
  signatureHeader: string | null | undefined,
  options: VerifyWebhookOptions,
): Promise<LoginStatusWebhookEvent> {
  if (options === null || typeof options !== "object")
    throw new SlotgateBackendError("invalid_options", { detail: "verifyWebhook needs its options ({ secret })" });
  const secrets = (typeof options.secret === "string" ? [options.secret] : [...options.secret]).filter((s) => s !== "");
  if (secrets.length === 0) throw new SlotgateBackendError("invalid_options", { detail: "verifyWebhook needs the webhook secret (MARKETPLACE_SECRET)" });
  const parsed = signatureHeader ? parseSignature(signatureHeader) : null;
  if (!parsed) throw refused("webhook_signature_invalid", "the Slotgate-Signature header is missing or is not t=<seconds>,v1=<hex>");
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(now - parsed.timestamp) > tolerance) {
    throw refused("webhook_timestamp_out_of_window", `signed at ${parsed.timestamp}, ${now - parsed.timestamp} s from now (tolerance ${tolerance} s)`);
  }
  const raw = typeof body === "string" ? encoder.encode(body) : body;
  const signed = new Uint8Array(encoder.encode(`${parsed.timestamp}.`).length + raw.length);
  signed.set(encoder.encode(`${parsed.timestamp}.`));
  signed.set(raw, signed.length - raw.length);
  let valid = false;
  for (const secret of secrets) {
    const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    for (const signature of parsed.signatures) valid ||= await crypto.subtle.verify("HMAC", key, signature, signed);
  }
  if (!valid) throw refused("webhook_signature_invalid", "no v1 signature matches the body under the secret");
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw refused("webhook_payload_invalid", "the signed body is not JSON");
  }
  if (!isEvent(event)) throw refused("webhook_payload_invalid", "the signed body is not a login_status.changed event");
  return event;
}
