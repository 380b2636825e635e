import type { PendingWriteResponse } from "@slotgate/protocol";
import { ENDPOINTS, type EndpointInput, type EndpointName } from "@slotgate/protocol/endpoints";
import { primitives } from "@slotgate/protocol/schemas";
import { SlotgateBackendError } from "../errors.js";
import { resolveFetch } from "../http/request.js";
import { type RetryOptions, retryPolicy } from "../http/retry.js";
import { type FetchLike, type SleepFn, httpUrl, invalid } from "../options.js";
import { defaultSleep } from "../status/status-sync.js";
import { type ApiCallOptions, type ApiContext, type CallAnswer, type CallAuth, callEndpoint, lookUpWrite } from "./call-endpoint.js";
import { DEFAULT_PENDING_TIMEOUT_MS, pendingTimeout, settledAnswer } from "./chain-writes.js";

/** Options of {@link SlotgateApi}. */
export interface SlotgateApiOptions {
  /** Base URL of the Slotgate service, e.g. `https://auth.example`. */
  authServerUrl: string;
  /**
   * `fetch` used for every request, resolved at call time (so a fetch patched later, e.g. by MSW, is used).
   * @default globalThis.fetch
   */
  fetch?: FetchLike;
  /**
   * Retries of the writes (the rows that move money or ownership) within a call, always with the call's one
   * `Idempotency-Key`: on network errors, 429, 502, 503 and 504, honouring `Retry-After`, else with
   * exponential backoff and jitter. Other rows are sent once unless a call asks for retries. `false`
   * sends each write once.
   * @default { attempts: 4, baseDelayMs: 250, maxDelayMs: 30000 }
   */
  retry?: RetryOptions | false;
  /**
   * How long a write the service answered `202` for (accepted, not landed yet) is followed through
   * `GET /v1/chain/writes/{write_id}` before the call throws `write_pending` with the `writeId`. `0` throws at once.
   * @default 30000
   */
  pendingTimeoutMs?: number;
  /**
   * Sleep between attempts and between write lookups (inject a fake in tests).
   * @default a `setTimeout` based sleep that honours the signal
   */
  sleep?: SleepFn;
}

/**
 * The validated context of a {@link SlotgateApi}; the SDK's own clients call `callEndpoint` with one.
 *
 * @throws {@link SlotgateBackendError} `invalid_options` naming the bad option (never its value).
 */
export function apiContext(options: SlotgateApiOptions): ApiContext {
  if (options === null || typeof options !== "object") throw invalid("options must be an object");
  const base = httpUrl(options.authServerUrl, "authServerUrl");
  if (base.search) throw invalid("authServerUrl must not contain a query string");
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw invalid("fetch must be a function");
  if (options.sleep !== undefined && typeof options.sleep !== "function") throw invalid("sleep must be a function");
  return {
    base: base.href.replace(/\/+$/, ""),
    fetch: resolveFetch(options.fetch),
    retry: retryPolicy(options.retry, invalid),
    pendingTimeoutMs: options.pendingTimeoutMs === undefined ? DEFAULT_PENDING_TIMEOUT_MS : pendingTimeout(options.pendingTimeoutMs, invalid),
    sleep: options.sleep ?? defaultSleep,
  };
}

/**
 * A typed client of the whole Slotgate HTTP API, made from the endpoint table of `@slotgate/protocol`:
 * one {@link SlotgateApi.call} per row, its input and answer typed by the row. The SDK's own methods
 * (`SlotgateBackend`, `ContentTokenClient`) are built on it; use it for the endpoints they have no method for.
 *
 * @example
 * ```ts
 * import { SlotgateApi } from "@slotgate/backend-sdk";
 * const api = new SlotgateApi({ authServerUrl: "https://auth.example" });
 * const { slots } = await api.call("listSlots", { cu_id: "my-game" }, { bearer: accessToken });
 * const { data } = await api.call("pinRegister", { user_uuid: 7, pin_hash, pin_salt }, { bearer: accessToken });
 * ```
 */
