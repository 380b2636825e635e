import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Slotgate, type SlotgateOptions } from "../src/index.js";
import { cleanReason, readLoginMessage } from "../src/login/message.js";
import { readExpiry } from "../src/session/jwt-expiry.js";

describe("parsers never throw and accept only what they should (fast-check)", () => {
  it("readExpiry: any string gives a finite number or undefined", () => {
    fc.assert(
      fc.property(fc.string(), (token) => {
        const exp = readExpiry(token);
        expect(exp === undefined || Number.isFinite(exp)).toBe(true);
      }),
    );
  });

  it("readExpiry: reads back any numeric exp from a base64url payload", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.string(), (exp, sub) => {
        const payload = Buffer.from(JSON.stringify({ sub, exp })).toString("base64url");
        expect(readExpiry(`h.${payload}.s`)).toBe(exp);
      }),
    );
  });

  it("readLoginMessage: accepts exactly a slotgate success/fail message with string data and the state", () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (value, state) => {
        const message = readLoginMessage(value, state);
        if (message === undefined) return;
        expect(message.from).toBe("slotgate");
        expect(["success", "fail"]).toContain(message.type);
        expect(typeof message.data).toBe("string");
        expect(message.state).toBe(state);
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom("success", "fail"), fc.string({ minLength: 1 }), fc.string(), (type, data, state) => {
        expect(readLoginMessage({ from: "slotgate", type, data, state }, state)).toBeDefined();
        expect(readLoginMessage({ from: "gameauth", type, data, state }, state)).toBeUndefined();
      }),
    );
  });

  it("cleanReason: printable ASCII, 1 to 200 characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (reason) => {
        expect(cleanReason(reason)).toMatch(/^[\x20-\x7e]{1,200}$/);
      }),
    );
  });

  it("the constructor either accepts options or throws SlotgateError invalid_options, never anything else", () => {
    const option = fc.oneof(fc.string(), fc.webUrl(), fc.integer(), fc.constant(undefined), fc.constant(null));
    fc.assert(
      fc.property(fc.record({ slotgateUrl: option, clientId: option, redirectUri: option, popupWidth: option, popupHeight: option }), (options) => {
        try {
          new Slotgate(options as unknown as SlotgateOptions);
        } catch (error) {
          expect(error).toMatchObject({ name: "SlotgateError", code: "invalid_options" });
        }
      }),
    );
  });
});
