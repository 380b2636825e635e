import { type ChainWriteResponse, type PendingWriteResponse, isPendingWrite } from "@slotgate/protocol";
import { type AnyEndpoint, ENDPOINTS, type EndpointOutput, fillPath, splitInput } from "@slotgate/protocol/endpoints";
import { primitives, summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import { SlotgateBackendError } from "../errors.js";
import { type JsonRequest, buildUrl, outcomeError } from "../http/request.js";
import { type FailureError, type RetryOptions, type RetryPolicy, requestWithRetry, retryPolicy } from "../http/retry.js";
import type { FetchLike, SleepFn } from "../options.js";
import { followWrite, pendingTimeout } from "./chain-writes.js";

/** An end user's token, a developer's session token or the marketplace secret, sent as `Authorization: Bearer`. */
export interface BearerAuth {
  bearer: string;
}

/** A client application's credentials, sent as HTTP Basic (`client_id:client_secret`, each form-urlencoded). */
export interface ClientAuth {
  clientId: string;
  clientSecret: string;
}

/**
 * How a call authenticates: a bearer token, client credentials, or `null` for a public endpoint and
 * one that takes the client's credentials in its input (`client_post`).
 */
export type CallAuth = BearerAuth | ClientAuth | null;

/** Per-call options of {@link SlotgateApi.call}. */
export interface ApiCallOptions {
  /**
   * The `Idempotency-Key` of a write (a row that moves money or ownership): 1-255 characters of letters,
   * digits and `. _ : ~ + / = -`. Pass your own (e.g. your order id) to make a retry across process
   * restarts safe: the same call again answers the first outcome and moves nothing again. Refused for a
   * row that does not write.
   * @default a fresh `crypto.randomUUID()` per call of a write, reused on the call's own retries
   */
  idempotencyKey?: string;
  /** Cancels the call: the request in flight, the retries and the wait for a pending write (`aborted`). */
  signal?: AbortSignal;
  /** How long a write the service answered 202 for is followed before `write_pending`. @default the client's `pendingTimeoutMs` */
  pendingTimeoutMs?: number;
  /**
   * Retries of this call (network errors, 429, 502, 503, 504), always with the one `Idempotency-Key`.
   * @default the client's `retry` for a write; one attempt for any other row
   */
  retry?: RetryOptions | false;
}

/** A row's success answer once settled: a write's 202 is followed to the answer it stands for. */
export type CallAnswer<E extends AnyEndpoint> = Exclude<EndpointOutput<E>, PendingWriteResponse>;

/** What a call needs from its client. */
export interface ApiContext {
  /** Base URL without a trailing slash. */
  base: string;
  fetch: FetchLike;
  /** The retry policy of writes. */
  retry: RetryPolicy;
  pendingTimeoutMs: number;
  sleep: SleepFn;
}

const ONE_ATTEMPT: RetryPolicy = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
const BEARER_METHODS = new Set(["user_bearer", "developer_bearer", "marketplace_bearer"]);

function invalidArgument(detail: string): SlotgateBackendError {
  return new SlotgateBackendError("invalid_argument", { detail });
}

/** The `Authorization` header of a call, checked against the ways the row accepts (`invalid_argument`). */
function authorization(row: AnyEndpoint, auth: CallAuth): Record<string, string> {
  if (auth === null || auth === undefined) {
    if (row.auth.length > 0 && !row.auth.includes("client_post")) throw invalidArgument(`${row.name} needs credentials (${row.auth.join(" or ")})`);
    return {};
  }
  if (typeof auth !== "object") throw invalidArgument("auth must be { bearer }, { clientId, clientSecret } or null");
  if ("bearer" in auth) {
    if (!row.auth.some((method) => BEARER_METHODS.has(method))) throw invalidArgument(`${row.name} takes no bearer token`);
    if (typeof auth.bearer !== "string" || auth.bearer.trim() === "") throw invalidArgument("auth.bearer must be a non-empty string");
    return { authorization: `Bearer ${auth.bearer}` };
  }
  if (!row.auth.includes("basic")) throw invalidArgument(`${row.name} takes no client credentials`);
  if (typeof auth.clientId !== "string" || auth.clientId === "" || typeof auth.clientSecret !== "string" || auth.clientSecret === "") {
    throw invalidArgument("auth.clientId and auth.clientSecret must be non-empty strings");
  }
  // RFC 6749 2.3.1: form-urlencode each part before Basic encoding.
  return { authorization: `Basic ${btoa(`${encodeURIComponent(auth.clientId)}:${encodeURIComponent(auth.clientSecret)}`)}` };
}

/** The input split by part and each part checked with the row's schema (`invalid_argument` naming the fields). */
function checkedInput(row: AnyEndpoint, input: unknown): ReturnType<typeof splitInput> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw invalidArgument(`${row.name}: input must be an object`);
  const parts = splitInput(row, input as Record<string, unknown>);
  if (parts.body === undefined) {
    const placed = new Set([...Object.keys(parts.params), ...Object.keys(parts.query)]);
    const unknown = Object.entries(input).filter(([name, value]) => value !== undefined && !placed.has(name));
    if (unknown.length > 0) throw invalidArgument(`${row.name}: unknown field ${unknown.map(([name]) => name).join(", ")}`);
  }
  for (const [part, value] of [
    ["params", parts.params],
    ["query", parts.query],
    ["body", parts.body],
  ] as const) {
    const schema = row.input[part];
    if (!schema) continue;
    const parsed = schema.safeParse(value, { reportInput: true });
    if (!parsed.success) throw invalidArgument(`${row.name}: ${summarizeDetails(validationDetails(parsed.error))}`);
  }
  return parts;
}

