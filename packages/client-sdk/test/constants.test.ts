import { BRAND, LIMITS, PATHS } from "@slotgate/protocol";
import { describe, expect, it } from "vitest";
import * as constants from "../src/constants.js";

describe("constants copied from @slotgate/protocol (kept out of the bundle)", () => {
  it("equal the protocol's values", () => {
    expect({ ...constants }).toEqual({
      MESSAGE_SOURCE: BRAND.messageSource,
      STORAGE_PREFIX: BRAND.storagePrefix,
      LEGACY_STORAGE_PREFIX: BRAND.legacyStoragePrefix,
      BROADCAST_CHANNEL: BRAND.broadcastChannel,
      LOGIN_TIMEOUT_MS: LIMITS.loginTimeoutMs,
      POPUP_WIDTH: LIMITS.popupWidth,
      POPUP_HEIGHT: LIMITS.popupHeight,
      CLOCK_SKEW_SECONDS: LIMITS.clockSkewSeconds,
      AUTHORIZE_PATH: PATHS.authorize,
      REVOKE_PATH: PATHS.revoke,
      TOKEN_PATH: PATHS.token,
      BROWSER_LOGOUT_PATH: PATHS.browserLogout,
      RENEW_TIMEOUT_MS: 10_000,
      RENEW_BEFORE_SECONDS: 300,
      WALLET_CHANNEL: BRAND.walletBroadcastChannel,
      WALLET_PATH: PATHS.walletActionPage.replace("/:action", ""),
      WALLET_TIMEOUT_MS: 600_000, // a confirmation's lifetime (CreateWalletConfirmationResponse.expires_at): 10 minutes
    });
  });

  it("the wallet window's two page paths are WALLET_PATH's", () => {
    expect(PATHS.walletActionPage).toBe(`${constants.WALLET_PATH}/:action`);
    expect(PATHS.walletConfirmPage).toBe(`${constants.WALLET_PATH}/confirm/:confirmation_id`);
  });
});
