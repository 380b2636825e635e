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
  clients: "/v1/dev-user/clients",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  deviceAuthorization: "/oauth/device_authorization",
  deviceVerification: "/oauth/device",
  validate: "/v1/oauth/validate",
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
  releaseUsedBalance: "/v1/development-api/release_used_balance",
  testEncryption: "/v1/development-api/test_encryption",
  exchangeTokenOwner: "/idex-platform/exchange_token_owner",
  /** `GET` (bearer): the caller's slots of a cuid (`?cu_id=`); `POST` (bearer): opens another slot of a cuid. */
  slots: "/v1/slots",
  /** `POST` (bearer): makes one of the caller's slots of a cuid the active one, the others sleep; only after logout. */
  slotActivate: "/v1/slots/activate",
  /** `GET` (public): one slot read from the chain: owner, wallet, transfer count, balance, used_balances. */
  slot: "/v1/slots/:cu_id/:meta_idx",
  chainInfo: "/v1/chain",
  /** `GET`: a chain write's state and answer (`write_id` of a 202 answer). */
  chainWrite: "/v1/chain/writes/:write_id",
  pinRegister: "/v1/pin/register",
  pinVerify: "/v1/pin/verify",
  pinReset: "/v1/pin/reset",
  pinRecover: "/v1/pin/recover",
  pinRecoverCode: "/v1/pin/recover/code",
  identityProviderCallback: "/oauth/idp/callback",
  passkeyOptions: "/oauth/authorize/passkey",
  devMailbox: "/v1/dev-user/mailbox",
  jwks: "/.well-known/jwks.json",
  metadata: "/.well-known/oauth-authorization-server",
  openapi: "/openapi.json",
  health: "/healthz",
} as const;

/** Name of a path in {@link PATHS}. */
export type PathName = keyof typeof PATHS;
