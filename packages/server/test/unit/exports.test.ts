import { expect, it } from "vitest";
import * as server from "../../src/index.js";

it("keeps the public surface visible in review", () => {
  expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
    [
      "ConfigError",
      "DerivedWalletDirectory",
      "MIGRATIONS",
      "RemoteChainError",
      "SlotgateServerError",
      "chainDatabaseOf",
      "chainSettingsFromEnv",
      "connectRemoteChain",
      "createApp",
      "createKeyStore",
      "createLogger",
      "generateSigningKey",
      "loadConfig",
      "migrate",
      "openDatabase",
      "openResources",
      "runCli",
      "serveChainService",
      "signWebhook",
      "startChain",
      "startServer",
    ]
  `);
});
