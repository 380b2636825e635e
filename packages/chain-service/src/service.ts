import type { SlotgateAddresses } from "@slotgate/contracts";
import type {
  BalanceAdexResponse,
  ExchangeTokenOwnerRequest,
  ExchangeTokenOwnerResponse,
  IncreaseUsedContentTokenRequest,
  IncreaseUsedContentTokenResponse,
  InitPermissionProviderRequest,
  InitPermissionProviderResponse,
  ProviderKeyRotation,
  ProviderStatus,
  PinRegisterRequest,
  PinRegisterResponse,
  PinResetRequest,
  PinVerifyRequest,
  ReleaseUsedBalanceRequest,
  ReleaseUsedBalanceResponse,
  SlotView,
  TestEncryptionRequest,
  TestEncryptionResponse,
  TokenTransferRequest,
  TokenTransferResponse,
  UserBuyContentTokenRequest,
  UserBuyContentTokenResponse,
} from "@slotgate/protocol";
import type { ChainServiceMetrics } from "./config.js";
import type { WalletOperationResponse } from "./operations/wallet-operation.js";
import type { PinRecoverInput } from "./pin/recover.js";
import type { PinResetResponse } from "./pin/reset.js";
import type { PendingWrite, WriteStatusAnswer } from "./writes/engine.js";

/**
 * Options of a method that writes to the chain (its last argument).
 *
 * @example
 * ```ts
 * const answer = await chain.buyContentToken(body, { idempotencyKey: req.get("Idempotency-Key") });
 * if (isPendingWrite(answer)) res.status(202);
 * ```
 */
export interface WriteOptions {
  /**
   * The request's `Idempotency-Key`: the same key with the same request answers the first request's
   * outcome (the chain write happens once); with another request, `idempotency_key_reused`. Keys are
   * per caller (client or user) and remembered for `writeRetentionSeconds` after the write settled
   * (at least `LIMITS.idempotencyKeyLifetimeSeconds`, one day).
   */
  idempotencyKey?: string;
  /** The request's id, kept with the write (logs, support). */
  requestId?: string;
}

/** Addresses and roles of the system the service runs against. */
export interface ChainServiceAddresses extends SlotgateAddresses {
  /** The platform operator EOA (the exchange's operator: registrations, `buy_for`, release, slot owners). */
  operator: string;
  /** The spend-recorder EOA (the exchange's `spendRecorder`: records spending). */
  spendRecorder: string;
  /** Chain id. */
  chainId: bigint;
}

/** What {@link ChainService.contentSlot} answers. */
export interface ContentSlot {
  /** The wallet that holds the user's content tokens for the client (`content_address`). */
  content_address: string;
  /** How many times that wallet's slot changed owner, read from the chain (0 for a wallet that backs no slot). */
  tr_cnt: number;
  /** The slot's cuid, when the client registered one. */
  cu_id?: string;
  /** The slot's number within `cu_id`, when the client registered a cuid. */
  meta_idx?: number;
}

/**
 * The chain service the HTTP layer calls (spec 1.4-1.6, 2.5, 2.6, 3.3, 4.5, 4.7-4.11). In process by
 * default, or behind gRPC (`CHAIN_SERVICE_METHODS` names every method). Every method validates its
 * arguments once, at this boundary, with the protocol's schemas, and throws {@link ChainServiceError} with a code of the
 * protocol's `ERRORS` catalogue. Request and answer shapes are the `@slotgate/protocol` wire types
 * where the HTTP contract defines them.
 */
export interface ChainService {
  /** The deployed system and the operator. */
  readonly addresses: ChainServiceAddresses;

  // --- wallets and PIN (spec 2.6, 4.10) ---
  /** `POST /v1/pin/register`: wallet + key split in one database transaction; no chain transaction. */
  registerPin(request: PinRegisterRequest): Promise<PinRegisterResponse>;
  /**
   * `POST /v1/pin/verify`: unlock with the PIN shares and run one sponsored wallet operation. A wallet
   * whose client still holds a PIN-only backup gets it re-sealed once, as `mnemonic`.
   */
  verifyPin(request: PinVerifyRequest, options?: WriteOptions): Promise<WalletOperationResponse | PendingWrite>;
  /** `POST /v1/pin/reset`: re-split under a new PIN with the mnemonic; same owner and address, no chain transaction; a fresh backup. */
  resetPin(request: PinResetRequest): Promise<PinResetResponse>;
  /** `POST /v1/pin/recover`: new owner EOA via `changeOwner`, after the HTTP layer verified the email identity. */
  recover(request: PinRecoverInput): Promise<PinRegisterResponse>;
  /** The user wallet (W_SALT), or null when the user has no wallet yet. */
  walletAddressFor(userUuid: number): Promise<string | null>;
  /** The slot wallet `content_address` (C_SALT), or null when the user has no wallet yet. */
  contentAddressFor(userUuid: number): Promise<string | null>;
  /**
   * The user's wallets, created (not deployed, no chain transaction) when the user has none, so a
   * blockchain client's token exchange can answer `content_address` before any PIN exists. A later
   * `registerPin` claims this wallet: same owner EOA, same addresses.
   */
  provisionWallet(userUuid: number): Promise<{ address: string; content_address: string }>;

