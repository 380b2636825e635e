import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainServiceError, readMnemonicBackup } from "../src/index.js";
import { type Harness, newUserId, pinOf, startService, codeOf } from "./helpers/setup.js";

let h: Harness;
let now = new Date("2026-01-01T00:00:00Z");
beforeAll(async () => {
  h = await startService({ now: () => now, pinLockout: { maxFailures: 3, lockSeconds: 60 } });
});
afterAll(async () => {
  await h.service.close();
});

describe("PIN checks", () => {
  it("refuses a wrong PIN, a wrong salt and a wrong share with pin_invalid, then locks with pin_locked", async () => {
    const user = newUserId();
    const pin = pinOf("123123");
    const share = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!.key_share_user;
    const wrong = pinOf("000000", pin.pin_salt);
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: share }))).toBe("ok");
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...wrong, key_share_user: share }))).toBe("pin_invalid");
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, pin_salt: "ab".repeat(32), key_share_user: share }))).toBe("pin_invalid");
    const flipped = (share[0] === "0" ? "1" : "0") + share.slice(1);
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: flipped }))).toBe("pin_invalid");
    // Third failure reached the limit: even the right PIN is refused until the lock ends.
    const locked = await h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: share }).catch((e: unknown) => e);
    expect((locked as ChainServiceError).code).toBe("pin_locked");
    expect((locked as ChainServiceError).status).toBe(423);
    expect((locked as ChainServiceError).details?.retry_after_seconds).toBe(60);
    now = new Date(now.getTime() + 61_000);
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: share }))).toBe("ok");
  });

  it("bounds a burst of concurrent guesses to the limit", async () => {
    const user = newUserId();
    const pin = pinOf("555555");
    const share = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!.key_share_user;
    const guesses = Array.from({ length: 12 }, (_, i) => pinOf(String(100000 + i), pin.pin_salt));
    const codes = await Promise.all(guesses.map((g) => codeOf(h.service.verifyPin({ user_uuid: user, ...g, key_share_user: share }))));
    expect(codes.filter((c) => c === "pin_invalid")).toHaveLength(3);
    expect(codes.filter((c) => c === "pin_locked")).toHaveLength(9);
    now = new Date(now.getTime() + 61_000);
  });

  it("a correct PIN clears the failure count", async () => {
    const user = newUserId();
    const pin = pinOf("121212");
    const share = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!.key_share_user;
    const wrong = pinOf("999999", pin.pin_salt);
    for (let round = 0; round < 3; round++) {
      expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...wrong, key_share_user: share }))).toBe("pin_invalid");
      expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...wrong, key_share_user: share }))).toBe("pin_invalid");
      expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: share }))).toBe("ok");
    }
  });

  it("validates input and unknown users", async () => {
    const pin = pinOf("111111");
    expect(await codeOf(h.service.registerPin({ user_uuid: -1, ...pin }))).toBe("invalid_request");
    expect(await codeOf(h.service.registerPin({ user_uuid: newUserId(), pin_hash: "xyz", pin_salt: pin.pin_salt }))).toBe("invalid_request");
    expect(await codeOf(h.service.verifyPin({ user_uuid: newUserId(), ...pin, key_share_user: "00".repeat(32) }))).toBe("wallet_not_found");
    expect(await codeOf(h.service.resetPin({ user_uuid: newUserId(), mnemonic: "not words", new_pin_hash: pin.pin_hash, new_pin_salt: pin.pin_salt }))).toBe(
      "invalid_request",
    );
    expect(await h.service.contentAddressFor(newUserId())).toBeNull();
  });

  it("error messages carry no secret", async () => {
    const user = newUserId();
    const pin = pinOf("313131");
    const share = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!.key_share_user;
    const wrong = pinOf("000001", pin.pin_salt);
    const error = (await h.service.verifyPin({ user_uuid: user, ...wrong, key_share_user: share }).catch((e: unknown) => e)) as Error;
    for (const secret of [share, wrong.pin_hash, pin.pin_hash]) expect(error.message).not.toContain(secret);
    expect(JSON.stringify((error as ChainServiceError).toBody())).not.toContain(share);
  });

  it("a provisioned wallet keeps its addresses when the user later registers a PIN", async () => {
    const user = newUserId();
    const [a, b, c] = await Promise.all([h.service.provisionWallet(user), h.service.provisionWallet(user), h.service.provisionWallet(user)]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const pin = pinOf("464646");
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: "00".repeat(32) }))).toBe("wallet_not_found");
    const reg = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    expect(reg.address).toBe(a.address);
    expect(await h.service.contentAddressFor(user)).toBe(a.content_address);
    expect(await codeOf(h.service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user }))).toBe("ok");
    expect(await codeOf(h.service.registerPin({ user_uuid: user, ...pin }))).toBe("wallet_exists");
    const words = await readMnemonicBackup(reg.mnemonic, pin.pin_hash, reg.key_share_user);
    const reset = await h.service.resetPin({ user_uuid: user, mnemonic: words, ...{ new_pin_hash: pin.pin_hash, new_pin_salt: pin.pin_salt } });
    expect(reset.data[0]!.address).toBe(a.address);
  });
});
