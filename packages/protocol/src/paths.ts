/**
 * Every HTTP path of the Slotgate service, relative to the service base URL.
 *
 * @example
 * ```ts
 * import { PATHS } from "@slotgate/protocol";
 * await fetch(new URL(PATHS.token, "https://auth.example"), { method: "POST", body });
 * ```
 */
export const PATHS = {
  devUserSignup: "/v1/dev-user/signup",
  devUserLogin: "/v1/dev-user/login_devuser",
  /** `GET`: the signed-in developer's own account (`ENDPOINTS.getDevUser`). */
  devUserMe: "/v1/dev-user/me",
  clients: "/v1/dev-user/clients",
  /** `PATCH` edits, `DELETE` deletes one of the developer's client applications. */
  client: "/v1/dev-user/clients/:client_id",
  clientSecret: "/v1/dev-user/clients/:client_id/secret",
  clientDisable: "/v1/dev-user/clients/:client_id/disable",
  clientEnable: "/v1/dev-user/clients/:client_id/enable",
  clientAudit: "/v1/dev-user/clients/:client_id/audit",
  clientDeliveries: "/v1/dev-user/clients/:client_id/deliveries",
  clientDeliveryRetry: "/v1/dev-user/clients/:client_id/deliveries/:delivery_id/retry",
  clientProvider: "/v1/dev-user/clients/:client_id/provider",
  clientProviderCuids: "/v1/dev-user/clients/:client_id/provider/cuids",
  clientReplayProtection: "/v1/dev-user/clients/:client_id/provider/replay_protection",
  clientProviderKey: "/v1/dev-user/clients/:client_id/provider/key",
  /** A client's brand on the service's pages: display name, accent colour, logo. */
  clientBrand: "/v1/dev-user/clients/:client_id/brand",
  /** A client's logo, served from the service's own origin (public). */
  brandLogo: "/v1/brand/:client_id/logo",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  deviceAuthorization: "/oauth/device_authorization",
  deviceVerification: "/oauth/device",
  validate: "/v1/oauth/validate",
  /** The bearer token's user (OpenID Connect Core 5.3 UserInfo): `sub` and nickname. */
  userinfo: "/v1/oauth/userinfo",
  revoke: "/v1/oauth/revoke",
  statusLogin: "/v1/oauth/status/login",
  statusLogout: "/v1/oauth/status/logout",
  statusCheck: "/v1/oauth/status/check",
  listingAllowed: "/v1/marketplace/listing_allowed",
  metaAuthorize: "/v1/oauth-meta/authorize",
  metaGetToken: "/v1/oauth-meta/get_token",
  tokenTransfer: "/v1/token/transfer",
  initPermissionProvider: "/v1/development-api/init_permission_provider",
  userBuyContentToken: "/v1/development-api/user_buy_content_token",
  increaseUsedContentToken: "/v1/development-api/increase_used_content_token",
  balanceAdex: "/v1/development-api/balance_adex",
  /** `GET` (public): a slot's balance and used balances read from the chain (`?cuid=` optional). */
  balanceAdexSlot: "/v1/development-api/balance_adex/:slot",
  /** `POST` (Basic): the provider's opt-in replay protection of spend messages. */
  spendProtection: "/v1/development-api/spend_protection",
  releaseUsedBalance: "/v1/development-api/release_used_balance",
  testEncryption: "/v1/development-api/test_encryption",
  exchangeTokenOwner: "/idex-platform/exchange_token_owner",
  /** Development chain only (`CHAIN=anvil`): XOTN for a user's slot and its purchase consent. */
  devFundSlot: "/v1/dev/fund_slot",
  /** Development chain only: sets a cuid's release flag. */
  devEnableRelease: "/v1/dev/enable_release",
  /** Development chain only: records a user's wallet as a slot's owner (`buy_slot`). */
  devRegisterSlot: "/v1/dev/register_slot",
  /** `GET` (bearer): the caller's slots of a cuid (`?cu_id=`); `POST` (bearer): opens another slot of a cuid. */
  slots: "/v1/slots",
  /** `POST` (bearer): makes one of the caller's slots of a cuid the active one, the others sleep; only after logout. */
  slotActivate: "/v1/slots/activate",
  /** `GET` (public): one slot read from the chain: owner, wallet, transfer count, balance, used_balances. */
  slot: "/v1/slots/:cu_id/:meta_idx",
  chainInfo: "/v1/chain",
  /** `GET`: a chain write's state and answer (`write_id` of a 202 answer). */
  chainWrite: "/v1/chain/writes/:write_id",
  /** `POST` (Basic): a client's backend asks the player to confirm a wallet operation in the wallet window. */
  walletConfirmations: "/v1/wallet/confirmations",
  /** `GET` (Basic): a wallet confirmation's state and outcome (the creating client only). */
  walletConfirmation: "/v1/wallet/confirmations/:confirmation_id",
  /** The wallet window's confirmation page (popup, service origin; `?state=`). */
  walletConfirmPage: "/wallet/confirm/:confirmation_id",
  /** The confirmation page's approve (PIN and key share, same-origin, CSRF double-submit). */
  walletConfirmApprove: "/wallet/confirm/:confirmation_id/approve",
  /** The confirmation page's deny: nothing moves. */
  walletConfirmDeny: "/wallet/confirm/:confirmation_id/deny",
  /** The confirmation window's last page: posts the `wallet_result` to the opener (`?state=`). */
  walletConfirmResult: "/wallet/confirm/:confirmation_id/result",
  /** The PIN set-up window's post (same origin, CSRF double-submit): the key share and the words, once, to the window. */
  walletPinSetup: "/wallet/pin-setup",
  /** The PIN reset window's post (the words and the new PIN): the new key share, to the window. */
  walletPinReset: "/wallet/pin-reset",
  /** The recovery window's first post: mails a one-time code bound to the player and the new PIN. */
  walletRecoverCode: "/wallet/recover/code",
  /** The recovery window's second post (the mailed code): the new key share and the new words, to the window once. */
  walletRecover: "/wallet/recover",
  /** The approvals window's revoke (the PIN shares it keeps): ends the consent for one of the client's cuids. */
  walletRevokePurchases: "/wallet/approvals/revoke",
  /** A page-started window's last page: posts the `wallet_result` to the opener. */
  walletActionResult: "/wallet/:action/result",
  /** A page-started wallet window (`pin-setup`, `pin-reset`, `recover`, `approvals`; `?client_id=&redirect_uri=&state=`). */
  walletActionPage: "/wallet/:action",
  pinRegister: "/v1/pin/register",
  pinVerify: "/v1/pin/verify",
  pinReset: "/v1/pin/reset",
  pinRecover: "/v1/pin/recover",
  pinRecoverCode: "/v1/pin/recover/code",
  identityProviderCallback: "/oauth/idp/callback",
  passkeyOptions: "/oauth/authorize/passkey",
  /** Ends the browser's service session for one client (the client SDK's `logout()`); no JSON, no row. */
  browserLogout: "/oauth/logout",
  devMailbox: "/v1/dev-user/mailbox",
  jwks: "/.well-known/jwks.json",
  metadata: "/.well-known/oauth-authorization-server",
  openapi: "/openapi.json",
  health: "/healthz",
} as const;

/** Name of a path in {@link PATHS}. */
export type PathName = keyof typeof PATHS;
