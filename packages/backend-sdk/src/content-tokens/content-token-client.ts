import {
  type BalanceAdexResponse,
  type ChainWriteResponse,
  ERRORS,
  type IncreaseUsedContentTokenResponse,
  type InitPermissionProviderResponse,
  PATHS,
  type PendingWriteResponse,
  type ReleaseUsedBalanceResponse,
  type SpendPayload,
  type TestEncryptionResponse,
  type UserBuyContentTokenResponse,
  isPendingWrite,
} from "@slotgate/protocol";
import { primitives } from "@slotgate/protocol/schemas";
import { SlotgateBackendError } from "../errors.js";
import { buildUrl, clip, outcomeError, requestJson } from "../http/request.js";
import { RETRY_DEFAULTS, type RetryOptions, type RetryPolicy, pause, requestWithRetry } from "../http/retry.js";
import { type FetchLike, type SleepFn, clientCredentials, httpUrl, invalid } from "../options.js";
import { type SpendKey, encryptSpendMessage } from "../spend/encrypt-spend-message.js";
import { defaultSleep } from "../status/status-sync.js";

/** How long a call follows a chain write the service answered 202 for, by default (ms). */
export const DEFAULT_PENDING_TIMEOUT_MS = 30_000;
/** The pace of the write lookups when the service sent no `Retry-After` (ms). */
const DEFAULT_POLL_MS = 2_000;

/** Options of {@link ContentTokenClient}. */
export interface ContentTokenClientOptions {
  /** Base URL of the Slotgate service. */
  authServerUrl: string;
  /** Your client application's id. */
  clientId: string;
  /** Your client application's secret (sent as HTTP Basic credentials; never logged or printed). */
  clientSecret: string;
  /**
   * `fetch` used for every request, resolved at call time.
   * @default globalThis.fetch
   */
  fetch?: FetchLike;
  /**
   * Retries of the money-moving calls and of {@link ContentTokenClient.write} within the call, always with
   * the call's one `Idempotency-Key`: on network errors, 429, 502, 503 and 504, honouring `Retry-After`,
   * else with exponential backoff and jitter. `false` sends each request once.
   * @default { attempts: 4, baseDelayMs: 250, maxDelayMs: 30000 }
   */
  retry?: RetryOptions | false;
  /**
   * How long a money-moving call follows a write the service answered `202` for (accepted, not landed
   * yet) by polling `GET /v1/chain/writes/{write_id}`, before it throws `write_pending` with the
   * `writeId`. `0` throws at once. Overridable per call.
   * @default 30000
   */
  pendingTimeoutMs?: number;
  /**
   * Sleep between attempts and between write lookups (inject a fake in tests).
   * @default a `setTimeout` based sleep that honours the signal
   */
  sleep?: SleepFn;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call: the request in flight, the retries and the wait for a pending write (`aborted`). */
  signal?: AbortSignal;
}

/** Options of a money-moving call ({@link ContentTokenClient.buy}, `increaseUsed`, `release`, `registerProvider`). */
export interface MoneyCallOptions extends CallOptions {
  /**
   * The call's `Idempotency-Key`: 1-255 characters of letters, digits and `. _ : ~ + / = -`.
   * Pass your own (e.g. your order id) to make a retry of the same operation across process restarts
   * safe: sent again with the same arguments, it answers the first outcome and moves nothing again.
   * @default a fresh `crypto.randomUUID()` per call, reused on the call's own retries
   */
  idempotencyKey?: string;
  /** Overrides the client's `pendingTimeoutMs` for this call. */
  pendingTimeoutMs?: number;
}

/** The spend payload without `client_id` (the client adds its own). */
export type SpendArgs = Omit<SpendPayload, "client_id">;

/**
 * A small typed client for the provider calls of `/v1/development-api`
 * (spec 4.7), authenticated with HTTP Basic client credentials.
 *
 * Money moves once: every money-moving call (`registerProvider`, `buy`, `increaseUsed`, `release`)
 * sends an `Idempotency-Key` (yours via `{ idempotencyKey }`, else a fresh UUID per call) and reuses
 * it on its own retries (network errors, 429, 502, 503, 504; `Retry-After` honoured). A write the
 * service accepted but had not landed yet (`202`) is followed until it lands, for at most
 * `pendingTimeoutMs`; after that the call throws `write_pending` with the `writeId` for {@link write}.
 *
 * @example
 * ```ts
 * import { ContentTokenClient } from "@slotgate/backend-sdk";
 * const tokens = new ContentTokenClient({ authServerUrl, clientId, clientSecret });
 * await tokens.increaseUsed({ user_dbkey: "1001", amount: "25", cuid: "my-game" }, { key, iv });
 * const { balance, used_balances } = await tokens.balance(slotAddress, { cuid: "my-game" });
 * ```
 */
