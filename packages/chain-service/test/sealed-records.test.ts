import { randomUUID } from "node:crypto";
import { Wallet } from "ethers";
import { encryptHex } from "@slotgate/protocol/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMnemonicBackup } from "../src/index.js";
import { type Harness, codeOf, newUserId, pinOf, startService } from "./helpers/setup.js";

// Issue 28 item 5: a stored secret that was altered, or swapped with another record's, is refused with
// `sealed_record_invalid` and changes nothing (no PIN attempt counted, no share replaced, no spend).

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

/** A sealed value with one byte of its ciphertext flipped (still well-formed). */
function flipByte(sealed: string): string {
  const raw = Buffer.from(sealed.slice(3), "base64url");
  raw[14]! ^= 0x01;
  return `v1.${raw.toString("base64url")}`;
}

async function userWithPin(digits: string) {
  const user = newUserId();
  const pin = pinOf(digits);
  const answer = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
  const words = await readMnemonicBackup(answer.mnemonic, pin.pin_hash, answer.key_share_user);
  return { user, pin, share: answer.key_share_user, words };
}

const keyRow = async (keyId: string) => (await h.db.query<{ b_key: string }>("SELECT b_key FROM cs_keys WHERE key_id = $1", [keyId]))[0]!.b_key;
const setKeyRow = (keyId: string, value: string) => h.db.query("UPDATE cs_keys SET b_key = $2 WHERE key_id = $1", [keyId, value]);
const attempts = async (user: number) =>
  (await h.db.query<{ failures: number }>("SELECT failures FROM cs_pin_attempts WHERE user_uuid = $1", [user])).map((row) => Number(row.failures));

describe("a tampered sealed record is refused and changes nothing", () => {
  it("a server share with a flipped byte: sealed_record_invalid, no PIN attempt counted; restored, the PIN works again", async () => {
    const a = await userWithPin("246810");
    const before = await keyRow(`${a.user}`);
    await setKeyRow(`${a.user}`, flipByte(before));
    const refused = await h.service.verifyPin({ user_uuid: a.user, ...a.pin, key_share_user: a.share }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "sealed_record_invalid", status: 500 });
    expect(JSON.stringify((refused as { toBody(): unknown }).toBody())).not.toContain(before);
    expect(await attempts(a.user)).toEqual([]);
    await setKeyRow(`${a.user}`, before);
    expect(await codeOf(h.service.verifyPin({ user_uuid: a.user, ...a.pin, key_share_user: a.share }))).toBe("ok");
  });

  it("two users' server shares swapped: both refused, neither counted; two stored mnemonics swapped: PIN reset refused, the share kept", async () => {
    const a = await userWithPin("135791");
    const b = await userWithPin("975313");
    const [shareA, shareB] = [await keyRow(`${a.user}`), await keyRow(`${b.user}`)];
    await setKeyRow(`${a.user}`, shareB);
    await setKeyRow(`${b.user}`, shareA);
    expect(await codeOf(h.service.verifyPin({ user_uuid: a.user, ...a.pin, key_share_user: a.share }))).toBe("sealed_record_invalid");
    expect(await codeOf(h.service.verifyPin({ user_uuid: b.user, ...b.pin, key_share_user: b.share }))).toBe("sealed_record_invalid");
    expect([await attempts(a.user), await attempts(b.user)]).toEqual([[], []]);
    await setKeyRow(`${a.user}`, shareA);
    await setKeyRow(`${b.user}`, shareB);

    const [wordsA, wordsB] = [await keyRow(`${a.user}_MN`), await keyRow(`${b.user}_MN`)];
    await setKeyRow(`${a.user}_MN`, wordsB);
    await setKeyRow(`${b.user}_MN`, wordsA);
    const next = pinOf("111222");
    expect(await codeOf(h.service.resetPin({ user_uuid: a.user, mnemonic: a.words, new_pin_hash: next.pin_hash, new_pin_salt: next.pin_salt }))).toBe(
      "sealed_record_invalid",
    );
    expect(await keyRow(`${a.user}`)).toBe(shareA);
    // The old PIN still works: nothing was replaced.
    expect(await codeOf(h.service.verifyPin({ user_uuid: a.user, ...a.pin, key_share_user: a.share }))).toBe("ok");
  });

  it("a provider key with a flipped byte, or another provider's: test_encryption and spends refused, no nonce kept", async () => {
    const register = async () => {
      const clientId = `sg_seal_${randomUUID().slice(0, 8)}`;
      const cuid = `seal-${randomUUID().slice(0, 8)}`;
      const answer = await h.service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
      return { clientId, cuid, key: answer.aes_key!, iv: answer.aes_iv! };
    };
    const one = await register();
    const two = await register();
    const row = async (clientId: string) =>
      (await h.db.query<{ aes_key_enc: string }>("SELECT aes_key_enc FROM cs_providers WHERE client_id = $1", [clientId]))[0]!.aes_key_enc;
    const setRow = (clientId: string, value: string) => h.db.query("UPDATE cs_providers SET aes_key_enc = $2 WHERE client_id = $1", [clientId, value]);
    const [keyOne, keyTwo] = [await row(one.clientId), await row(two.clientId)];
    const spend = {
      client_id: one.clientId,
      user_dbkey: String(newUserId()),
      amount: "1",
      cuid: one.cuid,
      nonce: randomUUID(),
      ts: Math.floor(Date.now() / 1000),
    };
    const message = { encrypted_message: encryptHex(JSON.stringify(spend), one.key, one.iv) };
    for (const tampered of [flipByte(keyOne), keyTwo]) {
      await setRow(one.clientId, tampered);
      expect(await codeOf(h.service.testEncryption({ client_id: one.clientId, test_string: "x" }))).toBe("sealed_record_invalid");
      expect(await codeOf(h.service.increaseUsed(one.clientId, message))).toBe("sealed_record_invalid");
    }
    expect(await h.db.query("SELECT 1 FROM cs_spend_nonces WHERE client_id = $1", [one.clientId])).toEqual([]);
    await setRow(one.clientId, keyOne);
    expect(await h.service.testEncryption({ client_id: one.clientId, test_string: "x" })).toEqual({
      success: true,
      encrypted_string: encryptHex("x", one.key, one.iv),
    });
  });
});
