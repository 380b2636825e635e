import { randomUUID } from "node:crypto";
import { Wallet } from "ethers";
import { encryptHex } from "@slotgate/protocol/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

/** A provider with its spend key, and `users` slots that each bought 100 content tokens of its cuid. */
async function providerWithSlots(users: number) {
  const { service } = h;
  const clientId = `sg_batch_${randomUUID().slice(0, 8)}`;
  const cuid = `batch-${randomUUID().slice(0, 8)}`;
  const registered = await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
  const slots: Array<{ user: number; slot: string }> = [];
  for (let n = 0; n < users; n += 1) {
    const user = newUserId();
    const pin = pinOf("135790");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    await service.fundWallet({ user_uuid: user, xotn: "1000" });
    await service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "approve_purchases", cuid, amount: "100" } });
    await service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "100", cuid });
    slots.push({ user, slot: (await service.contentAddressFor(user))! });
  }
  const spend = (user: number, amount: number) => ({
    encrypted_message: encryptHex(
      JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: String(amount), cuid }),
      registered.aes_key!,
      registered.aes_iv!,
    ),
  });
  return { clientId, cuid, slots, spend };
}

describe("spends that arrive together", () => {
  it("are recorded by fewer transactions than spends (increase_used_batch), each once, at less gas per spend than one transaction each", async () => {
    const { service, ctx } = h;
    const { clientId, cuid, slots, spend } = await providerWithSlots(5);
    const recorder = ctx.writers.find((writer) => writer.address === ctx.signers.spendRecorder)!;

    // One spend alone: one increase_used transaction, the baseline for gas.
    const alone = await service.increaseUsed(clientId, spend(slots[0]!.user, 1));
    const aloneGas = (await ctx.provider.getTransactionReceipt(alone.tx_hash))!.gasUsed;

    // 20 spends at once: four per slot, 1 + 2 + 3 + 4 each.
    const before = recorder.stats.transactions;
    const answers = await Promise.all(slots.flatMap(({ user }) => [1, 2, 3, 4].map((amount) => service.increaseUsed(clientId, spend(user, amount)))));
    const transactions = recorder.stats.transactions - before;
    const hashes = new Set(answers.map((answer) => answer.tx_hash));

    expect(answers.every((answer) => answer.success)).toBe(true);
    expect(transactions).toBeLessThan(20);
    expect(hashes.size).toBe(transactions);
    expect(recorder.stats.largestBatch).toBeGreaterThan(1);
    // Each spend was recorded once: the chain holds exactly the sums.
    for (const [index, { slot }] of slots.entries()) {
      const [balance, used] = await ctx.contracts.exchange.balance_adex(slot, cuid);
      const expected = 10n + (index === 0 ? 1n : 0n);
      expect(used).toBe(expected);
      expect(balance).toBe(100n - expected);
    }
    // Batches are cheaper per spend than the lone spend's transaction.
    for (const hash of hashes) {
      const receipt = (await ctx.provider.getTransactionReceipt(hash))!;
      const size = answers.filter((answer) => answer.tx_hash === hash).length;
      if (size > 1) expect(receipt.gasUsed / BigInt(size)).toBeLessThan(aloneGas);
    }
  });
});

describe("spendBatchLimit", () => {
  /** Restarts the harness's service with `spendBatchLimit` (the spend recorder's lease passes to it). */
  async function restartWith(spendBatchLimit: number) {
    await h.service.close();
    h = await startService({ spendBatchLimit });
    return h.ctx.writers.find((writer) => writer.address === h.ctx.signers.spendRecorder)!;
  }

  it("1 sends one increase_used transaction per spend, each spend once", async () => {
    const recorder = await restartWith(1);
    const { clientId, cuid, slots, spend } = await providerWithSlots(3);
    const before = recorder.stats.transactions;
    const answers = await Promise.all(slots.flatMap(({ user }) => [1, 2, 3].map((amount) => h.service.increaseUsed(clientId, spend(user, amount)))));
    expect(answers.every((answer) => answer.success)).toBe(true);
    expect(recorder.stats.transactions - before).toBe(9);
    expect(new Set(answers.map((answer) => answer.tx_hash)).size).toBe(9);
    expect(recorder.stats.largestBatch).toBe(1);
    for (const { slot } of slots) expect((await h.ctx.contracts.exchange.balance_adex(slot, cuid))[1]).toBe(6n);
  });

  it("caps each batch at the limit, each spend once", async () => {
    const recorder = await restartWith(3);
    const { clientId, cuid, slots, spend } = await providerWithSlots(4);
    const answers = await Promise.all(slots.flatMap(({ user }) => [1, 2, 3].map((amount) => h.service.increaseUsed(clientId, spend(user, amount)))));
    expect(answers.every((answer) => answer.success)).toBe(true);
    const sizes = new Map<string, number>();
    for (const answer of answers) sizes.set(answer.tx_hash, (sizes.get(answer.tx_hash) ?? 0) + 1);
    expect(Math.max(...sizes.values())).toBeLessThanOrEqual(3);
    expect(recorder.stats.largestBatch).toBeLessThanOrEqual(3);
    expect(sizes.size).toBeGreaterThanOrEqual(4);
    for (const { slot } of slots) expect((await h.ctx.contracts.exchange.balance_adex(slot, cuid))[1]).toBe(6n);
  });

  it("must be a whole number from 1 to 100", async () => {
    for (const spendBatchLimit of [0, 2.5, 101]) {
      await expect(startService({ spendBatchLimit })).rejects.toMatchObject({ code: "invalid_request", message: expect.stringContaining("spendBatchLimit") });
    }
  });
});
