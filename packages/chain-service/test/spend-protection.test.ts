import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Wallet } from "ethers";
import { encryptHex } from "@slotgate/protocol/crypto";
import { ChainServiceError } from "../src/index.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";

let h: Harness;
let now = new Date();
let clientId: string;
let cuid: string;
let key: string;
let iv: string;
let user: number;
let slot: string;

beforeAll(async () => {
  h = await startService({ now: () => now });
  const { service } = h;
  user = newUserId();
  const pin = pinOf("424242");
  const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
  slot = (await service.contentAddressFor(user))!;
  await service.fundWallet({ user_uuid: user, xotn: "10000" });
  clientId = `sg_${randomBytes(6).toString("hex")}`;
  cuid = `cuid-${randomBytes(4).toString("hex")}`;
  const provider = await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
  await service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "approve_purchases", cuid, amount: "10000" } });
  key = provider.aes_key!;
  iv = provider.aes_iv!;
  await service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "1000", cuid });
});
afterAll(async () => {
  await h.service.close();
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (e: unknown) => (e instanceof ChainServiceError ? e.code : `unexpected ${String(e)}`),
  );
}

const balance = async () => {
  const { balance: b, used_balances: u } = await h.service.balanceOf(slot, cuid);
  return [b, u];
};

describe("encrypted spend protection", () => {
  it("a tampered ciphertext changes nothing", async () => {
    const message = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "5", cuid }), key, iv);
    const before = await balance();
    // Flip bits of the first byte: '{' becomes something else, the JSON no longer parses.
    const flipped = (Number.parseInt(message.slice(0, 2), 16) ^ 0x55).toString(16).padStart(2, "0") + message.slice(2);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: flipped }))).toBe("invalid_encrypted_message");
    // Truncated ciphertext.
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: message.slice(0, -4) }))).toBe("invalid_encrypted_message");
    // Encrypted under another key.
    const other = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "5", cuid }), "11".repeat(32), iv);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: other }))).toBe("invalid_encrypted_message");
    // Sent by another client (its own key does not open it, and its registration does not match).
    expect(await codeOf(h.service.increaseUsed("not-a-provider", { encrypted_message: message }))).toBe("provider_not_registered");
    expect(await balance()).toEqual(before);
  });

  it("without protection a captured message can be replayed: the weakness the opt-in closes", async () => {
    const message = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid }), key, iv);
    const [, used0] = await balance();
    await h.service.increaseUsed(clientId, { encrypted_message: message });
    await h.service.increaseUsed(clientId, { encrypted_message: message });
    const [, used1] = await balance();
    expect(BigInt(used1!) - BigInt(used0!)).toBe(2n);
  });

  it("with replay protection a replayed, stale, nonce-less or bit-flipped replay changes nothing", async () => {
    await h.service.setSpendReplayProtection(clientId, true);
    const ts = Math.floor(now.getTime() / 1000);
    const payload = { client_id: clientId, user_dbkey: String(user), amount: "5", cuid, nonce: randomBytes(12).toString("hex"), ts };
    const message = encryptHex(JSON.stringify(payload), key, iv);
    const first = await h.service.increaseUsed(clientId, { encrypted_message: message });
    const after = await balance();
    expect(first.amount).toBe("5");
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: message }))).toBe("replayed_message");
    // CTR malleability: XOR the amount digit '5' into '9' keeps the JSON valid, but the nonce is spent.
    const plain = JSON.stringify(payload);
    const at = plain.indexOf('"amount":"5"') + '"amount":"'.length;
    const byte = Number.parseInt(message.slice(at * 2, at * 2 + 2), 16) ^ "5".charCodeAt(0) ^ "9".charCodeAt(0);
    const forged = message.slice(0, at * 2) + byte.toString(16).padStart(2, "0") + message.slice(at * 2 + 2);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: forged }))).toBe("replayed_message");
    const noNonce = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "5", cuid }), key, iv);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: noNonce }))).toBe("invalid_encrypted_message");
    const stale = encryptHex(JSON.stringify({ ...payload, nonce: randomBytes(12).toString("hex"), ts: ts - 3600 }), key, iv);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: stale }))).toBe("stale_message");
    expect(await balance()).toEqual(after);
  });

  it("forgets nonces once their messages are stale anyway", async () => {
    const nonce = randomBytes(12).toString("hex");
    const ts = Math.floor(now.getTime() / 1000);
    const message = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid, nonce, ts }), key, iv);
    await h.service.increaseUsed(clientId, { encrypted_message: message });
    const count = async () => (await h.db.query("SELECT 1 FROM cs_spend_nonces WHERE client_id = $1 AND nonce = $2", [clientId, nonce])).length;
    expect(await count()).toBe(1);
    now = new Date(now.getTime() + 11 * 60 * 1000);
    const later = encryptHex(
      JSON.stringify({
        client_id: clientId,
        user_dbkey: String(user),
        amount: "1",
        cuid,
        nonce: randomBytes(12).toString("hex"),
        ts: Math.floor(now.getTime() / 1000),
      }),
      key,
      iv,
    );
    await h.service.increaseUsed(clientId, { encrypted_message: later });
    expect(await count()).toBe(0);
    // The old message is still refused: now as stale.
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: message }))).toBe("stale_message");
  });

  it("a spend refused on chain releases its nonce so the provider can retry", async () => {
    const nonce = randomBytes(12).toString("hex");
    const ts = Math.floor(now.getTime() / 1000);
    const tooMuch = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "999999", cuid, nonce, ts }), key, iv);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: tooMuch }))).toBe("insufficient_balance");
    const ok = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid, nonce, ts }), key, iv);
    expect((await h.service.increaseUsed(clientId, { encrypted_message: ok })).amount).toBe("1");
    now = new Date(now.getTime() + 1000);
  });

  it("refuses a cuid the caller did not register and an unknown user", async () => {
    const ts = Math.floor(now.getTime() / 1000);
    const base = { client_id: clientId, user_dbkey: String(user), amount: "1", ts };
    const foreign = encryptHex(JSON.stringify({ ...base, cuid: "someone-elses", nonce: randomBytes(12).toString("hex") }), key, iv);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: foreign }))).toBe("encrypted_message_mismatch");
    const ghost = encryptHex(JSON.stringify({ ...base, cuid, user_dbkey: "999999999999", nonce: randomBytes(12).toString("hex") }), key, iv);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: ghost }))).toBe("slot_not_found");
  });
});

