// Every call this marketplace makes to the Slotgate HTTP API, in one place (the sign-in itself goes through
// @slotgate/backend-sdk's getSlotInfo). The slot reads go through the backend SDK (`SlotgateBackend.listSlots` and
// `slot`); the calls it has no method for (listing_allowed, PIN registration, exchange_token_owner, the chain write
// lookup) go through the SDK's `SlotgateApi`, typed by the endpoint table.
import { SlotgateApi as Api, type SlotgateBackend, SlotgateBackendError, isSlotgateBackendError } from "@slotgate/backend-sdk";
import {
  type ChainWriteResponse,
  type ExchangeTokenOwnerRequest,
  type ExchangeTokenOwnerResponse,
  PATHS,
  type PendingWriteResponse,
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
  /** `fetch` of the `SlotgateApi` calls made here (not the SDK's slot reads: that one is the backend's own option). @default globalThis.fetch */
  fetch?: typeof fetch;
}

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
  readonly #api: Api;
  readonly #secret: string;
  readonly #backend: Pick<SlotgateBackend, "listSlots" | "slot">;
  readonly #timeoutMs: number;

  constructor(options: SlotgateApiOptions) {
    this.#api = new Api({ authServerUrl: options.slotgateUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.#secret = options.marketplaceSecret;
    this.#backend = options.backend;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
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
    const answer = await this.#sdk(`GET ${PATHS.listingAllowed}`, (signal) =>
      this.#api.call("listingAllowed", { user_id: userId, client_id: clientId }, { bearer: this.#secret }, { signal }),
    );
    return { status: answer.status, listing_allowed: answer.listing_allowed };
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
    const answer = await this.#sdk(`POST ${PATHS.pinRegister}`, (signal) =>
      this.#api.call("pinRegister", { user_uuid: args.userUuid, pin_hash: args.pinHash, pin_salt: args.pinSalt }, { bearer: args.accessToken }, { signal }),
    );
    const wallet = answer.data[0];
    if (!wallet) throw new MarketError("service_answer_invalid", 502, "The service's PIN registration answered no key share.");
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
    try {
      // Sent once and not followed: a pending sale is the marketplace's to look up (sales.ts keeps its write id).
      return await this.#sdk(`POST ${PATHS.exchangeTokenOwner}`, (signal) =>
        this.#api.call(
          "exchangeTokenOwner",
          args.request,
          { bearer: args.accessToken },
          { idempotencyKey: args.idempotencyKey, signal, retry: false, pendingTimeoutMs: 0 },
        ),
      );
    } catch (error) {
      if (isSlotgateBackendError(error, "write_pending") && error.writeId !== undefined) return { success: true, status: "pending", write_id: error.writeId };
      throw error;
    }
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
    return this.#sdk(`GET ${PATHS.chainWrite}`, (signal) => this.#api.call("chainWrite", { write_id: args.writeId }, { bearer: args.accessToken }, { signal }));
  }

  /**
   * Runs one backend-SDK call under this module's time limit and turns its {@link SlotgateBackendError} into a
   * {@link MarketError}: the service's code, status and own message as the SDK reports them.
   */
  async #sdk<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await call(AbortSignal.timeout(this.#timeoutMs));
    } catch (error) {
      if (!(error instanceof SlotgateBackendError)) throw error;
      if (error.code === "network_error" || error.code === "aborted")
        throw new MarketError("service_unreachable", 502, `The Slotgate service did not answer ${what}.`);
      if (error.code === "invalid_response")
        throw new MarketError("service_answer_invalid", 502, `The Slotgate service's answer to ${what} is not the documented answer.`);
      if (error.code !== "service_error") throw error;
      const status = error.serviceStatus ?? 502;
      const code = error.error ?? `http_${status}`;
      throw new MarketError(code, status >= 500 ? 502 : status, error.serviceMessage ?? `The service answered HTTP ${status}.`, code);
    }
  }
}
