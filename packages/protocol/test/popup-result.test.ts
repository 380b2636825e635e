import { describe, expect, it } from "vitest";
import { POPUP_RESULT_SCRIPT, popupResultPayload, walletResultPayload } from "../src/index.js";

describe("popup result page", () => {
  it("targets the registered origin with the dual broadcast, slotgate first", () => {
    const payload = popupResultPayload("https://app.example/cb?x=1", "success", "jwt", "st");
    expect(payload.targetOrigin).toBe("https://app.example");
    expect(payload.redirectUri).toBe("https://app.example/cb?x=1");
    expect(payload.messages.map((m) => m.from)).toEqual(["slotgate", "gameauth"]);
    expect(payload.messages[1]).toMatchObject({ type: "success", data: "jwt", state: "st" });
  });

  it("never posts to a wildcard origin and falls back to the redirect page's fragment", () => {
    expect(POPUP_RESULT_SCRIPT).not.toMatch(/postMessage\([^)]*"\*"/);
    expect(POPUP_RESULT_SCRIPT).toContain("result.targetOrigin");
    expect(POPUP_RESULT_SCRIPT).toContain('location.replace(result.redirectUri + "#"');
    expect(() => new Function(POPUP_RESULT_SCRIPT)).not.toThrow();
  });
});

describe("wallet window result", () => {
  it("posts one wallet_result message to the redirect URI's origin on the wallet channel", () => {
    const payload = walletResultPayload("https://game.example/cb", "st", { action: "pin-setup", status: "approved", address: "0x1" });
    expect(payload).toEqual({
      targetOrigin: "https://game.example",
      redirectUri: "https://game.example/cb",
      channel: "slotgate_wallet",
      messages: [{ from: "slotgate", type: "wallet_result", state: "st", data: { action: "pin-setup", status: "approved", address: "0x1" } }],
    });
  });

  it("carries an object data as JSON in the COOP fragment and uses the payload's channel", () => {
    expect(POPUP_RESULT_SCRIPT).toContain("JSON.stringify(first.data)");
    expect(POPUP_RESULT_SCRIPT).toContain("result.channel ||");
  });
});
