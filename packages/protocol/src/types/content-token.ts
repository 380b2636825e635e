/** Body of `POST /v1/development-api/init_permission_provider` (spec 4.7). */
export interface InitPermissionProviderRequest {
  client_id: string;
  cuid: string;
  /** Settlement ratio, 0-100. */
  release_per: number;
  /** Provider wallet receiving revenue. */
  owner_addr: string;
}

/**
 * Answer of `init_permission_provider`: the registration transaction and, once, the provider's AES key.
 *
 * The key and IV belong to the client application. Its first provider registration issues them
 * (`key_issued: true`) and shows them once: in the first answer given for that registration, whether
 * to the request itself, to a retry under the same `Idempotency-Key`, or to the write lookup
 * (`GET /v1/chain/writes/{write_id}`) after a 202. Every later answer for it has `key_issued: true`
 * and no `aes_key` / `aes_iv`, and no answer ever shows a key made later by a rotation. Store the key
 * when you get it; a lost key is replaced by rotating it (developer center or
 * `slotgate-server provider rotate-key`). Later registrations (other cuids) reuse the key:
 * `key_issued: false`.
 */
export interface InitPermissionProviderResponse {
  success: true;
  tx_hash: string;
  /** Whether this registration issued the client's AES key and IV (its first registration). */
  key_issued: boolean;
  /** AES-256 key for the encrypted spend call, 64 hex characters: in the first answer of the issuing registration only. */
  aes_key?: string;
  /** AES-256-CTR IV, 32 hex characters; present exactly when `aes_key` is. */
  aes_iv?: string;
}

/** Body of `POST /v1/development-api/user_buy_content_token`. */
export interface UserBuyContentTokenRequest {
  client_id: string;
  /** Slot identifier. */
  user_dbkey: string;
  /** XOTN amount: a wei integer string, or an ether decimal string such as `"1.5"`. */
  amount: string;
  cuid: string;
}

/** Purchase result (spec 2.5). All amounts are wei integer strings. */
export interface UserBuyContentTokenResponse {
  success: true;
  tx_hash: string;
  token_amount: string;
  xotn_paid: string;
  platform_fee: string;
  provider_received: string;
}

/** The JSON object encrypted into `encrypted_message` (spec 4.7, 4.8). */
export interface SpendPayload {
  client_id: string;
  user_dbkey: string;
  /** Content tokens to consume, integer string. */
  amount: string;
  cuid: string;
  /** Opt-in replay protection: a unique value, accepted once. */
  nonce?: string;
  /** Opt-in replay protection: Unix time in seconds when the message was made. */
  ts?: number;
}

/** Body of `POST /v1/development-api/increase_used_content_token`. */
export interface IncreaseUsedContentTokenRequest {
  /** Hex AES-256-CTR ciphertext of the UTF-8 JSON of a {@link SpendPayload}. */
  encrypted_message: string;
}

/** Answer of `increase_used_content_token` (shape decided by Slotgate). */
export interface IncreaseUsedContentTokenResponse {
  success: true;
  tx_hash: string;
  slot: string;
  cuid: string;
  amount: string;
  balance: string;
  used_balances: string;
}

/** Slot balance (spec 2.5), read from the chain. */
export interface BalanceAdexResponse {
  success: true;
  slot: string;
  balance: string;
  used_balances: string;
  cuid: string;
}

/** Body of `POST /v1/development-api/release_used_balance`. */
export interface ReleaseUsedBalanceRequest {
  client_id: string;
  cuid: string;
  /** Target slot address. */
  slot: string;
}

/** Answer of `release_used_balance`. */
export interface ReleaseUsedBalanceResponse {
  success: true;
  released_amount: string;
  tx_hash: string;
}

/** Body of `POST /v1/development-api/test_encryption`. */
export interface TestEncryptionRequest {
  client_id: string;
  test_string: string;
}

/** Answer of `test_encryption`: hex AES-256-CTR of the UTF-8 test_string under the provider's key and IV. */
export interface TestEncryptionResponse {
  success: true;
  encrypted_string: string;
}

/** One cuid a provider registered, as the developer center shows it. */
export interface ProviderCuid {
  cuid: string;
  /** Share of used balances the provider may release (spec 4.7), as registered; null for registrations recorded before it was kept. */
  release_per: number | null;
  /** Whether the platform operator enabled release for this cuid. */
  release_enabled: boolean;
  owner_addr: string | null;
  tx_hash: string;
}

/** A client application's provider side (`GET /v1/dev-user/clients/{client_id}/provider`). */
export interface ProviderStatus {
  success: true;
  client_id: string;
  /** Whether the client has a provider record (a first `init_permission_provider` issued its key). */
  registered: boolean;
  /** Whether spend messages must carry a nonce (accepted once) and a fresh `ts`. */
  replay_protection: boolean;
  /** When the AES key and IV were last rotated; null when never. */
  key_rotated_at: string | null;
  /** Until when the key and IV before the last rotation still decrypt; null when they no longer do. */
  previous_key_valid_until: string | null;
  cuids: ProviderCuid[];
}

/** Answer to an AES key rotation: the new key and IV, shown once. */
export interface ProviderKeyRotation {
  success: true;
  client_id: string;
  /** AES-256 key, 64 hex characters. */
  aes_key: string;
  /** AES-256-CTR IV, 32 hex characters. */
  aes_iv: string;
  /** Until when the previous key and IV still decrypt; null when they stopped at once. */
  previous_key_valid_until: string | null;
}
