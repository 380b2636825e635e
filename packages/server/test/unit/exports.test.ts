import { expect, it } from "vitest";
import * as server from "../../src/index.js";
import * as testing from "../../src/testing/index.js";

it("keeps the public surface visible in review", () => {
  expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
    [
      "ConfigError",
      "ProductionRefusal",
      "SERVER_MIGRATIONS",
      "SlotgateServerError",
      "appPrototypes",
      "callerAssertions",
      "chainSettingsFromEnv",
      "connectRemoteChain",
      "createApp",
      "createKeyStore",
      "createLogger",
      "environmentOf",
      "generateSigningKey",
      "linkCredentialWarning",
      "loadConfig",
      "logChainWarning",
      "migrateServer",
      "openResources",
      "openServerDatabase",
      "productionProblems",
      "refuseDevelopmentDefaults",
      "runAsVerifiedUser",
      "runCli",
      "serveChainService",
      "signWebhook",
      "startChain",
      "startServer",
    ]
  `);
});

it("keeps the testing entry's surface visible in review", () => {
  expect(Object.keys(testing).sort()).toEqual([
    "chromiumLaunchOptions",
    "freeLoopbackPort",
    "readMailbox",
    "registerWebClient",
    "signInPlayer",
    "signUpPlayer",
    "startLocalIdentityProvider",
    "startReferenceServer",
    "waitForMailedCode",
  ]);
});
