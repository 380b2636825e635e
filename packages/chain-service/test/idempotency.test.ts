import { randomBytes, randomUUID } from "node:crypto";
import { Wallet } from "ethers";
import { isPendingWrite } from "@slotgate/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceOver } from "../src/surface.js";
import { type Harness, newUserId, pinOf, startService, codeOf } from "./helpers/setup.js";

// Two instances of the chain service on one database and one chain, as two server processes would run.
let a: Harness;
let b: Harness;
const keyEncryptionKey = randomBytes(32).toString("hex"); // one key-encryption key, as instances share it
beforeAll(async () => {
  a = await startService({ keyEncryptionKey });
  b = await startService({ keyEncryptionKey });
});
afterAll(async () => {
  await a.service.close();
  await b.service.close();
});

/** A user with a PIN, XOTN in both wallets and, for each of `cuids`, consent to purchases of 1000 XOTN. */
async function fundedUser(...cuids: string[]) {
  const user = newUserId();
  const pin = pinOf("424242");
  const reg = (await a.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
  await a.service.fundWallet({ user_uuid: user, xotn: "1000", wallet: "user" });
  await a.service.fundWallet({ user_uuid: user, xotn: "1000" });
  for (const cuid of cuids) {
    await a.service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "approve_purchases", cuid, amount: "1000" } });
  }
  return { user, pin, reg };
}

async function provider() {
  const clientId = `sg_idem_${randomUUID().slice(0, 8)}`;
  const cuid = `idem-${randomUUID().slice(0, 8)}`;
  await a.service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
  return { clientId, cuid };
}

