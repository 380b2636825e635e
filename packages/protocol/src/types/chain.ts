/** Body of `POST /v1/token/transfer` (spec 4.5). The owner key is unlocked by the PIN shares that travel with it. */
export interface TokenTransferRequest {
  from_address: string;
  to_address: string;
  /** Amount in the token's smallest unit, integer string. */
  amount: string;
  /** ERC-20 contract address. */
  contract_address: string;
  /** SHA-256 of PIN and salt, hex. */
  pin_hash: string;
  /** The client's key share, 64 hex characters. */
  key_share_user: string;
}

/** Answer of `POST /v1/token/transfer`. */
export interface TokenTransferResponse {
  success: true;
  transaction_hash: string;
}

/**
 * Body of `POST /idex-platform/exchange_token_owner` (spec 4.9), plus the current owner's PIN shares:
 * the owner key restored from them signs the UserOperation.
 */
export interface ExchangeTokenOwnerRequest {
  /** One-time session state token: accepted once per owner. */
  state: string;
  cu_id: string;
  /** Current owner's user id (decimal); must be the bearer token's user. */
  from_uuid: string;
  /** New owner's user id (decimal), not `from_uuid`. */
  to_uuid: string;
  meta_idx: number;
  /** SHA-256 of the owner's PIN and salt, hex. */
  pin_hash: string;
  /** The owner's pin_salt; when given it must match the stored one. */
  pin_salt?: string;
  /** The owner's key share, 64 hex characters. */
  key_share_user: string;
}

/** Answer of `exchange_token_owner` (shape decided by Slotgate). */
export interface ExchangeTokenOwnerResponse {
  success: true;
  tx_hash: string;
  meta_idx: number;
  /** Wallet address of the new owner. */
  new_owner: string;
  /** The slot's transfer count after this sale (read from the chain's registry). */
  tr_cnt: number;
}

/** Body of `POST /v1/pin/register` (spec 4.10). */
export interface PinRegisterRequest {
  user_uuid: number;
  /** SHA-256 hex of the PIN combined with the salt; the plaintext PIN is never sent. */
  pin_hash: string;
  /** 64 hex characters. */
  pin_salt: string;
}

/** One wallet in a PIN register / recover answer. */
export interface PinWalletData {
  /** Wallet (SimpleAccount) address. */
  address: string;
  /** AES-256-CTR encrypted mnemonic, hex. */
  mnemonic: string;
  /** The client's key share, 64 hex characters. Keep it in the encrypted session. */
  key_share_user: string;
}

/** Answer of `POST /v1/pin/register` and `POST /v1/pin/recover`. */
export interface PinRegisterResponse {
  success: true;
  data: PinWalletData[];
}

/**
 * What `POST /v1/pin/verify` may sign besides the check itself (Slotgate extension; default
 * `verify_only`). Each kind other than `verify_only` becomes one sponsored UserOperation of the slot
 * wallet. Transfers and slot exchanges have their own endpoints.
 *
 * - `verify_only`: check the PIN and the shares, sign nothing.
 * - `approve_purchases`: consent that `cuid`'s provider buys content tokens for this slot with
 *   `user_buy_content_token`, paid from the slot's XOTN, up to `amount` XOTN (wei) in total. The
 *   consent is for that cuid only (no other provider can spend it) and replaces the earlier consent
 *   for the cuid (`amount` is what remains allowed, not an increase).
 * - `buy_content_token`: the slot wallet buys `amount` XOTN (wei) worth of `cuid` content tokens itself.
 * - `revoke_purchases`: ends the consent for `cuid` (sets what remains allowed to 0), from the user's active slot of it.
 */
export type PinOperation =
  | { kind: "verify_only" }
  | { kind: "approve_purchases"; cuid: string; amount: string }
  | { kind: "buy_content_token"; cuid: string; amount: string }
  | { kind: "revoke_purchases"; cuid: string };

/** Body of `POST /v1/pin/verify`. */
export interface PinVerifyRequest {
  user_uuid: number;
  pin_hash: string;
  pin_salt: string;
  key_share_user: string;
  /** @default { kind: "verify_only" } */
  operation?: PinOperation;
}

/** Body of `POST /v1/pin/reset` (mnemonic known). */
export interface PinResetRequest {
  user_uuid: number;
  /** The 12 recovery words, space separated. */
  mnemonic: string;
  new_pin_hash: string;
  new_pin_salt: string;
}

/**
 * The key fields of a recovery (PIN and mnemonic lost): the user and the new PIN. The body of
 * `POST /v1/pin/recover/code`, and what the chain service receives once the mailbox proof passed.
 */
export interface PinRecoverRequest {
  user_uuid: number;
  /** The new PIN's hash. */
  pin_hash: string;
  pin_salt: string;
}

/**
 * Answer of `GET /v1/chain` (Slotgate extension, public): the chain and the deployed contracts, so an
 * integrator reads balances, ownership and spending straight from the chain with their own client.
 */
export interface ChainInfoResponse {
  success: true;
  /** Decimal chain id. */
  chain_id: string;
  contracts: {
    xotn: string;
    exchange: string;
    entry_point: string;
    account_factory: string;
    paymaster: string;
  };
  /** The development chain's JSON-RPC URL (`CHAIN=anvil` only; production nodes are the operator's own). */
  rpc_url?: string;
}

/** Body of `POST /v1/pin/recover/code`: mails a one-time code bound to exactly this recovery. */
export type PinRecoverCodeRequest = PinRecoverRequest;

/** Answer of `POST /v1/pin/recover/code`. */
export interface PinRecoverCodeResponse {
  success: true;
  /** Names this recovery request; send it back with the code. */
  recovery_id: string;
  /** Seconds until the code expires. */
  expires_in: number;
  /** The verified address the code was sent to, masked (`p•••@example.com`). */
  sent_to: string;
}

/**
 * Body of `POST /v1/pin/recover` (spec 4.10 rule 8: identity first verified by email): the same
 * user and new PIN as the code request, plus its `recovery_id` and the emailed code.
 */
export interface PinRecoverWithCodeRequest extends PinRecoverRequest {
  /** From the `POST /v1/pin/recover/code` answer. */
  recovery_id: string;
  /** The one-time code from the email (digits). */
  code: string;
}
