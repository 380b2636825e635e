import { getAddress } from "ethers";
import type { SlotgateAddresses } from "@slotgate/contracts";
import type {
  BalanceAdexResponse,
  ExchangeTokenOwnerRequest,
  ExchangeTokenOwnerResponse,
  IncreaseUsedContentTokenRequest,
  IncreaseUsedContentTokenResponse,
  InitPermissionProviderRequest,
  InitPermissionProviderResponse,
  PinRegisterRequest,
  PinRegisterResponse,
  PinResetRequest,
  ReleaseUsedBalanceRequest,
  ReleaseUsedBalanceResponse,
  TestEncryptionRequest,
  TestEncryptionResponse,
  TokenTransferRequest,
  TokenTransferResponse,
  UserBuyContentTokenRequest,
  UserBuyContentTokenResponse,
} from "@slotgate/protocol";
import { exchangeTokenOwnerSchema } from "@slotgate/protocol/schemas";
import type { ChainServiceConfig } from "./config.js";
import { type ServiceContext, createContext } from "./context.js";
import { balanceOf, enableRelease, release } from "./content/release.js";
import { operatorCall } from "./content/operator-call.js";
import { initPermissionProvider, setSpendReplayProtection, testEncryption } from "./content/providers.js";
import { buyContentToken } from "./content/purchase.js";
import { increaseUsed } from "./content/spend.js";
import { ChainServiceError } from "./errors.js";
import { devFundSlot } from "./operations/dev-fund.js";
import { type WalletOperation, type WalletOperationResponse, runWalletOperation } from "./operations/wallet-operation.js";
import type { PinCredentials } from "./pin/credentials.js";
import { type PinRecoverInput, recover } from "./pin/recover.js";
import { registerPin } from "./pin/register.js";
import { type PinResetResponse, resetPin } from "./pin/reset.js";
import { findWallet } from "./storage/wallets.js";
import { provisionWallet } from "./wallets/provision.js";
import { parseInput } from "./validate.js";

/** Addresses and roles of the system the service runs against. */
export interface ChainServiceAddresses extends SlotgateAddresses {
  /** The platform operator EOA (exchange owner, purchase agent). */
  operator: string;
  /** Chain id. */
  chainId: bigint;
}

/**
 * The chain service the HTTP layer calls (spec 1.4-1.6, 2.5, 2.6, 3.3, 4.5, 4.7-4.11). In process by
 * default; every method validates its input and throws {@link ChainServiceError} with a code of the
 * protocol's `ERRORS` catalogue. Request and answer shapes are the `@slotgate/protocol` wire types
 * where the HTTP contract defines them.
 */
export interface ChainService {
  /** The deployed system (in-process: deployed at start). */
  readonly addresses: ChainServiceAddresses;

  // --- wallets and PIN (spec 2.6, 4.10) ---
  /** `POST /v1/pin/register`: wallet + key split in one database transaction; no chain transaction. */
  registerPin(request: PinRegisterRequest): Promise<PinRegisterResponse>;
  /** `POST /v1/pin/verify`: unlock with the PIN shares and run one sponsored wallet operation. */
  verifyPin(request: PinCredentials & { operation?: WalletOperation }): Promise<WalletOperationResponse>;
  /** `POST /v1/pin/reset`: re-split under a new PIN with the mnemonic; same owner and address, no chain transaction. */
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
  transferToken(userUuid: number, request: TokenTransferRequest & { pin_salt?: string }): Promise<TokenTransferResponse>;
  /** `POST /idex-platform/exchange_token_owner`, signed with `from_uuid`'s PIN shares. */
  exchangeSlotOwner(
    request: ExchangeTokenOwnerRequest & { pin: Omit<PinCredentials, "user_uuid"> },
  ): Promise<ExchangeTokenOwnerResponse>;
  /** Platform operator: records `user_uuid`'s wallet as owner of slot `meta_idx` of `cuid` (`buy_slot`). */
  registerSlot(args: { cuid: string; meta_idx: number; user_uuid: number }): Promise<{ tx_hash: string; owner: string }>;
  /** The recorded owner wallet of slot `meta_idx` of `cuid` (zero address when none). */
  slotOwner(cuid: string, metaIdx: number): Promise<string>;

