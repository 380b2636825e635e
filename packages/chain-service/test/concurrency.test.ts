import { runWalletOperation } from "../src/operations/wallet-operation.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Wallet } from "ethers";
import { W_SALT, computeWalletAddress } from "@slotgate/contracts";
import { findWrite } from "../src/storage/writes.js";
import { opFor, recordOperation } from "./helpers/operations.js";
import { type Harness, landedAnswer, newUserId, pinOf, startService, testIdentity } from "./helpers/setup.js";

let h: Harness;
beforeAll(async () => {
  h = await startService({ bundler: { kind: "built-in", maxBatchSize: 24 } });
});
afterAll(async () => {
  await h.service.close();
});

describe("sponsored operations under concurrency", () => {
  it("lands 50 operations submitted at once (30 for one wallet, 4 each for five more) exactly once, batched", async () => {
    const { service } = h;
    const ctx = h.ctx;
    const users = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const id = newUserId();
        const pin = pinOf("000111");
        const reg = (await service.registerPin({ user_uuid: id, ...pin })).data[0]!;
        await service.fundWallet({ user_uuid: id, xotn: "1000", wallet: "user" });
        return { id, pin, reg };
      }),
    );
    const counts = [30, 4, 4, 4, 4, 4];
    const receiver = Wallet.createRandom().address;
    const jobs = users.flatMap((user, index) =>
      Array.from({ length: counts[index]! }, (_, n) =>
        runWalletOperation(
          ctx,
          { user_uuid: user.id, ...user.pin, key_share_user: user.reg.key_share_user },
          { kind: "erc20_transfer", from_address: user.reg.address, to_address: receiver, amount: String(n + 1), contract_address: service.addresses.xotn },
          testIdentity(`user:${user.id}`),
        ).then(landedAnswer),
      ),
    );
    expect(jobs).toHaveLength(50);
    const bundler = ctx.writers.find((writer) => writer.address === ctx.signers.bundler)!;
    const batchesBefore = bundler.stats.transactions;
    const results = await Promise.all(jobs);

    expect(new Set(results.map((r) => r.user_op_hash)).size).toBe(50);
    const deployments = results.filter((r) => r.deployed_wallet).length;
    expect(deployments).toBe(6);
    const { entryPoint, xotn } = ctx.contracts;
    for (const [index, user] of users.entries()) {
      const count = counts[index]!;
      expect(await entryPoint.getNonce(user.reg.address, 0n)).toBe(BigInt(count));
      expect(await xotn.balanceOf(user.reg.address)).toBe(1000n - BigInt((count * (count + 1)) / 2));
    }
    expect(await xotn.balanceOf(receiver)).toBe(BigInt(465 + 5 * 10));
    const batches = bundler.stats.transactions - batchesBefore;
    expect(batches).toBeLessThan(50);
    expect(bundler.stats.largestBatch).toBeGreaterThan(1);
    expect(new Set(results.map((r) => r.tx_hash)).size).toBe(batches);
  });

  it("never collides on the operator's transaction nonces: 20 operator transactions at once all land", async () => {
    const { service } = h;
    const user = newUserId();
    await service.registerPin({ user_uuid: user, ...pinOf("010101") });
    const results = await Promise.all(Array.from({ length: 20 }, () => service.fundWallet({ user_uuid: user, xotn: "3" })));
    expect(new Set(results.map((r) => r.tx_hash)).size).toBe(20);
    const slot = (await service.contentAddressFor(user))!;
    expect(await h.ctx.contracts.xotn.balanceOf(slot)).toBe(60n);
  });

  it("lands a wallet's deploying operation and 30 more planned in one cycle: the deployment alone first, then at most one bundle of the wallet per cycle", async () => {
    const ctx = h.ctx;
    const owner = Wallet.createRandom();
    // 31 operations in one database transaction: the bundler plans them together (more than one bundle's 24).
    const ops = await Promise.all(Array.from({ length: 31 }, (_, nonce) => opFor(ctx, owner, BigInt(nonce))));
    const writes = await ctx.db.transaction(async (tx) => {
      const recorded = [];
      for (const op of ops) recorded.push(await recordOperation(ctx, op, tx));
      return recorded;
    });
    const results = await Promise.allSettled(writes.map(async (w) => ctx.writes.outcome((await findWrite(ctx.db, w.id))!)));
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason?.message))).toEqual([]);
    const sender = computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT);
    expect(await ctx.contracts.entryPoint.getNonce(sender, 0n)).toBe(31n);
    const hashes = results.map((r) => (r as PromiseFulfilledResult<Record<string, unknown>>).value.tx_hash);
    // The deployment in a bundle of its own; nonces 1-24 in one bundle, 25-30 in the next.
    expect(new Set(hashes.slice(1)).has(hashes[0])).toBe(false);
    expect(new Set(hashes.slice(1, 25)).size).toBe(1);
    expect(new Set(hashes.slice(25)).size).toBe(1);
    expect(hashes[25]).not.toBe(hashes[1]);
  });
});
