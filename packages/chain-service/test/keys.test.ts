import { hkdfSync, pbkdf2Sync, randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeAddress } from "ethers";
import {
  deriveBackupKey,
  generateOwnerKey,
  SEALED_RECORD,
  SecretSealer,
  openHex,
  ownerKeyFromMnemonic,
  readMnemonicBackup,
  restoreKey,
  sealHex,
  splitKey,
  wipe,
} from "../src/keys/index.js";
import { DEFAULT_PIN_PBKDF2_SALT, deriveSharePin } from "../src/keys/share-pin.js";
import { ChainServiceError } from "../src/errors.js";

describe("key split", () => {
  it("restore(split(key)) is the key, for any key and share_pin", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (key, sharePin) => {
        const { shareServer, shareUser } = splitKey(key, sharePin);
        expect(Buffer.from(restoreKey(sharePin, shareServer, shareUser)).equals(Buffer.from(key))).toBe(true);
      }),
    );
  });

  it("a different share_pin restores a different key", () => {
    const key = randomBytes(32);
    const { shareServer, shareUser } = splitKey(key, Buffer.alloc(32, 1));
    expect(restoreKey(Buffer.alloc(32, 2), shareServer, shareUser).equals(key)).toBe(false);
  });

  it("share_server is fresh randomness on every split", () => {
    const key = randomBytes(32);
    const pin = randomBytes(32);
    expect(splitKey(key, pin).shareServer.equals(splitKey(key, pin).shareServer)).toBe(false);
  });

  it("refuses shares of the wrong size", () => {
    expect(() => restoreKey(Buffer.alloc(31), Buffer.alloc(32), Buffer.alloc(32))).toThrow(/32 bytes/);
  });

  it("wipe zeroes every buffer", () => {
    const a = Buffer.from("secret-one");
    const b = new Uint8Array([1, 2, 3]);
    wipe(a, b, undefined, null);
    expect([...a].every((x) => x === 0)).toBe(true);
    expect([...b]).toEqual([0, 0, 0]);
  });
});

describe("share_pin", () => {
  it("is PBKDF2-SHA256(raw pin_hash bytes, service salt, 100000, 32)", async () => {
    const pinHash = "ab".repeat(32);
    const expected = pbkdf2Sync(Buffer.from(pinHash, "hex"), DEFAULT_PIN_PBKDF2_SALT, 100_000, 32, "sha256");
    expect((await deriveSharePin(pinHash)).equals(expected)).toBe(true);
    expect((await deriveSharePin(pinHash.toUpperCase())).equals(expected)).toBe(true);
  });

  it("depends on the configured salt string", async () => {
    const pinHash = "cd".repeat(32);
    const a = await deriveSharePin(pinHash, { iterations: 1000 });
    const b = await deriveSharePin(pinHash, { iterations: 1000, salt: "other" });
    expect(a.equals(b)).toBe(false);
  });

  it("runs off the event loop: timers keep firing while it derives", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await Promise.all(Array.from({ length: 4 }, () => deriveSharePin("ef".repeat(32))));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });

  it("refuses a pin_hash that is not 64 hex characters", async () => {
    await expect(deriveSharePin("zz")).rejects.toMatchObject({ code: "invalid_request" });
  });
});