export class SlotgateApi {
  readonly #ctx: ApiContext;

  /**
   * @throws {@link SlotgateBackendError} `invalid_options` naming the bad option (never its value).
   */
  constructor(options: SlotgateApiOptions) {
    this.#ctx = apiContext(options);
  }

  /**
   * Calls one endpoint by its name in the table (`ENDPOINTS`). The input is the row's path, query and
   * body fields in one object, checked with the row's schemas before anything is sent; `auth` is how the
   * row authenticates (a bearer token, client credentials sent as HTTP Basic, or `null`). A write (a row
   * that moves money or ownership) carries an `Idempotency-Key` (yours, or a fresh UUID reused on the
   * call's own retries) and is retried per the client's policy; its 202 is followed to the answer it stands
   * for. The answer is checked against the row's schema and returned as sent.
   *
   * @throws {@link SlotgateBackendError} `service_error` (the service's `error` and `serviceStatus`), `write_pending`
   *   (with `writeId`), `network_error`, `invalid_response`, `aborted`, or `invalid_argument` (the input, the
   *   credentials or an option, before any request)
   * @example
   * ```ts
   * const api = new SlotgateApi({ authServerUrl });
   * // A bearer row: the user's access token.
   * await api.call("statusLogout", { user_id: "7", client_id: "my-game" }, { bearer: accessToken });
   * // A write of a provider: client credentials, your own key, the answer typed by the row.
   * const bought = await api.call(
   *   "userBuyContentToken",
   *   { client_id: "my-game", user_dbkey: "7", amount: "1000", cuid: "my-game" },
   *   { clientId: "my-game", clientSecret },
   *   { idempotencyKey: `order-${order.id}`, signal: AbortSignal.timeout(10_000) },
   * );
   * console.log(bought.provider_received);
   * // A public row.
   * const { slot } = await api.call("slot", { cu_id: "my-game", meta_idx: "0" }, null);
   * ```
   */
  call<N extends EndpointName>(
    name: N,
    input: EndpointInput<(typeof ENDPOINTS)[N]>,
    auth: CallAuth,
    options?: ApiCallOptions,
  ): Promise<CallAnswer<(typeof ENDPOINTS)[N]>> {
    if (typeof name !== "string" || !Object.hasOwn(ENDPOINTS, name))
      return Promise.reject(new SlotgateBackendError("invalid_argument", { detail: "name must be an endpoint of ENDPOINTS" }));
    return callEndpoint(this.#ctx, ENDPOINTS[name], input, auth, options);
  }

  /**
   * Looks up a chain write the service answered `202` for (the `writeId` of a `write_pending` error), with
   * the credentials of the call that made it: the call's own answer once the write landed, or
   * `{ success: true, status: "pending", write_id }` while it is on its way. A write that failed throws the
   * error the call would have thrown.
   *
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `write_not_found`), `network_error`, `invalid_response`,
   *   `aborted` or `invalid_argument`
   * @example
   * ```ts
   * const answer = await api.write<ExchangeTokenOwnerResponse>(err.writeId, { bearer: accessToken });
   * if (!isPendingWrite(answer)) console.log(answer.tr_cnt);
   * ```
   */
  async write<T = Record<string, unknown>>(writeId: string, auth: CallAuth, options: { signal?: AbortSignal } = {}): Promise<T | PendingWriteResponse> {
    if (typeof writeId !== "string" || !primitives.writeId.safeParse(writeId).success) {
      throw new SlotgateBackendError("invalid_argument", { detail: "writeId must be a write_id as answered (a positive integer in decimal)" });
    }
    const { state } = await lookUpWrite(this.#ctx, writeId, auth, options?.signal);
    return (settledAnswer(state) as T | undefined) ?? { success: true, status: "pending", write_id: writeId };
  }

  /** The service's base URL, without a trailing slash. */
  get authServerUrl(): string {
    return this.#ctx.base;
  }

  /** A description (the base URL). */
  toString(): string {
    return `SlotgateApi(${this.#ctx.base})`;
  }
}
