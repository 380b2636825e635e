// Every call this marketplace makes to the Slotgate HTTP API, in one place (the sign-in itself goes through
// @slotgate/backend-sdk's getSlotInfo). The slot reads go through the backend SDK (`SlotgateBackend.listSlots` and
// `slot`); the calls it has no method for (listing_allowed, PIN registration, exchange_token_owner, the chain write
// lookup) are made here with the protocol's PATHS and types.
import { SlotgateBackendError, type SlotgateBackend } from "@slotgate/backend-sdk";
import {
  type ChainWriteResponse,
  type ErrorBody,
  type ExchangeTokenOwnerRequest,
  type ExchangeTokenOwnerResponse,
  PATHS,
  type PendingWriteResponse,
  type PinRegisterResponse,
  type PinWalletData,
  type SlotView,
} from "@slotgate/protocol";
import { MarketError } from "./errors.js";

/** The live answer of `GET /v1/marketplace/listing_allowed` (the fields this marketplace reads). */
export interface ListingAllowed {
  status: "logged_in" | "logged_out";
  listing_allowed: boolean;
}

/** Options of {@link SlotgateApi}. */
export interface SlotgateApiOptions {
  /** The service's base URL (`SLOTGATE_URL`), no trailing slash. */
  slotgateUrl: string;
  /** `MARKETPLACE_SECRET`: the bearer key of `listing_allowed`. */
  marketplaceSecret: string;
  /** The backend SDK client of this marketplace: its `listSlots` and `slot` make the slot reads. */
  backend: Pick<SlotgateBackend, "listSlots" | "slot">;
  /** Per-request time limit. @default 15000 */
  timeoutMs?: number;
  /** `fetch` of the calls made here (not the SDK's: that one is the backend's own option). @default globalThis.fetch */
  fetch?: typeof fetch;
}

type Answer = { status: number; body: Record<string, unknown> };

/**
 * The Slotgate HTTP API as the marketplace uses it. Failures are {@link MarketError}s carrying the
 * service's status, error code and message (`service_unreachable` 502 when it did not answer,
 * `service_answer_invalid` 502 when it answered something else than the protocol's shape).
 *
 * @example
 * ```ts
 * const backend = new SlotgateBackend({ authServerUrl, clientId, clientSecret, redirectUri });
 * const api = new SlotgateApi({ slotgateUrl: "http://127.0.0.1:8080", marketplaceSecret, backend });
 * const slots = await api.listSlots({ accessToken, cuid: "slotgate-demo" });
 * ```
 */
export class SlotgateApi {
  readonly #base: string;
  readonly #secret: string;
  readonly #backend: Pick<SlotgateBackend, "listSlots" | "slot">;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: SlotgateApiOptions) {
    this.#base = options.slotgateUrl.replace(/\/+$/, "");
    this.#secret = options.marketplaceSecret;
    this.#backend = options.backend;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * The caller's slots of a cuid (`SlotgateBackend.listSlots`: `GET /v1/slots?cu_id=`, the user's bearer token).
   *
   * @example
   * ```ts
   * const slots = await api.listSlots({ accessToken, cuid });
   * ```
   */
  async listSlots(args: { accessToken: string; cuid: string }): Promise<SlotView[]> {
    const answer = await this.#sdk(`GET ${PATHS.slots}`, (signal) => this.#backend.listSlots({ accessToken: args.accessToken, cuid: args.cuid, signal }));
    return answer.slots;
  }

