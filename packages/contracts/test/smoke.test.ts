import { describe, expect, it } from "vitest";
import { startSystem, CUID } from "./support/system.js";
import { expectRevert } from "./support/chain.js";

describe("smoke", () => {
  it("boots", async () => {
    const s = await startSystem();
    expect(await s.platformContracts.exchange._cuid_releaseTokenEnabled(CUID)).toBe(false);
    await expectRevert(s.strangerContracts.exchange.set_release_enabled(CUID, true), "NotPlatform", [await s.stranger.getAddress()]);
  });
});
