import { describe, expect, it } from "vitest";
import * as core from "../src/index.js";
import * as redis from "../src/redis.js";

describe("public surface", () => {
  it("lists the runtime exports of @slotgate/backend-sdk", () => {
    expect(Object.keys(core).sort()).toEqual([
      "BACKEND_ERRORS",
      "ContentTokenClient",
      "SlotgateApi",
      "SlotgateBackend",
      "SlotgateBackendError",
      "consoleLogger",
      "encryptSpendMessage",
      "encryptWithSpendKey",
      "isPendingWrite",
      "isSlotgateBackendError",
      "serializeSpendPayload",
      "silentLogger",
      "verifyWebhook",
    ]);
  });

  it("lists the runtime exports of @slotgate/backend-sdk/redis", () => {
    expect(Object.keys(redis).sort()).toEqual(["RedisPendingStore"]);
  });

  it("keeps ioredis out of the core entry's built bundle", async () => {
    const { readFile } = await import("node:fs/promises");
    const built = await readFile(new URL("../dist/index.js", import.meta.url), "utf8").catch(() => null);
    expect(built, "run tsup first").not.toBeNull();
    expect(built).not.toMatch(/ioredis/);
  });
});
