// Every call this marketplace makes to the Slotgate HTTP API, in one place (the sign-in itself goes through
// @slotgate/backend-sdk's getSlotInfo). The slot reads go through the backend SDK (`SlotgateBackend.listSlots` and
// `slot`); the calls it has no method for (listing_allowed, the hand-over's wallet-window confirmation) go through the
// SDK's `SlotgateApi`, typed by the endpoint table.
import { SlotgateApi as Api, type SlotgateBackend, SlotgateBackendError } from "@slotgate/backend-sdk";
import { type CreateWalletConfirmationResponse, PATHS, type SlotView, type WalletConfirmationResponse } from "@slotgate/protocol";
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
  /**
   * This marketplace's own client credentials: they ask for hand-overs (`createWalletConfirmation`). The service takes a
   * hand-over of a cu_id from a client of the developer account that registered it (docs/decisions/wallet-window.md, rule 2).
   */
  client: { clientId: string; clientSecret: string };
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
 * const api = new SlotgateApi({ slotgateUrl: "http://127.0.0.1:8080", marketplaceSecret, backend, client: { clientId, clientSecret } });
 * const slots = await api.listSlots({ accessToken, cuid: "slotgate-demo" });
 * ```
 */
export class SlotgateApi {
  readonly #api: Api;
  readonly #secret: string;
  readonly #backend: Pick<SlotgateBackend, "listSlots" | "slot">;
  readonly #timeoutMs: number;
  readonly #client: { clientId: string; clientSecret: string };

  constructor(options: SlotgateApiOptions) {
    this.#api = new Api({ authServerUrl: options.slotgateUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.#secret = options.marketplaceSecret;
    this.#backend = options.backend;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#client = options.client;
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
   * Asks the seller to confirm a slot's hand-over in the Slotgate wallet window (`POST /v1/wallet/confirmations`,
   * kind `slot_hand_over`, this marketplace's client credentials as HTTP Basic): the confirmation's id and the
   * window's URL, for the page's `SlotgateWallet.confirmSlotHandOver`.
   *
   * @example
   * ```ts
   * const { id, window_url } = await api.createHandOver({ sellerUuid: 7, buyerUserId: "8", cuid, metaIdx: 0, redirectUri });
   * ```
   */
  async createHandOver(args: {
    sellerUuid: number;
    buyerUserId: string;
    cuid: string;
    metaIdx: number;
    redirectUri: string;
  }): Promise<CreateWalletConfirmationResponse> {
    const request = { kind: "slot_hand_over" as const, cu_id: args.cuid, to_uuid: args.buyerUserId, meta_idx: args.metaIdx };
    return this.#sdk(`POST ${PATHS.walletConfirmations}`, (signal) =>
      this.#api.call("createWalletConfirmation", { user_uuid: args.sellerUuid, redirect_uri: args.redirectUri, request }, this.#client, {
        signal,
        retry: false,
      }),
    );
  }

  /**
   * A confirmation's state and outcome as the service has it (`GET /v1/wallet/confirmations/{id}`, the hand-over
   * client's credentials): the only source the marketplace settles a sale from, never the page's message.
   *
   * @example
   * ```ts
   * const { status, tx_hash, error } = await api.confirmation(sale.confirmation_id);
   * ```
   */
  async confirmation(id: string): Promise<WalletConfirmationResponse> {
    return this.#sdk(`GET ${PATHS.walletConfirmation}`, (signal) => this.#api.call("getWalletConfirmation", { confirmation_id: id }, this.#client, { signal }));
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
