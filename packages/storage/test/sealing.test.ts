import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SealedValueError, deriveSealingKey, isSealedValue, openSealed, sealValue } from "../src/index.js";

const key = deriveSealingKey(randomBytes(32), "test/sealing/v1");

describe("sealed values (AES-256-GCM bound to the record's identity)", () => {
  it("round-trip any bytes for the same record; the sealed text never holds them and differs each time", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 200 }), fc.string({ maxLength: 80 }), (plain, record) => {
        const sealed = sealValue(key, plain, record);
        expect(isSealedValue(sealed)).toBe(true);
        expect(openSealed(key, sealed, record)).toEqual(Buffer.from(plain));
        expect(sealValue(key, plain, record)).not.toBe(sealed);
      }),
    );
  });

  it("refuse a flipped byte anywhere, another record's identity, another key, another purpose and garbage", () => {
    const sealed = sealValue(key, randomBytes(32), "server-share/7");
    const raw = Buffer.from(sealed.slice(3), "base64url");
    for (let i = 0; i < raw.length; i++) {
      const flipped = Buffer.from(raw);
      flipped[i]! ^= 0x01;
      expect(() => openSealed(key, `v1.${flipped.toString("base64url")}`, "server-share/7")).toThrow(SealedValueError);
    }
    expect(() => openSealed(key, sealed, "server-share/8")).toThrow(SealedValueError);
    expect(() => openSealed(deriveSealingKey(randomBytes(32), "test/sealing/v1"), sealed, "server-share/7")).toThrow(SealedValueError);
    fc.assert(
      fc.property(fc.string(), (junk) => {
        expect(() => openSealed(key, junk, "server-share/7")).toThrow(SealedValueError);
      }),
    );
    // An older format (hex AES-256-CTR) is not a sealed value.
    expect(isSealedValue(randomBytes(48).toString("hex"))).toBe(false);
  });

  it("derive one key per purpose from a secret", () => {
    const secret = randomBytes(32);
    expect(deriveSealingKey(secret, "a")).toEqual(deriveSealingKey(secret, "a"));
    expect(deriveSealingKey(secret, "a")).not.toEqual(deriveSealingKey(secret, "b"));
    expect(() => sealValue(Buffer.alloc(16), "x", "r")).toThrow(RangeError);
  });
});
