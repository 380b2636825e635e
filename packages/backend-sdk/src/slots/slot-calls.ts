import type { SlotActivateResponse, SlotListResponse, SlotResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { metaIdx } from "@slotgate/protocol/schemas";
import { type ApiContext, callEndpoint } from "../api/call-endpoint.js";
import { SlotgateBackendError } from "../errors.js";

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

/** The number of a slot: a non-negative integer (the path carries it as text; the table checks the rest). */
function checkMetaIdx(value: unknown): number {
  const parsed = metaIdx.safeParse(value);
  if (!parsed.success) throw invalidArgument(`metaIdx: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

function userArgs(args: SlotUserArgs): { auth: { bearer: string }; options: { signal?: AbortSignal } } {
  if (args === null || typeof args !== "object") throw invalidArgument("expected { accessToken, cuid }");
  if (typeof args.accessToken !== "string" || args.accessToken.trim() === "") throw invalidArgument("accessToken must be a non-empty string");
  return { auth: { bearer: args.accessToken }, options: args.signal === undefined ? {} : { signal: args.signal } };
}

/** `GET /v1/slots?cu_id=`: the user's slots of a cuid. Not retried. */
export async function listSlots(api: ApiContext, args: SlotUserArgs): Promise<SlotListResponse> {
  const { auth, options } = userArgs(args);
  return callEndpoint(api, ENDPOINTS.listSlots, { cu_id: args.cuid }, auth, options);
}

/** `POST /v1/slots`: opens another slot of a cuid for the user. Never retried: each call opens one. */
export async function openSlot(api: ApiContext, args: SlotUserArgs): Promise<SlotResponse> {
  const { auth, options } = userArgs(args);
  return callEndpoint(api, ENDPOINTS.openSlot, { cu_id: args.cuid }, auth, options);
}

/** `POST /v1/slots/activate`: makes one of the user's slots the active one. */
export async function activateSlot(api: ApiContext, args: SlotActivateArgs): Promise<SlotActivateResponse> {
  const { auth, options } = userArgs(args);
  return callEndpoint(api, ENDPOINTS.activateSlot, { cu_id: args.cuid, meta_idx: checkMetaIdx(args.metaIdx) }, auth, options);
}

/** `GET /v1/slots/{cu_id}/{meta_idx}` (public): one slot read from the chain. */
export async function readSlot(api: ApiContext, cuid: string, index: number, options?: SlotReadOptions): Promise<SlotResponse> {
  const metaIdx = String(checkMetaIdx(index));
  return callEndpoint(api, ENDPOINTS.slot, { cu_id: cuid, meta_idx: metaIdx }, null, options?.signal === undefined ? {} : { signal: options.signal });
}
