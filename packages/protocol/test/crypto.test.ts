import { createCipheriv } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EncodingError, decryptHex, encryptHex } from "../src/crypto.js";
import { ENCRYPTION_TEST_VECTORS, NIST_CTR_AES256_BLOCK1 } from "../src/test-vectors.js";

function nodeEncrypt(plaintext: string, key: string, iv: string): string {
  const c = createCipheriv("aes-256-ctr", Buffer.from(key, "hex"), Buffer.from(iv, "hex"));
  return Buffer.concat([c.update(plaintext, "utf8"), c.final()]).toString("hex");
}

describe("AES-256-CTR", () => {
  it("matches NIST SP 800-38A F.5.5 block 1", () => {
    const { key, iv, plaintextHex, ciphertext } = NIST_CTR_AES256_BLOCK1;
    const c = createCipheriv("aes-256-ctr", Buffer.from(key, "hex"), Buffer.from(iv, "hex"));
    expect(c.update(Buffer.from(plaintextHex, "hex")).toString("hex")).toBe(ciphertext);
    // the noble implementation agrees on the same key stream
    const zeros = "\u0000".repeat(16);
    const stream = encryptHex(zeros, key, iv);
    const xored = Buffer.from(stream, "hex").map((b, i) => b ^ Buffer.from(plaintextHex, "hex")[i]!);
    expect(Buffer.from(xored).toString("hex")).toBe(ciphertext);
  });

  it.each(ENCRYPTION_TEST_VECTORS.map((v) => [v.name, v] as const))("reproduces vector %s", (_name, v) => {
    expect(encryptHex(v.plaintext, v.key, v.iv)).toBe(v.ciphertext);
    expect(decryptHex(v.ciphertext, v.key, v.iv)).toBe(v.plaintext);
  });

  it("agrees with node:crypto and round-trips for any text, key and IV", () => {
    const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), hex(32), hex(16), (text, key, iv) => {
        const out = encryptHex(text, key, iv);
        expect(out).toBe(nodeEncrypt(text, key, iv));
        expect(decryptHex(out, key, iv)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("rejects keys, IVs and ciphertexts that are not hex of the right length", () => {
    const iv = "00".repeat(16);
    expect(() => encryptHex("x", "00".repeat(31), iv)).toThrow(EncodingError);
    expect(() => encryptHex("x", "zz".repeat(32), iv)).toThrow(/key must be an even-length hex string/);
    expect(() => encryptHex("x", "00".repeat(32), "00".repeat(15))).toThrow(/iv must be 16 bytes/);
    expect(() => decryptHex("abc", "00".repeat(32), iv)).toThrow(/ciphertext/);
  });
});