describe("AES key rotation with an overlap window", () => {
  const message = (k: string, i: string) =>
    encryptHex(
      JSON.stringify({
        client_id: clientId,
        user_dbkey: String(user),
        amount: "1",
        cuid,
        nonce: randomBytes(12).toString("hex"),
        ts: Math.floor(now.getTime() / 1000),
      }),
      k,
      i,
    );

  it("shows the provider side: key state, replay protection, cuids with release share and flag", async () => {
    const status = await h.service.providerStatus(clientId);
    expect(status).toMatchObject({ success: true, client_id: clientId, registered: true, key_rotated_at: null, previous_key_valid_until: null });
    expect(status.cuids).toEqual([expect.objectContaining({ cuid, release_per: 0, release_enabled: false })]);
    expect(await h.service.providerStatus("sg_nobody")).toMatchObject({ registered: false, replay_protection: false, cuids: [] });
    expect(JSON.stringify(status)).not.toContain(key);
  });

  it("both keys decrypt inside the window, only the new one after; a second rotation ends the older key at once", async () => {
    const rotation = await h.service.rotateProviderKey(clientId, 60);
    expect(rotation.aes_key).toMatch(/^[0-9a-f]{64}$/);
    expect(rotation.aes_iv).toMatch(/^[0-9a-f]{32}$/);
    expect(rotation.aes_key).not.toBe(key);
    expect(Date.parse(rotation.previous_key_valid_until!)).toBe(now.getTime() + 60_000);
    const stored = JSON.stringify(await h.db.query("SELECT * FROM cs_providers WHERE client_id = $1", [clientId]));
    expect(stored).not.toContain(rotation.aes_key);
    expect(stored).not.toContain(key);
    expect((await h.service.increaseUsed(clientId, { encrypted_message: message(key, iv) })).amount).toBe("1");
    expect((await h.service.increaseUsed(clientId, { encrypted_message: message(rotation.aes_key, rotation.aes_iv) })).amount).toBe("1");
    expect(await h.service.testEncryption({ client_id: clientId, test_string: "x" })).toEqual({
      success: true,
      encrypted_string: encryptHex("x", rotation.aes_key, rotation.aes_iv),
    });
    expect((await h.service.providerStatus(clientId)).previous_key_valid_until).toBe(rotation.previous_key_valid_until);

    now = new Date(now.getTime() + 61_000);
    const before = await balance();
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: message(key, iv) }))).toBe("invalid_encrypted_message");
    expect(await balance()).toEqual(before);
    expect((await h.service.increaseUsed(clientId, { encrypted_message: message(rotation.aes_key, rotation.aes_iv) })).amount).toBe("1");
    expect((await h.service.providerStatus(clientId)).previous_key_valid_until).toBeNull();

    const second = await h.service.rotateProviderKey(clientId, 60);
    const third = await h.service.rotateProviderKey(clientId, 60);
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: message(rotation.aes_key, rotation.aes_iv) }))).toBe("invalid_encrypted_message");
    expect((await h.service.increaseUsed(clientId, { encrypted_message: message(second.aes_key, second.aes_iv) })).amount).toBe("1");
    expect((await h.service.increaseUsed(clientId, { encrypted_message: message(third.aes_key, third.aes_iv) })).amount).toBe("1");
    const none = await h.service.rotateProviderKey(clientId, 0);
    expect(none.previous_key_valid_until).toBeNull();
    expect(await codeOf(h.service.increaseUsed(clientId, { encrypted_message: message(third.aes_key, third.aes_iv) }))).toBe("invalid_encrypted_message");
    key = none.aes_key;
    iv = none.aes_iv;
  });

  it("refuses a client without a provider record and bad overlaps, changing nothing", async () => {
    const before = JSON.stringify(await h.db.query("SELECT * FROM cs_providers WHERE client_id = $1", [clientId]));
    expect(await codeOf(h.service.rotateProviderKey("sg_nobody", 60))).toBe("provider_not_registered");
    for (const overlap of [-1, 1.5, 8 * 86_400, Number.NaN]) expect(await codeOf(h.service.rotateProviderKey(clientId, overlap))).toBe("invalid_request");
    expect(await codeOf(h.service.providerStatus(""))).toBe("invalid_request");
    expect(JSON.stringify(await h.db.query("SELECT * FROM cs_providers WHERE client_id = $1", [clientId]))).toBe(before);
  });
});
