import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "ANVIL_PLATFORM_PACKAGES",
        "BACKUP_KEY_INFO",
        "CALLER_ASSERTION_AUDIENCE",
        "CALLER_ASSERTION_MAX_SECONDS",
        "CALLER_ASSERTION_TYPE",
        "CHAIN_SERVICE_METHODS",
        "CHAIN_SERVICE_MIGRATIONS",
        "ChainServiceError",
        "DEFAULT_PIN_PBKDF2_SALT",
        "DEVELOPMENT_CHAIN_ID",
        "DEVELOPMENT_MNEMONIC",
        "USER_CALL_METHODS",
        "aesRecoveryVault",
        "anvilBinary",
        "callerAssertionPayload",
        "createChainService",
        "currentRequestId",
        "deriveBackupKey",
        "deriveSharePin",
        "developmentKey",
        "migrateChainService",
        "readMnemonicBackup",
        "runOutsideRequest",
        "runRemoteCall",
        "runWithRequestId",
        "startAnvil",
        "startDevelopmentChain",
      ]
    `);
  });

  it("every ChainServiceError code is a protocol error code with its status", async () => {
    const { ERRORS } = await import("@slotgate/protocol");
    const error = new api.ChainServiceError("pin_locked");
    expect(error.status).toBe(ERRORS.pin_locked.status);
    expect(error.toBody()).toEqual({ success: false, error: "pin_locked", message: ERRORS.pin_locked.message });
  });
});