  // --- transfers and slots (spec 4.5, 4.9) ---
  /** `POST /v1/token/transfer` for `user_uuid` (the bearer token's user): ERC-20 transfer from one of its wallets. */
  transferToken(userUuid: number, request: TokenTransferRequest & { pin_salt?: string }, options?: WriteOptions): Promise<TokenTransferResponse | PendingWrite>;
  /**
   * `POST /idex-platform/exchange_token_owner`, signed with `from_uuid`'s PIN shares; `state` is
   * accepted once per owner (`replayed_message` after).
   */
  exchangeSlotOwner(request: ExchangeTokenOwnerRequest, options?: WriteOptions): Promise<ExchangeTokenOwnerResponse | PendingWrite>;
  /** Platform operator: records `user_uuid`'s wallet as owner of slot `meta_idx` of `cuid` (`buy_slot`). */
  registerSlot(args: { cuid: string; meta_idx: number; user_uuid: number }, options?: WriteOptions): Promise<{ tx_hash: string; owner: string } | PendingWrite>;
  /** The recorded owner wallet of slot `meta_idx` of `cuid` (zero address when none). */
  slotOwner(cuid: string, metaIdx: number): Promise<string>;

  // --- slots: (cuid, meta_idx), one slot wallet each, one active per user and cuid (spec 1.5, 2.5, 3.1) ---
  /**
   * The slots of `cuid` that `userUuid` owns (per the records), oldest first, each with its chain facts
   * (owner, `tr_cnt`, balances from the exchange's `slot_info`). Empty when the user has none.
   *
   * @example
   * ```ts
   * const slots = await chain.listSlots(7, "game-1"); // [{ meta_idx: 0, state: "active", tr_cnt: 0, ... }]
   * ```
   */
  listSlots(userUuid: number, cuid: string): Promise<SlotView[]>;
  /**
   * Public read of slot `metaIdx` of `cuid`: owner, `tr_cnt`, balance and used balances from the chain,
   * state and owner's user id from the records. `slot_not_found` when the service opened no such slot.
   *
   * @example
   * ```ts
   * const { owner, tr_cnt } = await chain.slotInfo("game-1", 0);
   * ```
   */
  slotInfo(cuid: string, metaIdx: number): Promise<SlotView>;
  /**
   * Opens a new slot of `cuid` for `userUuid`: the next `meta_idx` of the cuid, a slot wallet (the
   * user's C_SALT wallet for the user's first slot ever, `slotSalt(cuid, meta_idx)` after), active when
   * the user has no active slot of the cuid, else sleeping. Its on-chain registration (`buy_slot`) is
   * a durable platform write enqueued here (not awaited). `provider_not_registered` for an unknown cuid.
   * Provisions the user's wallets when the user has none.
   *
   * @example
   * ```ts
   * const slot = await chain.openSlot(7, "game-1"); // { meta_idx: 3, state: "sleeping", registered: false, ... }
   * ```
   */
  openSlot(userUuid: number, cuid: string): Promise<SlotView>;
  /**
   * The user's active slot of `cuid`, or null when none; with `{ create: true }` a user without any
   * active slot of the cuid gets one opened (as {@link ChainService.openSlot}).
   *
   * @example
   * ```ts
   * const active = await chain.activeSlot(7, "game-1", { create: true });
   * ```
   */
  activeSlot(userUuid: number, cuid: string, options?: { create?: boolean }): Promise<SlotView | null>;
  /**
   * Makes slot `metaIdx` of `cuid` the user's active slot; the previously active one sleeps.
   * `slot_not_found` for an unknown slot, `not_owner` for a slot the user does not own. Records only:
   * the HTTP layer checks the login status (spec 3.1 rule 2) before it calls.
   *
   * @example
   * ```ts
   * const active = await chain.activateSlot(7, "game-1", 2);
   * ```
   */
  activateSlot(userUuid: number, cuid: string, metaIdx: number): Promise<SlotView>;
  /**
   * The wallet a blockchain client's answers (the token response, spec 2.2; slot info, spec 2.3) name
   * for the user, never one the user no longer owns, with `tr_cnt` read from the chain. With `cuid` (the
   * client's first registered cuid): the user's active slot of it, opened when the user has none;
   * `slot_transfer_in_progress` while the chain already shows that slot's sale and the records follow.
   * Without: the user's C_SALT wallet (spec 2.6) while it is theirs, after its sale their W_SALT wallet.
   * Provisions the user's wallets when the user has none.
   *
   * @example
   * ```ts
   * const { content_address, tr_cnt } = await chain.contentSlot(7, "game-1");
   * ```
   */
  contentSlot(userUuid: number, cuid?: string): Promise<ContentSlot>;
  /**
   * The client_id that registered `cuid` (`init_permission_provider`), or null when none did.
   *
   * @example
   * ```ts
   * const clientId = await chain.cuidClient("game-1"); // "client-abc" | null
   * ```
   */
  cuidClient(cuid: string): Promise<string | null>;
  /**
   * What `userUuid` still allows `cuid`'s provider to spend on purchases for the user's active slot of it
   * (`approve_purchases`), XOTN wei as a string, read from the chain; "0" when the user has no active slot of it.
   *
   * @example
   * ```ts
   * const left = await chain.purchaseConsent(7, "game-1"); // "5000"
   * ```
   */
  purchaseConsent(userUuid: number, cuid: string): Promise<string>;

