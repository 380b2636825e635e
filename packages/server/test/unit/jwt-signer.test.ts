import { generateKeyPairSync, sign, verify } from "node:crypto";
import { exportJWK, importJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { createEs256Signer, derToP1363 } from "../../src/oauth/keys/tokens.js";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });

/** DER of SEQUENCE { INTEGER r, INTEGER s } from the two integers' content bytes. */
function der(r: number[], s: number[]): Buffer {
  const body = [0x02, r.length, ...r, 0x02, s.length, ...s];
  return Buffer.from([0x30, body.length, ...body]);
}

describe("derToP1363", () => {
  it("gives signatures that verify as IEEE P1363, until it has met both short and 33-byte integers", () => {
    const data = Buffer.from("slotgate");
    let padded = 0;
    let short = 0;
    // r is shorter than 32 bytes once in 256 signatures: 20,000 meet it but for a chance of 1e-34.
    for (let i = 0; i < 20_000 && (padded < 3 || short < 1); i++) {
      const signature = sign("sha256", data, privateKey);
      const rLength = signature[3]!;
      if (rLength === 33) padded++;
      if (rLength < 32) short++;
      const raw = derToP1363(signature);
      expect(raw).toHaveLength(64);
      expect(verify("sha256", data, { key: publicKey, dsaEncoding: "ieee-p1363" }, raw)).toBe(true);
    }
    expect(padded).toBeGreaterThan(0);
    expect(short).toBeGreaterThan(0);
  });

  it("left-pads short integers and drops the sign byte of long ones", () => {
    const r = [0x00, 0x80, ...Array<number>(31).fill(0x11)]; // 33 bytes: a leading zero keeps it positive
    const raw = derToP1363(der(r, [0x05]));
    expect(raw.subarray(0, 32)).toEqual(Buffer.from([0x80, ...Array<number>(31).fill(0x11)]));
    expect(raw.subarray(32)).toEqual(Buffer.from([...Array<number>(31).fill(0), 0x05]));
  });

  it("refuses what is not a P-256 DER signature", () => {
    expect(() => derToP1363(Buffer.alloc(64))).toThrow(/not a DER ECDSA P-256 signature/);
    expect(() => derToP1363(der(Array<number>(34).fill(0x7f), [0x01]))).toThrow(/not a DER/);
    expect(() => derToP1363(Buffer.concat([der([0x01], [0x01]), Buffer.from([0])]))).toThrow(/not a DER/);
    const wrongTag = der([0x01], [0x01]);
    wrongTag[2] = 0x04;
    expect(() => derToP1363(wrongTag)).toThrow(/not a DER/);
  });
});

describe("createEs256Signer", () => {
  it("signs JWTs that jose verifies with the public key", async () => {
    const jwk = await exportJWK(privateKey);
    const signJwt = createEs256Signer({ ...jwk, alg: "ES256" });
    const key = await importJWK({ ...(await exportJWK(publicKey)), alg: "ES256" }, "ES256");
    for (let i = 0; i < 50; i++) {
      const token = signJwt({ alg: "ES256", kid: "k1", typ: "JWT" }, { sub: String(i), iss: "https://slotgate.test" });
      const { payload, protectedHeader } = await jwtVerify(token, key, { issuer: "https://slotgate.test" });
      expect(payload.sub).toBe(String(i));
      expect(protectedHeader.kid).toBe("k1");
    }
  });
});