describe("owner keys and mnemonics", () => {
  it("generates a 12-word mnemonic whose m/44'/60'/0'/0/0 key is the owner", () => {
    const owner = generateOwnerKey();
    expect(owner.mnemonic.split(" ")).toHaveLength(12);
    expect(computeAddress(`0x${owner.privateKey.toString("hex")}`)).toBe(owner.address);
    const again = ownerKeyFromMnemonic(`  ${owner.mnemonic.toUpperCase()} `);
    expect(again.address).toBe(owner.address);
  });

  it("restores the well-known Hardhat account from its mnemonic", () => {
    expect(ownerKeyFromMnemonic("test test test test test test test test test test test junk").address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });

  it("refuses a phrase with a bad checksum", () => {
    expect(() => ownerKeyFromMnemonic("test test test test test test test test test test test test")).toThrow(/BIP-39/);
  });
});

describe("sealing", () => {
  it("round-trips text (the backup format) and secrets at rest (bound to their record) with a fresh IV each time", () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.integer({ min: 1, max: 2 ** 40 }), (text, bytes, userUuid) => {
        const key = randomBytes(32);
        expect(openHex(sealHex(text, key), key)).toBe(text);
        const sealer = new SecretSealer(key);
        expect(sealer.open(sealer.seal(bytes, SEALED_RECORD.serverShare(userUuid)), SEALED_RECORD.serverShare(userUuid)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 50 },
    );
    const key = randomBytes(32);
    expect(sealHex("same", key)).not.toBe(sealHex("same", key));
  });

  it("refuses a secret at rest that was altered, belongs to another record, or was sealed under another key: sealed_record_invalid", () => {
    const kek = randomBytes(32);
    const sealer = new SecretSealer(kek);
    const sealed = sealer.seal(randomBytes(32), SEALED_RECORD.serverShare(7));
    const raw = Buffer.from(sealed.slice(3), "base64url");
    const code = (f: () => unknown) => {
      try {
        f();
        return "ok";
      } catch (error) {
        return error instanceof ChainServiceError ? error.code : String(error);
      }
    };
    for (const index of [0, 12, raw.length - 1]) {
      const flipped = Buffer.from(raw);
      flipped[index]! ^= 0x80;
      expect(code(() => sealer.open(`v1.${flipped.toString("base64url")}`, SEALED_RECORD.serverShare(7)))).toBe("sealed_record_invalid");
    }
    expect(code(() => sealer.open(sealed, SEALED_RECORD.serverShare(8)))).toBe("sealed_record_invalid");
    expect(code(() => new SecretSealer(randomBytes(32)).open(sealed, SEALED_RECORD.serverShare(7)))).toBe("sealed_record_invalid");
    // The old unauthenticated format is refused too: only start-up re-sealing reads it.
    expect(code(() => sealer.open(sealHex("x".repeat(32), kek), SEALED_RECORD.serverShare(7)))).toBe("sealed_record_invalid");
    // A provider's key is bound to its client and its IV.
    const iv = randomBytes(16).toString("hex");
    const providerKey = sealer.seal(randomBytes(32), SEALED_RECORD.providerKey("sg_a", iv));
    expect(code(() => sealer.open(providerKey, SEALED_RECORD.providerKey("sg_b", iv)))).toBe("sealed_record_invalid");
    expect(code(() => sealer.open(providerKey, SEALED_RECORD.providerKey("sg_a", randomBytes(16).toString("hex"))))).toBe("sealed_record_invalid");
  });

  it("the client reads its backup words with its pin_hash and its key share together; the PIN alone does not open them", async () => {
    const pinHash = "12".repeat(32);
    const shareUser = randomBytes(32);
    const owner = generateOwnerKey();
    const sharePin = await deriveSharePin(pinHash);
    const sealed = sealHex(owner.mnemonic, deriveBackupKey(sharePin, shareUser));
    expect(await readMnemonicBackup(sealed, pinHash, shareUser.toString("hex"))).toBe(owner.mnemonic);
    expect(await readMnemonicBackup(sealed, "34".repeat(32), shareUser.toString("hex"))).not.toBe(owner.mnemonic);
    // An offline attacker with the backup and the PIN (or a guess of it), but not the share: garbage.
    const pinOnlyKey = Buffer.from(hkdfSync("sha256", sharePin, Buffer.alloc(0), "slotgate/mnemonic-backup/v1", 32));
    expect(openHex(sealed, pinOnlyKey)).not.toBe(owner.mnemonic);
    for (const guess of [Buffer.alloc(32), randomBytes(32)]) {
      expect(openHex(sealed, deriveBackupKey(sharePin, guess))).not.toBe(owner.mnemonic);
    }
    expect(() => deriveBackupKey(sharePin, Buffer.alloc(31))).toThrow(ChainServiceError);
  });
});
