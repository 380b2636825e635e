import { PATHS, type SlotActivateResponse, type SlotListResponse, type SlotResponse } from "@slotgate/protocol";
import { cuid as cuidSchema, metaIdx, slotActivateResponseSchema, slotListResponseSchema, slotResponseSchema } from "@slotgate/protocol/schemas";
import { SlotgateBackendError } from "../errors.js";
import { buildUrl, outcomeError, requestJson } from "../http/request.js";
import type { FetchLike } from "../options.js";

/** What the slot calls need from the backend. */
export interface SlotCallContext {
  fetch: FetchLike;
  authServerUrl: string;
}

/** Arguments of {@link SlotgateBackend.listSlots} and {@link SlotgateBackend.openSlot}. */
export interface SlotUserArgs {
  /** The user's access token (the slot info's `access_token`) or user JWT. */
  accessToken: string;
  /** The game's cuid (the slot info's `cu_id`). */
  cuid: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** Arguments of {@link SlotgateBackend.activateSlot}. */
export interface SlotActivateArgs extends SlotUserArgs {
  /** The number of the slot to make active (a `meta_idx` of {@link SlotgateBackend.listSlots}). */
  metaIdx: number;
}

/** Per-call options of {@link SlotgateBackend.slot}. */
export interface SlotReadOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
}

function invalidArgument(detail: string): SlotgateBackendError {
  return new SlotgateBackendError("invalid_argument", { detail });
}

function checkSignal(signal: unknown): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw invalidArgument("signal must be an AbortSignal");
}

function checkCuid(value: unknown): string {
  const parsed = cuidSchema.safeParse(value);
  if (!parsed.success) throw invalidArgument(`cuid: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

function checkMetaIdx(value: unknown): number {
  const parsed = metaIdx.safeParse(value);
  if (!parsed.success) throw invalidArgument(`metaIdx: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

function checkUserArgs(args: SlotUserArgs): void {
  if (args === null || typeof args !== "object") throw invalidArgument("expected { accessToken, cuid }");
  if (typeof args.accessToken !== "string" || args.accessToken.trim() === "") throw invalidArgument("accessToken must be a non-empty string");
  checkCuid(args.cuid);
  checkSignal(args.signal);
}

/** A protocol response schema: only whether the answer matches is used. */
interface AnswerSchema {
  safeParse(value: unknown): { success: boolean };
}

/**
 * Sends one request (never retried: opening a slot is not idempotent) and checks the answer against
 * the protocol's response schema: `invalid_response` when it does not match, the service's error as
 * `service_error` (with `error`, e.g. `logout_required`, and `serviceStatus`). The answer is returned as
 * sent (fields a newer service adds are kept).
 */
async function send<T>(
  ctx: SlotCallContext,
  url: string,
  init: { method: "GET" | "POST"; accessToken?: string; json?: unknown; signal?: AbortSignal | undefined },
  schema: AnswerSchema,
): Promise<T> {
  const out = await requestJson(ctx.fetch, url, {
    method: init.method,
    ...(init.accessToken === undefined ? {} : { headers: { authorization: `Bearer ${init.accessToken}` } }),
    ...(init.json === undefined ? {} : { json: init.json }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  if (out.kind !== "ok") throw outcomeError(out);
  if (!schema.safeParse(out.body).success) throw new SlotgateBackendError("invalid_response", { serviceStatus: out.status });
  return out.body as T;
}

/** `GET /v1/slots?cu_id=`: the user's slots of a cuid. */
export async function listSlots(ctx: SlotCallContext, args: SlotUserArgs): Promise<SlotListResponse> {
  checkUserArgs(args);
  const url = buildUrl(ctx.authServerUrl, PATHS.slots, { cu_id: args.cuid });
  return send(ctx, url, { method: "GET", accessToken: args.accessToken, signal: args.signal }, slotListResponseSchema);
}

/** `POST /v1/slots`: opens another slot of a cuid for the user. */
export async function openSlot(ctx: SlotCallContext, args: SlotUserArgs): Promise<SlotResponse> {
  checkUserArgs(args);
  const url = buildUrl(ctx.authServerUrl, PATHS.slots);
  return send(ctx, url, { method: "POST", accessToken: args.accessToken, json: { cu_id: args.cuid }, signal: args.signal }, slotResponseSchema);
}

/** `POST /v1/slots/activate`: makes one of the user's slots the active one. */
export async function activateSlot(ctx: SlotCallContext, args: SlotActivateArgs): Promise<SlotActivateResponse> {
  checkUserArgs(args);
  const index = checkMetaIdx(args.metaIdx);
  const url = buildUrl(ctx.authServerUrl, PATHS.slotActivate);
  return send(ctx, url, { method: "POST", accessToken: args.accessToken, json: { cu_id: args.cuid, meta_idx: index }, signal: args.signal }, slotActivateResponseSchema);
}

/** `GET /v1/slots/{cu_id}/{meta_idx}` (public): one slot read from the chain. */
export async function readSlot(ctx: SlotCallContext, cuid: string, index: number, options?: SlotReadOptions): Promise<SlotResponse> {
  const slotCuid = checkCuid(cuid);
  const slotIndex = checkMetaIdx(index);
  checkSignal(options?.signal);
  const path = PATHS.slot.replace(":cu_id", encodeURIComponent(slotCuid)).replace(":meta_idx", String(slotIndex));
  return send(ctx, buildUrl(ctx.authServerUrl, path), { method: "GET", signal: options?.signal }, slotResponseSchema);
}