  /**
   * One slot read from the chain (`SlotgateBackend.slot`: `GET /v1/slots/:cu_id/:meta_idx`, public).
   *
   * @example
   * ```ts
   * const { owner, tr_cnt } = await api.slot(cuid, 0);
   * ```
   */
  async slot(cuid: string, metaIdx: number): Promise<SlotView> {
    return (await this.#sdk(`GET ${PATHS.slot}`, (signal) => this.#backend.slot(cuid, metaIdx, { signal }))).slot;
  }

  /**
   * The service's own word on whether a user may list at a client now (`GET /v1/marketplace/listing_allowed`,
   * `Authorization: Bearer <MARKETPLACE_SECRET>`).
   *
   * @example
   * ```ts
   * const { listing_allowed } = await api.listingAllowed("7", "sg_game");
   * ```
   */
  async listingAllowed(userId: string, clientId: string): Promise<ListingAllowed> {
    const query = `?user_id=${encodeURIComponent(userId)}&client_id=${encodeURIComponent(clientId)}`;
    const { body } = await this.#ok("GET", PATHS.listingAllowed + query, { bearer: this.#secret });
    return { status: body["status"] === "logged_in" ? "logged_in" : "logged_out", listing_allowed: body["listing_allowed"] === true };
  }

  /**
   * Registers the user's PIN (`POST /v1/pin/register`, the user's bearer token) and answers the wallet
   * with its key_share_user.
   *
   * @example
   * ```ts
   * const { address, key_share_user } = await api.registerPin({ accessToken, userUuid: 7, pinHash, pinSalt });
   * ```
   */
  async registerPin(args: { accessToken: string; userUuid: number; pinHash: string; pinSalt: string }): Promise<PinWalletData> {
    const { body } = await this.#ok("POST", PATHS.pinRegister, {
      bearer: args.accessToken,
      json: { user_uuid: args.userUuid, pin_hash: args.pinHash, pin_salt: args.pinSalt },
    });
    const wallet = (body as unknown as PinRegisterResponse).data?.[0];
    if (!wallet || typeof wallet.key_share_user !== "string") throw new MarketError("service_answer_invalid", 502, "The service's PIN registration answered no key share.");
    return wallet;
  }

  /**
   * Hands a slot over (`POST /idex-platform/exchange_token_owner`, the seller's bearer token): the answer,
   * or the pending write (202) when the chain write did not land within the service's wait.
   *
   * @example
   * ```ts
   * const answer = await api.exchangeTokenOwner({ accessToken, request, idempotencyKey: `sale-${sale.id}-${state}` });
   * ```
   */
  async exchangeTokenOwner(args: {
    accessToken: string;
    request: ExchangeTokenOwnerRequest;
    idempotencyKey: string;
  }): Promise<ExchangeTokenOwnerResponse | PendingWriteResponse> {
    const { body } = await this.#ok("POST", PATHS.exchangeTokenOwner, { bearer: args.accessToken, json: args.request, idempotencyKey: args.idempotencyKey });
    return body as unknown as ExchangeTokenOwnerResponse | PendingWriteResponse;
  }

  /**
   * A chain write's state (`GET /v1/chain/writes/:write_id`, the bearer token of the user who asked for it).
   *
   * @example
   * ```ts
   * const write = await api.chainWrite({ accessToken, writeId });
   * if (write.status === "confirmed") console.log(write.result);
   * ```
   */
  async chainWrite(args: { accessToken: string; writeId: string }): Promise<ChainWriteResponse> {
    const path = PATHS.chainWrite.replace(":write_id", encodeURIComponent(args.writeId));
    return (await this.#ok("GET", path, { bearer: args.accessToken })).body as unknown as ChainWriteResponse;
  }

  /**
   * Runs one backend-SDK call under this module's time limit and turns its {@link SlotgateBackendError} into the
   * same {@link MarketError} a call made here gives: the service's code, status and message as the SDK reports them.
   */
  async #sdk<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await call(AbortSignal.timeout(this.#timeoutMs));
    } catch (error) {
      if (!(error instanceof SlotgateBackendError)) throw error;
      if (error.code === "network_error" || error.code === "aborted") throw new MarketError("service_unreachable", 502, `The Slotgate service did not answer ${what}.`);
      if (error.code === "invalid_response") throw new MarketError("service_answer_invalid", 502, `The Slotgate service's answer to ${what} is not a slot answer.`);
      if (error.code !== "service_error") throw error;
      const status = error.serviceStatus ?? 502;
      const code = error.error ?? `http_${status}`;
      throw new MarketError(code, status >= 500 ? 502 : status, error.message, code);
    }
  }

  async #ok(method: "GET" | "POST", path: string, init: { bearer?: string; json?: unknown; idempotencyKey?: string }): Promise<Answer> {
    let res: Response;
    try {
      res = await this.#fetch(this.#base + path, {
        method,
        headers: {
          accept: "application/json",
          ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
          ...(init.json === undefined ? {} : { "content-type": "application/json" }),
          ...(init.idempotencyKey ? { "idempotency-key": init.idempotencyKey } : {}),
        },
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch {
      throw new MarketError("service_unreachable", 502, `The Slotgate service did not answer ${method} ${path.split("?")[0]}.`);
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.ok) return { status: res.status, body };
    const error = body as Partial<ErrorBody>;
    const code = typeof error.error === "string" ? error.error : `http_${res.status}`;
    const message = typeof error.message === "string" ? error.message : `The service answered HTTP ${res.status}.`;
    throw new MarketError(code, res.status >= 500 ? 502 : res.status, message, code);
  }
}
