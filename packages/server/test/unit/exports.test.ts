import { expect, it } from "vitest";
import * as server from "../../src/index.js";
import * as testing from "../../src/testing/index.js";

it("keeps the public surface visible in review", () => {
  expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
    [
      "ConfigError",
      "SERVER_MIGRATIONS",
      "SlotgateServerError",
      "chainSettingsFromEnv",
      "connectRemoteChain",
      "createApp",
      "createKeyStore",
      "createLogger",
      "generateSigningKey",
      "loadConfig",
      "logChainWarning",
      "migrateServer",
      "openResources",
      "openServerDatabase",
      "runCli",
      "serveChainService",
      "signWebhook",
      "startChain",
      "startServer",
    ]
  `);
});

it("keeps the testing entry's surface visible in review", () => {
  expect(Object.keys(testing).sort()).toEqual(["freeLoopbackPort", "readMailbox", "signUpPlayer", "startLocalIdentityProvider", "startReferenceServer", "waitForMailedCode"]);
});
