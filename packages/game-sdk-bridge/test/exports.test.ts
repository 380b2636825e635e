import { expect, it } from "vitest";
import * as bridge from "../src/index.js";

it("exports exactly the documented public API", () => {
  expect(Object.keys(bridge).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_LOGIN_TIMEOUT_MS",
      "DEFAULT_SLOTGATE_URL",
      "GameSdkBridgeError",
      "createCommandOpener",
      "login",
      "loginWithDeviceCode",
      "openSystemBrowser",
    ]
  `);
});