export class ContentTokenClient {
  readonly #base: string;
  readonly #clientId: string;
  readonly #authorization: string;
  readonly #fetch: FetchLike;
  readonly #retry: RetryPolicy;
  readonly #pendingTimeoutMs: number;
  readonly #sleep: SleepFn;

  /**
   * @throws {@link SlotgateBackendError} `invalid_options` naming the bad option (never its value).
   */
  constructor(options: ContentTokenClientOptions) {
    if (options === null || typeof options !== "object") throw invalid("options must be an object");
    const base = httpUrl(options.authServerUrl, "authServerUrl");
    const { clientId, clientSecret } = clientCredentials(options);
    this.#base = base.href.replace(/\/+$/, "");
    this.#clientId = clientId;
    // RFC 6749 2.3.1: form-urlencode each part before Basic encoding.
    const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    this.#authorization = `Basic ${btoa(basic)}`;
    const f = options.fetch;
    this.#fetch = f ?? ((input, init) => globalThis.fetch(input, init));
    this.#retry = retryPolicy(options.retry);
    this.#pendingTimeoutMs = options.pendingTimeoutMs === undefined ? DEFAULT_PENDING_TIMEOUT_MS : pendingTimeout(options.pendingTimeoutMs, invalid);
    if (options.sleep !== undefined && typeof options.sleep !== "function") throw invalid("sleep must be a function");
    this.#sleep = options.sleep ?? defaultSleep;
  }

