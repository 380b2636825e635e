/**
 * The few protocol constants the SDK needs, copied from `@slotgate/protocol`
 * (BRAND, LIMITS, PATHS) so the browser bundle has no runtime dependency.
 * `test/constants.test.ts` asserts they still equal the protocol's values.
 * @internal
 */
export const MESSAGE_SOURCE = "slotgate";
/** @internal */
export const STORAGE_PREFIX = "slotgate_";
/** @internal */
export const LEGACY_STORAGE_PREFIX = "gameauth_";
/** @internal */
export const BROADCAST_CHANNEL = "slotgate_login";
/** @internal */
export const LOGIN_TIMEOUT_MS = 120_000;
/** @internal */
export const POPUP_WIDTH = 600;
/** @internal */
export const POPUP_HEIGHT = 500;
/** @internal */
export const CLOCK_SKEW_SECONDS = 30;
/** @internal */
export const AUTHORIZE_PATH = "/oauth/authorize";
/** @internal */
export const REVOKE_PATH = "/v1/oauth/revoke";
/** @internal */
export const TOKEN_PATH = "/oauth/token";
/** @internal */
export const BROWSER_LOGOUT_PATH = "/oauth/logout";
/** @internal */
export const RENEW_TIMEOUT_MS = 10_000;
/** @internal */
export const RENEW_BEFORE_SECONDS = 300;
/** @internal */
export const WALLET_CHANNEL = "slotgate_wallet";
/** @internal */
export const WALLET_PATH = "/wallet";
/** @internal */
export const WALLET_TIMEOUT_MS = 600_000;