  // --- content tokens (spec 2.5, 3.3, 4.7, 4.8) ---
  /** `init_permission_provider`; the first registration of a client answers its AES key and IV, once. */
  initPermissionProvider(request: InitPermissionProviderRequest, options?: WriteOptions): Promise<InitPermissionProviderResponse | PendingWrite>;
  /** `test_encryption` with the client's key and IV. */
  testEncryption(request: TestEncryptionRequest): Promise<TestEncryptionResponse>;
  /** Opt-in per provider: spend payloads must carry a nonce (accepted once) and a fresh ts. */
  setSpendReplayProtection(clientId: string, enabled: boolean): Promise<void>;
  /** A client's provider side: key and rotation state, replay protection, cuids with release share and flag. */
  providerStatus(clientId: string): Promise<ProviderStatus>;
  /**
   * New AES key and IV for a provider, answered once; spend messages under the previous ones are
   * accepted for `overlapSeconds` (0 to 604800), then refused. Database only: no chain transaction.
   */
  rotateProviderKey(clientId: string, overlapSeconds: number): Promise<ProviderKeyRotation>;
  /** `user_buy_content_token` (15% platform / 85% provider). */
  buyContentToken(request: UserBuyContentTokenRequest, options?: WriteOptions): Promise<UserBuyContentTokenResponse | PendingWrite>;
  /** `increase_used_content_token` for the authenticated `clientId`. */
  increaseUsed(clientId: string, request: IncreaseUsedContentTokenRequest, options?: WriteOptions): Promise<IncreaseUsedContentTokenResponse | PendingWrite>;
  /** `balance_adex/{slot}?cuid=`, read from the chain. */
  balanceOf(slot: string, cuid?: string): Promise<BalanceAdexResponse>;
  /** `release_used_balance`. */
  release(request: ReleaseUsedBalanceRequest, options?: WriteOptions): Promise<ReleaseUsedBalanceResponse | PendingWrite>;
  /** Platform operator: enables (or disables) release for a cuid. */
  enableRelease(cuid: string, enabled?: boolean, options?: WriteOptions): Promise<{ tx_hash: string } | PendingWrite>;
  /** Platform operator: sends XOTN from the operator to a user's slot (default) or user wallet. */
  fundWallet(
    args: { user_uuid: number; xotn: string; wallet?: "slot" | "user" },
    options?: WriteOptions,
  ): Promise<{ tx_hash: string; address: string } | PendingWrite>;
  /**
   * `GET /v1/chain/writes/{write_id}`: the state of a write its owner (a client, or a user) asked for,
   * and its answer once it landed; `write_not_found` for an unknown write or another's.
   */
  lookupWrite(owner: { client_id: string } | { user_uuid: number }, writeId: string): Promise<WriteStatusAnswer>;

  /**
   * The write a user's call made under `idempotencyKey`, as {@link lookupWrite} answers it, or null when
   * no write was recorded under that key: whether a call whose caller died before reading its answer
   * (a wallet-window approve) moved anything, and its outcome.
   */
  lookupWriteByKey(owner: { user_uuid: number }, idempotencyKey: string): Promise<WriteStatusAnswer | null>;

  /**
   * Development and conformance only (a development chain; `service_unavailable` elsewhere): gives
   * `user_uuid`'s slot wallet `xotn` wei of XOTN and raises its purchase consent for `cuid` (which
   * `client_id` must have registered) by the same amount, signed with the stored owner key,
   * provisioning the wallet when the user has none. Backs the conformance suite's `fundSlot`.
   */
  devFundSlot(args: { user_uuid: number; xotn: string; cuid: string; client_id: string }): Promise<{ address: string }>;

  /** Resolves when the chain answers a read; `chain_unavailable` otherwise (health checks). */
  ready(): Promise<void>;

  /**
   * Operational numbers for monitoring: chain writes per state, the PBKDF2 queue, PIN lockouts, the
   * paymaster's EntryPoint deposit and bundle sizes (the server's `GET /metrics` reads it per scrape).
   *
   * @example
   * ```ts
   * const { writes } = await chain.metrics(); // { pending: 0, submitted: 1, confirmed: 12, failed: 0 }
   * ```
   */
  metrics(): Promise<ChainServiceMetrics>;

  /** Stops this instance's writers (what they did not send stays recorded for the next instance) and the chain connection. */
  close(): Promise<void>;
}