  // --- content tokens (spec 2.5, 3.3, 4.7, 4.8) ---
  /** `init_permission_provider`; the first registration of a client answers its AES key and IV, once. */
  initPermissionProvider(request: InitPermissionProviderRequest): Promise<InitPermissionProviderResponse>;
  /** `test_encryption` with the client's key and IV. */
  testEncryption(request: TestEncryptionRequest): Promise<TestEncryptionResponse>;
  /** Opt-in per provider: spend payloads must carry a nonce (accepted once) and a fresh ts. */
  setSpendReplayProtection(clientId: string, enabled: boolean): Promise<void>;
  /** `user_buy_content_token` (15% platform / 85% provider). */
  buyContentToken(request: UserBuyContentTokenRequest): Promise<UserBuyContentTokenResponse>;
  /** `increase_used_content_token` for the authenticated `clientId`. */
  increaseUsed(clientId: string, request: IncreaseUsedContentTokenRequest): Promise<IncreaseUsedContentTokenResponse>;
  /** `balance_adex/{slot}?cuid=`, read from the chain. */
  balanceOf(slot: string, cuid?: string): Promise<BalanceAdexResponse>;
  /** `release_used_balance`. */
  release(request: ReleaseUsedBalanceRequest): Promise<ReleaseUsedBalanceResponse>;
  /** Platform operator: enables (or disables) release for a cuid. */
  enableRelease(cuid: string, enabled?: boolean): Promise<{ tx_hash: string }>;
  /** Platform operator: sends XOTN from the operator to a user's slot (default) or user wallet. */
  fundWallet(args: { user_uuid: number; xotn: string; wallet?: "slot" | "user" }): Promise<{ tx_hash: string; address: string }>;

  /**
   * Development and conformance only (in-process chain; `service_unavailable` elsewhere): gives
   * `user_uuid`'s slot wallet `xotn` wei of XOTN and an unlimited purchase allowance (signed with the
   * stored owner key), provisioning the wallet when the user has none. Backs the conformance suite's `fundSlot`.
   */
  devFundSlot(args: { user_uuid: number; xotn: string }): Promise<{ address: string }>;

  /** Drains the bundler queue and stops. */
  close(): Promise<void>;
}

const positiveId = (value: unknown, what: string): number => {
  const id = typeof value === "string" && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
    throw new ChainServiceError("invalid_request", `${what} must be a positive integer user id`);
  }
  return id;
};

class DefaultChainService implements ChainService {
  readonly addresses: ChainServiceAddresses;

  constructor(private readonly ctx: ServiceContext) {
    this.addresses = { ...ctx.addresses, operator: ctx.operator.address, chainId: ctx.chainId };
  }

  registerPin(request: PinRegisterRequest) {
    return registerPin(this.ctx, request);
  }

  verifyPin(request: PinCredentials & { operation?: WalletOperation }) {
    const { operation, ...credentials } = request ?? ({} as PinCredentials);
    return runWalletOperation(this.ctx, credentials, operation ?? { kind: "verify_only" });
  }

  resetPin(request: PinResetRequest) {
    return resetPin(this.ctx, request);
  }

  recover(request: PinRecoverInput) {
    return recover(this.ctx, request);
  }

  async walletAddressFor(userUuid: number) {
    return (await findWallet(this.ctx.db, positiveId(userUuid, "user_uuid")))?.address ?? null;
  }

  async contentAddressFor(userUuid: number) {
    return (await findWallet(this.ctx.db, positiveId(userUuid, "user_uuid")))?.contentAddress ?? null;
  }

  async provisionWallet(userUuid: number) {
    const wallet = await provisionWallet(this.ctx, positiveId(userUuid, "user_uuid"));
    return { address: wallet.address, content_address: wallet.contentAddress };
  }

  async transferToken(userUuid: number, request: TokenTransferRequest & { pin_salt?: string }): Promise<TokenTransferResponse> {
    const { pin_hash, pin_salt, key_share_user, ...transfer } = request ?? ({} as TokenTransferRequest);
    const result = await runWalletOperation(
      this.ctx,
      { user_uuid: positiveId(userUuid, "user_uuid"), pin_hash, key_share_user, ...(pin_salt === undefined ? {} : { pin_salt }) },
      { kind: "erc20_transfer", ...transfer },
    );
    return { success: true, transaction_hash: result.tx_hash as string };
  }

  async exchangeSlotOwner(
    request: ExchangeTokenOwnerRequest & { pin: Omit<PinCredentials, "user_uuid"> },
  ): Promise<ExchangeTokenOwnerResponse> {
    const { pin, ...body } = request ?? ({} as ExchangeTokenOwnerRequest & { pin: Omit<PinCredentials, "user_uuid"> });
    const input = parseInput(exchangeTokenOwnerSchema, body);
    const from = positiveId(input.from_uuid, "from_uuid");
    const result = await runWalletOperation(
      this.ctx,
      { ...(pin ?? {}), user_uuid: from } as PinCredentials,
      { kind: "exchange_slot_owner", cuid: input.cu_id, meta_idx: input.meta_idx, to_uuid: positiveId(input.to_uuid, "to_uuid") },
    );
    return { success: true, tx_hash: result.tx_hash as string, meta_idx: input.meta_idx, new_owner: result.new_owner as string };
  }

