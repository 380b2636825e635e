import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readWalletFragment, readWalletMessage } from "../src/wallet/message.js";

const data = fc.record(
  {
    action: fc.constantFrom("approve_purchases", "token_transfer", "slot_hand_over", "pin-setup", "pin-reset", "recover", "approvals"),
    status: fc.constantFrom("approved", "denied", "failed"),
    confirmation_id: fc.string(),
    tx_hash: fc.option(fc.string()),
    write_id: fc.option(fc.string()),
    address: fc.option(fc.string()),
    error: fc.record({ code: fc.string(), message: fc.string() }),
  },
  { requiredKeys: ["action", "status"] },
);

describe("the wallet window's message parsers (fast-check)", () => {
  it("readWalletMessage: never throws; what it accepts is a slotgate wallet_result with this state and a known status", () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (value, state) => {
        const message = readWalletMessage(value, state);
        if (message === undefined) return;
        expect(message.from).toBe("slotgate");
        expect(message.type).toBe("wallet_result");
        expect(message.state).toBe(state);
        expect(["approved", "denied", "failed"]).toContain(message.data.status);
        expect(typeof message.data.action).toBe("string");
      }),
    );
  });

  it("readWalletMessage: accepts every well-formed answer for its state, and none for another state or sender", () => {
    fc.assert(
      fc.property(data, fc.string(), fc.string(), (d, state, other) => {
        const message = { from: "slotgate", type: "wallet_result", state, data: d };
        expect(readWalletMessage(message, state)).toBe(message);
        if (other !== state) expect(readWalletMessage(message, other)).toBeUndefined();
        expect(readWalletMessage({ ...message, from: "gameauth" }, state)).toBeUndefined();
        expect(readWalletMessage({ ...message, type: "success" }, state)).toBeUndefined();
      }),
    );
  });

  it("readWalletFragment: the COOP fragment (data as JSON) round-trips through URLSearchParams; any other text is refused without throwing", () => {
    fc.assert(
      fc.property(data, fc.string(), (d, state) => {
        const fragment = new URLSearchParams({ from: "slotgate", type: "wallet_result", state, data: JSON.stringify(d) }).toString();
        const read = readWalletFragment(Object.fromEntries(new URLSearchParams(fragment)));
        expect(read).toEqual({ from: "slotgate", type: "wallet_result", state, data: d });
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), (params) => {
        const read = readWalletFragment(params);
        if (read) expect(read.type).toBe("wallet_result");
      }),
    );
  });
});