/** The checked `Idempotency-Key` of a write (the caller's or a fresh UUID); refused for a row that does not write. */
function idempotencyKey(row: AnyEndpoint, given: unknown): string | undefined {
  if (!row.writes) {
    if (given !== undefined) throw invalidArgument(`${row.name} moves nothing: it takes no idempotencyKey`);
    return undefined;
  }
  if (given === undefined) return crypto.randomUUID();
  if (typeof given !== "string" || !primitives.idempotencyKey.safeParse(given).success) {
    throw invalidArgument("idempotencyKey must be 1-255 characters of letters, digits and . _ : ~ + / = -");
  }
  return given;
}

/** Whether an answer matches the row's schema for its status; the answer itself is kept as sent (newer fields too). */
function declared(row: AnyEndpoint, status: number, body: unknown): boolean {
  const schema = (row.output as Record<string, { safeParse(value: unknown): { success: boolean } } | undefined>)[String(status)];
  return schema?.safeParse(body).success === true;
}

/** A row's answer as sent, checked against the row's schema for its status. */
interface Answered {
  status: number;
  body: Record<string, unknown>;
  retryAfterMs?: number;
}

/** Sends one call of a row (with its retries) and checks the answer against the row's schema for its status. */
async function send(ctx: ApiContext, row: AnyEndpoint, input: unknown, auth: CallAuth, options: ApiCallOptions, failure: FailureError): Promise<Answered> {
  if (options === null || typeof options !== "object") throw invalidArgument("options must be an object");
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw invalidArgument("signal must be an AbortSignal");
  const headers = authorization(row, auth);
  const parts = checkedInput(row, input);
  const key = idempotencyKey(row, options.idempotencyKey);
  const policy = options.retry !== undefined ? retryPolicy(options.retry, invalidArgument) : row.writes ? ctx.retry : ONE_ATTEMPT;
  const query = Object.fromEntries(Object.entries(parts.query).map(([name, value]) => [name, String(value)]));
  const request: JsonRequest = {
    method: row.method.toUpperCase() as JsonRequest["method"],
    headers: { ...headers, ...(key === undefined ? {} : { "idempotency-key": key }) },
    ...(parts.body === undefined ? {} : { json: parts.body }),
    ...(signal ? { signal } : {}),
  };
  const url = buildUrl(ctx.base, fillPath(row, parts.params), Object.keys(query).length > 0 ? query : undefined);
  const out = await requestWithRetry(ctx.fetch, url, request, policy, ctx.sleep, failure);
  if (!declared(row, out.status, out.body)) throw failure({ kind: "invalid", status: out.status, detail: `the answer is not ${row.name}'s documented answer` });
  return out;
}

/**
 * Calls one row of the endpoint table: the input checked with the row's schemas and placed on the wire
 * (path, query, JSON body), the credentials as the row accepts them, the `Idempotency-Key` of a write;
 * retried per the policy; the answer checked against the row's schema for its status; a write's 202
 * followed through the write lookup (with the same credentials) to the answer it stands for. Failures
 * are thrown as `fail` makes them (by default the SDK's `service_error`, `network_error`,
 * `invalid_response`, `aborted`).
 */
export async function callEndpoint<E extends AnyEndpoint>(
  ctx: ApiContext,
  row: E,
  input: unknown,
  auth: CallAuth,
  options: ApiCallOptions = {},
  fail: FailureError = (failed) => outcomeError(failed),
): Promise<CallAnswer<E>> {
  const out = await send(ctx, row, input, auth, options, fail);
  if (out.status !== 202 || !isPendingWrite(out.body)) return out.body as CallAnswer<E>;
  // The id goes into the lookup's path: only the documented shape is followed.
  if (!primitives.writeId.safeParse(out.body.write_id).success) throw fail({ kind: "invalid", status: 202 });
  const timeout = options.pendingTimeoutMs === undefined ? ctx.pendingTimeoutMs : pendingTimeout(options.pendingTimeoutMs, invalidArgument);
  const settled = await followWrite(
    ctx,
    (writeId) => lookUpWrite(ctx, writeId, auth, options.signal),
    out.body.write_id,
    out.retryAfterMs,
    timeout,
    options.signal,
  );
  if (!declared(row, 200, settled)) throw fail({ kind: "invalid", status: 200, detail: `the settled write is not ${row.name}'s documented answer` });
  return settled as CallAnswer<E>;
}

/** One look at a chain write (`GET /v1/chain/writes/{write_id}`) with the credentials of the call that made it, retried as writes are. */
export async function lookUpWrite(
  ctx: ApiContext,
  writeId: string,
  auth: CallAuth,
  signal: AbortSignal | undefined,
): Promise<{ state: ChainWriteResponse; retryAfterMs?: number }> {
  const out = await send(ctx, ENDPOINTS.chainWrite, { write_id: writeId }, auth, { retry: ctx.retry, ...(signal ? { signal } : {}) }, (failed) =>
    outcomeError(failed),
  );
  return { state: out.body as unknown as ChainWriteResponse, ...(out.retryAfterMs === undefined ? {} : { retryAfterMs: out.retryAfterMs }) };
}