  /**
   * A money-moving POST: one `Idempotency-Key` for the whole call (the caller's or a fresh UUID), retried
   * per the retry policy, and a `202` followed to its answer for at most `pendingTimeoutMs`.
   */
  async #money<T>(path: string, json: unknown, opts: MoneyCallOptions | undefined): Promise<T> {
    const idempotencyKey = opts?.idempotencyKey ?? crypto.randomUUID();
    if (opts?.idempotencyKey !== undefined && !primitives.idempotencyKey.safeParse(opts.idempotencyKey).success) {
      throw new SlotgateBackendError("invalid_argument", { detail: "idempotencyKey must be 1-255 characters of letters, digits and . _ : ~ + / = -" });
    }
    const timeout = opts?.pendingTimeoutMs === undefined ? this.#pendingTimeoutMs : pendingTimeout(opts.pendingTimeoutMs, (d) => new SlotgateBackendError("invalid_argument", { detail: d }));
    const out = await requestWithRetry(
      this.#fetch,
      buildUrl(this.#base, path),
      {
        method: "POST",
        headers: { authorization: this.#authorization, "idempotency-key": idempotencyKey },
        json,
        ...(opts?.signal ? { signal: opts.signal } : {}),
      },
      this.#retry,
      this.#sleep,
    );
    if (out.status !== 202 || !isPendingWrite(out.body)) return out.body as T;
    // The id goes into the lookup's path: only the documented shape is followed.
    if (!primitives.writeId.safeParse(out.body.write_id).success) throw new SlotgateBackendError("invalid_response", { serviceStatus: 202 });
    return this.#follow<T>(out.body.write_id, out.retryAfterMs ?? DEFAULT_POLL_MS, timeout, opts?.signal);
  }

  /** Polls the write lookup, paced by `Retry-After`, until the write settles or `timeoutMs` passed (then `write_pending`). */
  async #follow<T>(writeId: string, paceMs: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let pace = paceMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new SlotgateBackendError("write_pending", {
          detail: `write ${writeId} was accepted and will land once; look it up with write("${writeId}")`,
          writeId,
          serviceStatus: 202,
        });
      }
      await pause(this.#sleep, Math.min(pace, left), signal);
      const state = await this.#lookup(writeId, signal);
      const settled = settledAnswer<T>(state.body);
      if (settled !== undefined) return settled;
      pace = state.retryAfterMs ?? pace;
    }
  }

  async #lookup(writeId: string, signal: AbortSignal | undefined) {
    const out = await requestWithRetry(
      this.#fetch,
      buildUrl(this.#base, PATHS.chainWrite.replace(":write_id", writeId)),
      { method: "GET", headers: { authorization: this.#authorization }, ...(signal ? { signal } : {}) },
      this.#retry,
      this.#sleep,
    );
    if (typeof out.body["status"] !== "string") throw new SlotgateBackendError("invalid_response", { serviceStatus: out.status });
    return out;
  }

  /**
   * Looks up a chain write the service answered `202` for (the `writeId` of a `write_pending` error):
   * answers the call's own answer once the write landed (what the call would have answered had it
   * waited), or `{ success: true, status: "pending", write_id }` while it is on its way. A write that
   * failed throws the error the call would have thrown (`service_error` with the service's `error`).
   *
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `write_not_found`: unknown, or another client's),
   *   `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * import { isPendingWrite, isSlotgateBackendError } from "@slotgate/backend-sdk";
   * try {
   *   await tokens.buy({ user_dbkey, amount: "1000", cuid }, { idempotencyKey: orderId });
   * } catch (err) {
   *   if (!isSlotgateBackendError(err, "write_pending")) throw err;
   *   await orders.markPending(orderId, err.writeId); // the purchase lands once; check back later
   * }
   * // later:
   * const answer = await tokens.write<UserBuyContentTokenResponse>(order.writeId);
   * if (!isPendingWrite(answer)) await orders.markPaid(orderId, answer.tx_hash);
   * ```
   */
  async write<T = Record<string, unknown>>(writeId: string, opts?: CallOptions): Promise<T | PendingWriteResponse> {
    if (typeof writeId !== "string" || !primitives.writeId.safeParse(writeId).success) {
      throw new SlotgateBackendError("invalid_argument", { detail: "writeId must be a write_id as answered (a positive integer in decimal)" });
    }
    const state = await this.#lookup(writeId, opts?.signal);
    return settledAnswer<T>(state.body) ?? { success: true, status: "pending", write_id: writeId };
  }

  async #call<T>(method: "GET" | "POST", path: string, json: unknown, opts: CallOptions | undefined, auth = true): Promise<T> {
    const out = await requestJson(this.#fetch, path.startsWith("http") ? path : buildUrl(this.#base, path), {
      method,
      ...(auth ? { headers: { authorization: this.#authorization } } : {}),
      ...(json === undefined ? {} : { json }),
      ...(opts?.signal ? { signal: opts.signal } : {}),
    });
    if (out.kind === "ok") return out.body as T;
    throw outcomeError(out);
  }

  /**
   * Registers a cuid for this client (`init_permission_provider`). The first registration of a client returns its AES key and IV — store them in your secret store.
   * @example
   * ```ts
   * const { tx_hash, aes_key, aes_iv } = await tokens.registerProvider({ cuid: "my-game", release_per: 50, owner_addr });
   * ```
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `cuid_taken`, `idempotency_key_reused`), `write_pending`
   *   (with `writeId`), `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   */
  registerProvider(args: { cuid: string; release_per: number; owner_addr: string }, opts?: MoneyCallOptions): Promise<InitPermissionProviderResponse> {
    return this.#money(PATHS.initPermissionProvider, { client_id: this.#clientId, ...args }, opts);
  }

  /**
   * Buys content tokens for a user's slot (`user_buy_content_token`).
   * @example
   * ```ts
   * const r = await tokens.buy({ user_dbkey: "1001", amount: "1000", cuid: "my-game" });
   * console.log(r.token_amount, r.platform_fee, r.provider_received);
   * // With your own key (e.g. the order id): calling again after a crash buys once and answers the first answer.
   * await tokens.buy({ user_dbkey: "1001", amount: "1000", cuid: "my-game" }, { idempotencyKey: `order-${order.id}` });
   * ```
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `insufficient_allowance`, `idempotency_key_reused`),
   *   `write_pending` (with `writeId`), `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   */
  buy(args: { user_dbkey: string; amount: string; cuid: string }, opts?: MoneyCallOptions): Promise<UserBuyContentTokenResponse> {
    return this.#money(PATHS.userBuyContentToken, { client_id: this.#clientId, ...args }, opts);
  }

  /**
   * Records spending (`increase_used_content_token`) with the encrypted message of spec 4.8, built locally by {@link encryptSpendMessage}.
   * @example
   * ```ts
   * await tokens.increaseUsed({ user_dbkey: "1001", amount: "25", cuid: "my-game" }, { key, iv });
   * await tokens.increaseUsed({ user_dbkey: "1001", amount: "25", cuid: "my-game" }, { key, iv }, { idempotencyKey: `round-${round.id}` });
   * ```
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `insufficient_balance`, `idempotency_key_reused`),
   *   `write_pending` (with `writeId`), `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   */
  async increaseUsed(args: SpendArgs, spendKey: SpendKey, opts?: MoneyCallOptions): Promise<IncreaseUsedContentTokenResponse> {
    // Encrypted once: every attempt of the call sends the same body under the same key.
    const encrypted_message = encryptSpendMessage({ client_id: this.#clientId, ...args }, spendKey);
    return this.#money(PATHS.increaseUsedContentToken, { encrypted_message }, opts);
  }

  /**
   * Reads a slot's balance and cumulative usage from the chain (`balance_adex`, public).
   * @example
   * ```ts
   * const { balance, used_balances } = await tokens.balance("0xabc…", { cuid: "my-game" });
   * ```
   */
  balance(slot: string, opts?: CallOptions & { cuid?: string }): Promise<BalanceAdexResponse> {
    if (typeof slot !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(slot)) {
      return Promise.reject(new SlotgateBackendError("invalid_argument", { detail: "slot must be a 0x-prefixed 20-byte address" }));
    }
    const query = opts?.cuid === undefined ? undefined : { cuid: opts.cuid };
    return this.#call("GET", buildUrl(this.#base, `${PATHS.balanceAdex}/${slot}`, query), undefined, opts, false);
  }

  /**
   * Settles a slot's usage to the provider (`release_used_balance`); fails with `release_disabled` until the operator enables it.
   * @example
   * ```ts
   * const { released_amount } = await tokens.release({ cuid: "my-game", slot });
   * ```
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `release_disabled`, `idempotency_key_reused`), `write_pending`
   *   (with `writeId`), `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   */
  release(args: { cuid: string; slot: string }, opts?: MoneyCallOptions): Promise<ReleaseUsedBalanceResponse> {
    return this.#money(PATHS.releaseUsedBalance, { client_id: this.#clientId, ...args }, opts);
  }

  /**
   * Asks the service to encrypt a test string with this client's key (`test_encryption`), to compare with {@link encryptWithSpendKey}.
   * @example
   * ```ts
   * const { encrypted_string } = await tokens.testEncryption("hello");
   * ```
   */
  testEncryption(test_string: string, opts?: CallOptions): Promise<TestEncryptionResponse> {
    return this.#call("POST", PATHS.testEncryption, { client_id: this.#clientId, test_string }, opts);
  }

  /** A description without the secret. */
  toString(): string {
    return `ContentTokenClient(${this.#clientId} @ ${this.#base})`;
  }

  /** `util.inspect` view without the secret. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** Validates a retry option into a policy (`false` is one attempt). */
function retryPolicy(retry: RetryOptions | false | undefined): RetryPolicy {
  if (retry === undefined) return RETRY_DEFAULTS;
  if (retry === false) return { ...RETRY_DEFAULTS, attempts: 1 };
  if (retry === null || typeof retry !== "object") throw invalid("retry must be an object or false");
  const { attempts = RETRY_DEFAULTS.attempts, baseDelayMs = RETRY_DEFAULTS.baseDelayMs, maxDelayMs = RETRY_DEFAULTS.maxDelayMs } = retry;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 10) throw invalid("retry.attempts must be an integer from 1 to 10");
  if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0) throw invalid("retry.baseDelayMs must be a finite number >= 0");
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < 0) throw invalid("retry.maxDelayMs must be a finite number >= 0");
  return { attempts, baseDelayMs, maxDelayMs };
}

function pendingTimeout(value: unknown, fail: (detail: string) => SlotgateBackendError): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw fail("pendingTimeoutMs must be a finite number >= 0");
  return value;
}

/**
 * The answer of a write lookup for the caller: the call's answer once `confirmed`, the call's error once
 * `failed` (thrown), undefined while pending or submitted.
 */
function settledAnswer<T>(state: Record<string, unknown>): T | undefined {
  const answer = state as Partial<ChainWriteResponse>;
  if (answer.status === "confirmed") {
    if (answer.result === null || typeof answer.result !== "object") throw new SlotgateBackendError("invalid_response", { serviceStatus: 200 });
    return answer.result as T;
  }
  if (answer.status === "failed") {
    const code = clip(answer.error?.code) ?? "error";
    const message = clip(answer.error?.message);
    const serviceStatus = (ERRORS as Record<string, { status: number } | undefined>)[code]?.status;
    throw new SlotgateBackendError("service_error", {
      detail: `${code}${serviceStatus === undefined ? "" : ` (HTTP ${serviceStatus})`}${message ? ` ${message}` : ""}`,
      error: code,
      ...(serviceStatus === undefined ? {} : { serviceStatus }),
    });
  }
  return undefined;
}
