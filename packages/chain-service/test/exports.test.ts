import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "BACKUP_KEY_INFO",
        "BuiltInBundler",
        "CHAIN_ENV",
        "ChainServiceError",
        "DEFAULT_PIN_PBKDF2_SALT",
        "ExternalBundler",
        "HARDHAT_MNEMONIC",
        "MIGRATIONS",
        "SerialTxSender",
        "chainServiceConfigFromEnv",
        "createChainService",
        "deriveBackupKey",
        "deriveSharePin",
        "fromPGlite",
        "fromPgPool",
        "migrate",
        "paymasterHash",
        "readMnemonicBackup",
        "startInProcessChain",
        "walletDirectoryOf",
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
