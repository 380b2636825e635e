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

/** Body of `POST /idex-platform/exchange_token_owner` (spec 4.9). */
export interface ExchangeTokenOwnerRequest {
  state: string;
  cu_id: string;
  from_uuid: string;
  to_uuid: string;
  meta_idx: number;
}

/** Answer of `exchange_token_owner` (shape decided by Slotgate). */
export interface ExchangeTokenOwnerResponse {
  success: true;
  tx_hash: string;
  meta_idx: number;
  /** Wallet address of the new owner. */
  new_owner: string;
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

/** Body of `POST /v1/pin/verify`. */
export interface PinVerifyRequest {
  user_uuid: number;
  pin_hash: string;
  pin_salt: string;
  key_share_user: string;
}

/** Body of `POST /v1/pin/reset` (mnemonic known). */
export interface PinResetRequest {
  user_uuid: number;
  /** The 12 recovery words, space separated. */
  mnemonic: string;
  new_pin_hash: string;
  new_pin_salt: string;
}

/** Body of `POST /v1/pin/recover` (PIN and mnemonic lost). */
export interface PinRecoverRequest {
  user_uuid: number;
  /** The new PIN's hash. */
  pin_hash: string;
  pin_salt: string;
}