  async registerSlot(args: { cuid: string; meta_idx: number; user_uuid: number }) {
    const wallet = await findWallet(this.ctx.db, positiveId(args?.user_uuid, "user_uuid"));
    if (!wallet) throw new ChainServiceError("wallet_not_found");
    if (!Number.isSafeInteger(args.meta_idx) || args.meta_idx < 0) throw new ChainServiceError("invalid_request", "meta_idx must be a non-negative integer");
    const receipt = await operatorCall(
      this.ctx,
      this.ctx.addresses.exchange,
      this.ctx.contracts.exchange.interface.encodeFunctionData("buy_slot", [wallet.address, BigInt(args.meta_idx), args.cuid]),
    );
    return { tx_hash: receipt.hash, owner: wallet.address };
  }

  async slotOwner(cuid: string, metaIdx: number) {
    return getAddress(await this.ctx.contracts.exchange.slot_owner(cuid, BigInt(metaIdx)));
  }

  initPermissionProvider(request: InitPermissionProviderRequest) {
    return initPermissionProvider(this.ctx, request);
  }

  testEncryption(request: TestEncryptionRequest) {
    return testEncryption(this.ctx, request);
  }

  setSpendReplayProtection(clientId: string, enabled: boolean) {
    return setSpendReplayProtection(this.ctx, clientId, enabled);
  }

  buyContentToken(request: UserBuyContentTokenRequest) {
    return buyContentToken(this.ctx, request);
  }

  increaseUsed(clientId: string, request: IncreaseUsedContentTokenRequest) {
    return increaseUsed(this.ctx, clientId, request);
  }

  balanceOf(slot: string, cuid?: string) {
    return balanceOf(this.ctx, slot, cuid);
  }

  release(request: ReleaseUsedBalanceRequest) {
    return release(this.ctx, request);
  }

  enableRelease(cuid: string, enabled = true) {
    return enableRelease(this.ctx, cuid, enabled);
  }

  async fundWallet(args: { user_uuid: number; xotn: string; wallet?: "slot" | "user" }) {
    const wallet = await findWallet(this.ctx.db, positiveId(args?.user_uuid, "user_uuid"));
    if (!wallet) throw new ChainServiceError("wallet_not_found");
    if (typeof args.xotn !== "string" || !/^[1-9][0-9]{0,77}$/.test(args.xotn)) {
      throw new ChainServiceError("invalid_request", "xotn must be a positive wei integer string");
    }
    const to = args.wallet === "user" ? wallet.address : wallet.contentAddress;
    const receipt = await operatorCall(
      this.ctx,
      this.ctx.addresses.xotn,
      this.ctx.contracts.xotn.interface.encodeFunctionData("transfer", [to, BigInt(args.xotn)]),
    );
    return { tx_hash: receipt.hash, address: to };
  }

  devFundSlot(args: { user_uuid: number; xotn: string }) {
    return devFundSlot(this.ctx, { ...args, user_uuid: positiveId(args?.user_uuid, "user_uuid") });
  }

  async close() {
    await this.ctx.submitter.close();
    this.ctx.closeChain();
  }
}

/**
 * Starts the chain service: runs the database migrations, connects the chain (in-process Hardhat with
 * the system deployed and the paymaster funded, or `RPC_URL` with configured addresses and keys) and
 * wires the bundler (built-in `handleOps` batching, or an external `eth_sendUserOperation` bundler).
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { createChainService, fromPGlite } from "@slotgate/chain-service";
 *
 * const chain = await createChainService({
 *   db: fromPGlite(new PGlite()),
 *   keyEncryptionKey: process.env.CHAIN_KEK!, // 64 hex characters
 * });
 * const { data } = await chain.registerPin({ user_uuid: 7, pin_hash, pin_salt });
 * ```
 */
export async function createChainService(config: ChainServiceConfig): Promise<ChainService> {
  return new DefaultChainService(await createContext(config));
}

/**
 * Adapts a chain service to the HTTP server's `WalletDirectory` (`contentAddressFor(userId, clientId)`):
 * the user's slot wallet, provisioned on first need. One slot wallet per user (spec 2.6: one C_SALT),
 * whatever the client.
 *
 * @example
 * ```ts
 * const app = createApp({ ...options, chain: { wallets: walletDirectoryOf(chain) } });
 * ```
 */
export function walletDirectoryOf(service: ChainService): { contentAddressFor(userId: string, clientId: string): Promise<string> } {
  return {
    async contentAddressFor(userId: string) {
      return (await service.provisionWallet(positiveId(userId, "user_id"))).content_address;
    },
  };
}

/** @internal For tests: the context behind a service. */
export function contextOf(service: ChainService): ServiceContext {
  return (service as unknown as { ctx: ServiceContext }).ctx;
}
