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
  await service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "approve_purchases", amount: "10000" } });
  clientId = `sg_${randomBytes(6).toString("hex")}`;
  cuid = `cuid-${randomBytes(4).toString("hex")}`;
  const provider = await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
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
    const count = async () =>
      (await h.db.query("SELECT 1 FROM cs_spend_nonces WHERE client_id = $1 AND nonce = $2", [clientId, nonce])).rows.length;
    expect(await count()).toBe(1);
    now = new Date(now.getTime() + 11 * 60 * 1000);
    const later = encryptHex(
      JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid, nonce: randomBytes(12).toString("hex"), ts: Math.floor(now.getTime() / 1000) }),
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