describe("idempotency keys", () => {
  it("the same transfer sent twice at once to two instances moves the XOTN once; both get the same answer", async () => {
    const { user, pin, reg } = await fundedUser();
    const to = Wallet.createRandom().address;
    const transfer = {
      from_address: reg.address,
      to_address: to,
      amount: "7",
      contract_address: a.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    };
    const key = randomUUID();
    const [first, second] = await Promise.all([
      a.service.transferToken(user, transfer, { idempotencyKey: key }),
      b.service.transferToken(user, transfer, { idempotencyKey: key }),
    ]);
    expect(first.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(second).toEqual(first);
    expect(await a.ctx.contracts.xotn.balanceOf(to)).toBe(7n);
    // Later, the same again: the first answer, no new transaction.
    expect(await b.service.transferToken(user, transfer, { idempotencyKey: key })).toEqual(first);
    expect(await a.ctx.contracts.xotn.balanceOf(to)).toBe(7n);
    // Without a key, a second transfer is a second transfer.
    await a.service.transferToken(user, transfer);
    expect(await a.ctx.contracts.xotn.balanceOf(to)).toBe(14n);
  });

  it("finds a user's write by its key (lookupWriteByKey), for that user only; an unused key finds none", async () => {
    const { user, pin, reg } = await fundedUser();
    const transfer = {
      from_address: reg.address,
      to_address: Wallet.createRandom().address,
      amount: "3",
      contract_address: a.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    };
    const key = `wallet-confirmation:${randomUUID()}`;
    const answer = await a.service.transferToken(user, transfer, { idempotencyKey: key });
    const found = await b.service.lookupWriteByKey({ user_uuid: user }, key);
    expect(found).toMatchObject({ success: true, status: "confirmed", result: answer });
    expect(await a.service.lookupWrite({ user_uuid: user }, found!.write_id)).toEqual(found);
    expect(await a.service.lookupWriteByKey({ user_uuid: user }, randomUUID())).toBeNull();
    const { user: other } = await fundedUser();
    expect(await a.service.lookupWriteByKey({ user_uuid: other }, key)).toBeNull();
    expect(await codeOf(a.service.lookupWriteByKey({ user_uuid: user }, "has spaces"))).toBe("invalid_request");
  });

  it("a purchase retried with its key while it lands buys once (one buy_for transaction)", async () => {
    const { clientId, cuid } = await provider();
    const { user } = await fundedUser(cuid);
    const request = { client_id: clientId, user_dbkey: String(user), amount: "100", cuid };
    const key = randomUUID();
    const answers = await Promise.all([
      a.service.buyContentToken(request, { idempotencyKey: key }),
      b.service.buyContentToken(request, { idempotencyKey: key }),
      a.service.buyContentToken(request, { idempotencyKey: key }),
    ]);
    expect(answers[0]!.token_amount).toBe("100");
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const slot = (await a.service.contentAddressFor(user))!;
    expect((await a.service.balanceOf(slot, cuid)).balance).toBe("100");
    expect(await a.ctx.contracts.xotn.balanceOf(slot)).toBe(900n);
  });

  it("refuses a key reused with another request (idempotency_key_reused) and changes nothing", async () => {
    const { user, pin, reg } = await fundedUser();
    const to = Wallet.createRandom().address;
    const transfer = {
      from_address: reg.address,
      to_address: to,
      amount: "5",
      contract_address: a.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    };
    const key = randomUUID();
    await a.service.transferToken(user, transfer, { idempotencyKey: key });
    expect(await codeOf(b.service.transferToken(user, { ...transfer, amount: "6" }, { idempotencyKey: key }))).toBe("idempotency_key_reused");
    expect(await a.ctx.contracts.xotn.balanceOf(to)).toBe(5n);
  });

  it("keys belong to their caller: another client's request with the same key is its own write", async () => {
    const one = await provider();
    const two = await provider();
    const { user } = await fundedUser(one.cuid);
    // Each cuid's slot is a wallet of its own (issue 16): the second cuid's slot gets its XOTN and consent too.
    await a.service.devFundSlot({ user_uuid: user, xotn: "1000", cuid: two.cuid, client_id: two.clientId });
    const key = randomUUID();
    const first = await a.service.buyContentToken({ client_id: one.clientId, user_dbkey: String(user), amount: "10", cuid: one.cuid }, { idempotencyKey: key });
    const second = await a.service.buyContentToken(
      { client_id: two.clientId, user_dbkey: String(user), amount: "10", cuid: two.cuid },
      { idempotencyKey: key },
    );
    expect(second.tx_hash).not.toBe(first.tx_hash);
  });

  it("keeps a settled write for its retention; then the purge deletes it: its id is unknown, its key free again", async () => {
    const { clientId, cuid } = await provider();
    const { user } = await fundedUser(cuid);
    const request = { client_id: clientId, user_dbkey: String(user), amount: "10", cuid };
    const key = randomUUID();
    const first = await a.service.buyContentToken(request, { idempotencyKey: key });
    const [row] = await a.db.query<{ id: string }>("SELECT id::text FROM cs_writes WHERE scope = $1 AND idempotency_key = $2", [`client:${clientId}`, key]);
    await b.ctx.purge.run();
    expect(await a.service.lookupWrite({ client_id: clientId }, row!.id)).toMatchObject({ status: "confirmed", result: first });
    expect(await a.service.buyContentToken(request, { idempotencyKey: key })).toEqual(first);
    // A day and a bit later (its settlement moved back, as time passing would):
    await a.db.query("UPDATE cs_writes SET updated_at = updated_at - interval '25 hours' WHERE id = $1", [row!.id]);
    await b.ctx.purge.run();
    expect(await codeOf(a.service.lookupWrite({ client_id: clientId }, row!.id))).toBe("write_not_found");
    const again = await a.service.buyContentToken(request, { idempotencyKey: key });
    expect(again.tx_hash).not.toBe(first.tx_hash);
    const slot = (await a.service.contentAddressFor(user))!;
    expect((await a.service.balanceOf(slot, cuid)).balance).toBe("20");
  });

  it("refuses a retention shorter than the one-day idempotency lifetime the API promises", async () => {
    expect(await codeOf(startService({ writeRetentionSeconds: 3600 }))).toBe("invalid_request");
    expect(await codeOf(startService({ writeRetentionSeconds: 86400.5 }))).toBe("invalid_request");
  });

  it("refuses a malformed key before anything happens", async () => {
    const { user, pin, reg } = await fundedUser();
    const transfer = {
      from_address: reg.address,
      to_address: Wallet.createRandom().address,
      amount: "1",
      contract_address: a.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    };
    expect(await codeOf(a.service.transferToken(user, transfer, { idempotencyKey: "has spaces in it" }))).toBe("invalid_request");
    expect(await codeOf(a.service.transferToken(user, transfer, { idempotencyKey: "x".repeat(256) }))).toBe("invalid_request");
    expect(await codeOf(a.service.transferToken(user, transfer, { idempotencyKey: "" }))).toBe("invalid_request");
  });
});

describe("a write that does not land within the wait", () => {
  it("answers pending with its id; the lookup follows it to the purchase's answer, for its owner only", async () => {
    const { clientId, cuid } = await provider();
    const { user } = await fundedUser(cuid);
    const ctx = a.ctx;
    // An instance that waits 200 ms, on a chain that mines nothing until told to.
    const short = await startService({ writeWaitMs: 200 });
    const raw = serviceOver(short.ctx);
    await ctx.provider.send("evm_setAutomine", [false]);
    let answer: unknown;
    try {
      answer = await raw.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "25", cuid });
    } finally {
      await ctx.provider.send("evm_setAutomine", [true]);
    }
    if (!isPendingWrite(answer)) throw new Error(`expected a pending write, got ${JSON.stringify(answer)}`);
    const writeId = answer.write_id;
    expect(writeId).toMatch(/^[1-9][0-9]*$/);
    await ctx.provider.send("evm_mine", []);
    let status = await a.service.lookupWrite({ client_id: clientId }, writeId);
    for (let i = 0; i < 200 && status.status !== "confirmed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await a.service.lookupWrite({ client_id: clientId }, writeId);
    }
    expect(status).toMatchObject({ success: true, write_id: writeId, status: "confirmed", result: { success: true, token_amount: "25" } });
    expect(await codeOf(a.service.lookupWrite({ client_id: "sg_someone_else" }, writeId))).toBe("write_not_found");
    expect(await codeOf(a.service.lookupWrite({ user_uuid: user }, writeId))).toBe("write_not_found");
    expect(await codeOf(a.service.lookupWrite({ client_id: clientId }, "999999999"))).toBe("write_not_found");
    expect(await codeOf(a.service.lookupWrite({ client_id: clientId }, "not-a-number"))).toBe("invalid_request");
    await short.service.close();
  });
});

