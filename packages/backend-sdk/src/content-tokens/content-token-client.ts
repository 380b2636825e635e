import type {
  BalanceAdexResponse,
  IncreaseUsedContentTokenResponse,
  InitPermissionProviderResponse,
  PendingWriteResponse,
  ReleaseUsedBalanceResponse,
  SpendPayload,
  TestEncryptionResponse,
  UserBuyContentTokenResponse,
} from "@slotgate/protocol";
import type { ClientAuth } from "../api/call-endpoint.js";
import { SlotgateApi } from "../api/slotgate-api.js";
import type { RetryOptions } from "../http/retry.js";
import { type FetchLike, type SleepFn, clientCredentials, invalid } from "../options.js";
import { type SpendKey, encryptSpendMessage } from "../spend/encrypt-spend-message.js";

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
  readonly #clientId: string;
  readonly #auth: ClientAuth;
  readonly #api: SlotgateApi;

  /**
   * @throws {@link SlotgateBackendError} `invalid_options` naming the bad option (never its value).
   */
  constructor(options: ContentTokenClientOptions) {
    if (options === null || typeof options !== "object") throw invalid("options must be an object");
    const { clientId, clientSecret } = clientCredentials(options);
    this.#clientId = clientId;
    this.#auth = { clientId, clientSecret };
    this.#api = new SlotgateApi({
      authServerUrl: options.authServerUrl,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      ...(options.pendingTimeoutMs === undefined ? {} : { pendingTimeoutMs: options.pendingTimeoutMs }),
      ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    });
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
  write<T = Record<string, unknown>>(writeId: string, opts?: CallOptions): Promise<T | PendingWriteResponse> {
    return this.#api.write<T>(writeId, this.#auth, { ...(opts?.signal ? { signal: opts.signal } : {}) });
  }

  /**
   * Registers a cuid for this client (`init_permission_provider`). The first registration of a client returns its AES key and IV
   * (`key_issued: true`), once: store them in your secret store. A retry or a lookup of that registration answers
   * `key_issued: true` without them; a lost key is replaced by rotating it (developer center).
   * @example
   * ```ts
   * const { tx_hash, key_issued, aes_key, aes_iv } = await tokens.registerProvider({ cuid: "my-game", release_per: 50, owner_addr });
   * if (aes_key) await secrets.put("slotgate-spend-key", { key: aes_key, iv: aes_iv });
   * ```
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `cuid_taken`, `idempotency_key_reused`), `write_pending`
   *   (with `writeId`), `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   */
  registerProvider(args: { cuid: string; release_per: number; owner_addr: string }, opts?: MoneyCallOptions): Promise<InitPermissionProviderResponse> {
    return this.#api.call("initPermissionProvider", { client_id: this.#clientId, ...args }, this.#auth, opts);
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
    return this.#api.call("userBuyContentToken", { client_id: this.#clientId, ...args }, this.#auth, opts);
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
    return this.#api.call("increaseUsedContentToken", { encrypted_message }, this.#auth, opts);
  }

  /**
   * Reads a slot's balance and cumulative usage from the chain (`balance_adex`, public).
   * @example
   * ```ts
   * const { balance, used_balances } = await tokens.balance("0xabc…", { cuid: "my-game" });
   * ```
   */
  balance(slot: string, opts?: CallOptions & { cuid?: string }): Promise<BalanceAdexResponse> {
    return this.#api.call("balanceAdex", { slot, ...(opts?.cuid === undefined ? {} : { cuid: opts.cuid }) }, null, signalOf(opts));
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
    return this.#api.call("releaseUsedBalance", { client_id: this.#clientId, ...args }, this.#auth, opts);
  }

  /**
   * Asks the service to encrypt a test string with this client's key (`test_encryption`), to compare with {@link encryptWithSpendKey}.
   * @example
   * ```ts
   * const { encrypted_string } = await tokens.testEncryption("hello");
   * ```
   */
  testEncryption(test_string: string, opts?: CallOptions): Promise<TestEncryptionResponse> {
    return this.#api.call("testEncryption", { client_id: this.#clientId, test_string }, this.#auth, signalOf(opts));
  }

  /** A description without the secret. */
  toString(): string {
    return `ContentTokenClient(${this.#clientId} @ ${this.#api.authServerUrl})`;
  }

  /** `util.inspect` view without the secret. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** Only the signal of a read's options (a read takes no Idempotency-Key). */
function signalOf(opts: CallOptions | undefined): { signal?: AbortSignal } {
  return opts?.signal ? { signal: opts.signal } : {};
}
