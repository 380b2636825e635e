import {
  type BalanceAdexResponse,
  type IncreaseUsedContentTokenResponse,
  type InitPermissionProviderResponse,
  PATHS,
  type ReleaseUsedBalanceResponse,
  type SpendPayload,
  type TestEncryptionResponse,
  type UserBuyContentTokenResponse,
} from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";
import { buildUrl, requestJson } from "../http/request.js";
import { type FetchLike, httpUrl, invalid } from "../options.js";
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
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** The spend payload without `client_id` (the client adds its own). */
export type SpendArgs = Omit<SpendPayload, "client_id">;

/**
 * A small typed client for the provider calls of `/v1/development-api`
 * (spec 4.7), authenticated with HTTP Basic client credentials.
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

  constructor(options: ContentTokenClientOptions) {
    if (options === null || typeof options !== "object") throw invalid("options must be an object");
    const base = httpUrl(options.authServerUrl, "authServerUrl");
    const { clientId, clientSecret } = options;
    if (typeof clientId !== "string" || clientId.trim() === "" || clientId.length > 128) {
      throw invalid("clientId must be a non-empty string of at most 128 characters");
    }
    if (typeof clientSecret !== "string" || clientSecret.trim() === "" || clientSecret.length > 512) {
      throw invalid("clientSecret must be a non-empty string of at most 512 characters");
    }
    if (options.fetch !== undefined && typeof options.fetch !== "function") throw invalid("fetch must be a function");
    this.#base = base.href.replace(/\/+$/, "");
    this.#clientId = clientId;
    // RFC 6749 2.3.1: form-urlencode each part before Basic encoding.
    const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    this.#authorization = `Basic ${btoa(basic)}`;
    const f = options.fetch;
    this.#fetch = f ?? ((input, init) => globalThis.fetch(input, init));
  }

  async #call<T>(method: "GET" | "POST", path: string, json: unknown, opts: CallOptions | undefined, auth = true): Promise<T> {
    const out = await requestJson(this.#fetch, path.startsWith("http") ? path : buildUrl(this.#base, path), {
      method,
      ...(auth ? { headers: { authorization: this.#authorization } } : {}),
      ...(json === undefined ? {} : { json }),
      ...(opts?.signal ? { signal: opts.signal } : {}),
    });
    switch (out.kind) {
      case "ok":
        return out.body as T;
      case "aborted":
        throw new SlotgateBackendError("ABORTED", { cause: out.cause });
      case "network":
        throw new SlotgateBackendError("NETWORK_ERROR", { cause: out.cause });
      case "invalid":
        throw new SlotgateBackendError("INVALID_RESPONSE", { serviceStatus: out.status });
      case "error":
        throw new SlotgateBackendError("SERVICE_ERROR", {
          detail: `${out.error ?? "error"} (HTTP ${out.status})${out.message ? ` ${out.message}` : ""}`,
          ...(out.error === undefined ? {} : { error: out.error }),
          serviceStatus: out.status,
        });
    }
  }

  /**
   * Registers a cuid for this client (`init_permission_provider`). The first registration of a client returns its AES key and IV — store them in your secret store.
   * @example
   * ```ts
   * const { tx_hash, aes_key, aes_iv } = await tokens.registerProvider({ cuid: "my-game", release_per: 50, owner_addr });
   * ```
   */
  registerProvider(args: { cuid: string; release_per: number; owner_addr: string }, opts?: CallOptions): Promise<InitPermissionProviderResponse> {
    return this.#call("POST", PATHS.initPermissionProvider, { client_id: this.#clientId, ...args }, opts);
  }

  /**
   * Buys content tokens for a user's slot (`user_buy_content_token`).
   * @example
   * ```ts
   * const r = await tokens.buy({ user_dbkey: "1001", amount: "1000", cuid: "my-game" });
   * console.log(r.token_amount, r.platform_fee, r.provider_received);
   * ```
   */
  buy(args: { user_dbkey: string; amount: string; cuid: string }, opts?: CallOptions): Promise<UserBuyContentTokenResponse> {
    return this.#call("POST", PATHS.userBuyContentToken, { client_id: this.#clientId, ...args }, opts);
  }

  /**
   * Records spending (`increase_used_content_token`) with the encrypted message of spec 4.8, built locally by {@link encryptSpendMessage}.
   * @example
   * ```ts
   * await tokens.increaseUsed({ user_dbkey: "1001", amount: "25", cuid: "my-game" }, { key, iv });
   * ```
   */
  increaseUsed(args: SpendArgs, spendKey: SpendKey, opts?: CallOptions): Promise<IncreaseUsedContentTokenResponse> {
    const encrypted_message = encryptSpendMessage({ client_id: this.#clientId, ...args }, spendKey);
    return this.#call("POST", PATHS.increaseUsedContentToken, { encrypted_message }, opts);
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
      return Promise.reject(new SlotgateBackendError("INVALID_ARGUMENT", { detail: "slot must be a 0x-prefixed 20-byte address" }));
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
   */
  release(args: { cuid: string; slot: string }, opts?: CallOptions): Promise<ReleaseUsedBalanceResponse> {
    return this.#call("POST", PATHS.releaseUsedBalance, { client_id: this.#clientId, ...args }, opts);
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