describe("a provider's first key is shown once", () => {
  const registration = (clientId: string) => ({
    client_id: clientId,
    cuid: `once-${randomUUID().slice(0, 8)}`,
    release_per: 0,
    owner_addr: Wallet.createRandom().address,
  });

  it("in the first answer only: a retry under the same key answers that it was issued, never the key", async () => {
    const clientId = `sg_once_${randomUUID().slice(0, 8)}`;
    const request = registration(clientId);
    const key = randomUUID();
    const first = await a.service.initPermissionProvider(request, { idempotencyKey: key });
    expect(first).toMatchObject({ key_issued: true, aes_key: expect.stringMatching(/^[0-9a-f]{64}$/), aes_iv: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const { aes_key: _key, aes_iv: _iv, ...withoutKey } = first;
    expect(await b.service.initPermissionProvider(request, { idempotencyKey: key })).toEqual(withoutKey);
    expect(await a.service.initPermissionProvider(request, { idempotencyKey: key })).toEqual(withoutKey);
    expect(await a.service.initPermissionProvider(registration(clientId))).toMatchObject({ key_issued: false });
  });

  it("after a 202: the first lookup shows it, to one of two instances looking at once; never a key made later by a rotation", async () => {
    const short = await startService({ writeWaitMs: 200, keyEncryptionKey });
    const pendingRegistration = async (clientId: string) => {
      await a.ctx.provider.send("evm_setAutomine", [false]);
      try {
        const answer = await serviceOver(short.ctx).initPermissionProvider(registration(clientId));
        if (!isPendingWrite(answer)) throw new Error(`expected a pending write, got ${JSON.stringify(answer)}`);
        return answer.write_id;
      } finally {
        await a.ctx.provider.send("evm_setAutomine", [true]);
      }
    };
    const settled = async (clientId: string, writeId: string) => {
      await a.ctx.provider.send("evm_mine", []);
      for (let i = 0; i < 200; i++) {
        const [row] = await a.db.query<{ status: string }>("SELECT status FROM cs_writes WHERE id = $1", [writeId]);
        if (row?.status === "confirmed") return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`write ${writeId} of ${clientId} did not settle`);
    };
    try {
      const one = `sg_once_${randomUUID().slice(0, 8)}`;
      const oneWrite = await pendingRegistration(one);
      await settled(one, oneWrite);
      const looks = await Promise.all([a.service.lookupWrite({ client_id: one }, oneWrite), b.service.lookupWrite({ client_id: one }, oneWrite)]);
      const results = looks.map((look) => look.result as Record<string, unknown>);
      expect(results.filter((result) => typeof result["aes_key"] === "string")).toHaveLength(1);
      expect(results.every((result) => result["key_issued"] === true)).toBe(true);
      expect((await a.service.lookupWrite({ client_id: one }, oneWrite)).result).not.toHaveProperty("aes_key");

      // Rotated before its registration was answered: the rotation showed its key; the registration shows none.
      const two = `sg_once_${randomUUID().slice(0, 8)}`;
      const twoWrite = await pendingRegistration(two);
      const rotation = await a.service.rotateProviderKey(two, 0);
      await settled(two, twoWrite);
      const look = await b.service.lookupWrite({ client_id: two }, twoWrite);
      expect(look.result).toMatchObject({ success: true, key_issued: true });
      expect(look.result).not.toHaveProperty("aes_key");
      expect(JSON.stringify(look)).not.toContain(rotation.aes_key);
    } finally {
      await short.service.close();
    }
  });
});
