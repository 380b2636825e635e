import { AbiCoder, type HDNodeWallet, Interface, Wallet, dataLength, dataSlice, getAddress } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPONSORSHIP_START_LEEWAY_SECONDS, W_SALT, computeWalletAddress, entryPointAbi, handleOpsTransaction, userOperationToRpc } from "@slotgate/contracts";
import { developmentKey } from "../src/index.js";
import { runWalletOperation } from "../src/operations/wallet-operation.js";
import { findWrite, findWriteByKey } from "../src/storage/writes.js";
import { operationOf } from "../src/writes/operation-planner.js";
import { opFor, recordOperation } from "./helpers/operations.js";
import { type Harness, landedAnswer, newUserId, pinOf, startService, testIdentity } from "./helpers/setup.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

/** Waits for the outcome of recorded writes (the bundler writer is kicked by the wait). */
const outcomes = (ids: string[]) => Promise.allSettled(ids.map(async (id) => h.ctx.writes.outcome((await findWrite(h.ctx.db, id))!)));

describe("the bundler's writes", () => {
  it("drops a badly signed and an expired operation with their reasons and still lands the others in one bundle", async () => {
    const ctx = h.ctx;
    // Deployed wallets first: operations with initCode go into bundles of their own.
    const owners = [Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom()];
    const deployed = await outcomes(await Promise.all(owners.map(async (owner) => (await recordOperation(ctx, await opFor(ctx, owner, 0n))).id)));
    expect(deployed.every((d) => d.status === "fulfilled")).toBe(true);

    const [good, expired, forged, alsoGood] = owners as [HDNodeWallet, HDNodeWallet, HDNodeWallet, HDNodeWallet];
    const ops = [
      await opFor(ctx, good, 1n),
      await opFor(ctx, expired, 1n, { validForSeconds: -5 }),
      await opFor(ctx, forged, 1n, { signer: Wallet.createRandom() }),
      await opFor(ctx, alsoGood, 1n),
    ];
    // Recorded together (one database transaction), so the writer plans them together.
    const writes = await ctx.db.transaction(async (tx) => {
      const recorded = [];
      for (const op of ops) recorded.push(await recordOperation(ctx, op, tx));
      return recorded;
    });
    const results = await outcomes(writes.map((w) => w.id));
    const [a, b, c, d] = results;
    expect(a?.status).toBe("fulfilled");
    expect(d?.status).toBe("fulfilled");
    const first = (a as PromiseFulfilledResult<Record<string, unknown>>).value;
    const last = (d as PromiseFulfilledResult<Record<string, unknown>>).value;
    expect(first.tx_hash).toBe(last.tx_hash); // one handleOps transaction
    expect((b as PromiseRejectedResult).reason).toMatchObject({ code: "chain_reverted", details: { reason: "SponsorshipExpired" } });
    expect((c as PromiseRejectedResult).reason).toMatchObject({ code: "chain_reverted", message: expect.stringContaining("AA24") });
    for (const [owner, nonce] of [
      [good, 2n],
      [expired, 1n],
      [forged, 1n],
      [alsoGood, 2n],
    ] as const) {
      expect(await ctx.contracts.entryPoint.getNonce(computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT), 0n)).toBe(nonce);
    }
  });

  it("lands the others of a bundle that a front-runner made revert, and reports the front-run operation as landed", async () => {
    const ctx = h.ctx;
    const owners = [Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom()];
    await outcomes(await Promise.all(owners.map(async (owner) => (await recordOperation(ctx, await opFor(ctx, owner, 0n))).id)));
    const ops = await Promise.all(owners.map((owner) => opFor(ctx, owner, 1n)));
    await ctx.provider.send("evm_setAutomine", [false]);
    try {
      const writes = await Promise.all(ops.map((op) => recordOperation(ctx, op)));
      const waiting = outcomes(writes.map((w) => w.id));
      // The bundle is signed and handed to the node; before the block is mined another bundler sends
      // the second operation alone, with a higher tip, so it lands first and the bundle reverts.
      const bundler = ctx.signers.bundler;
      for (
        let i = 0;
        i < 200 && (await ctx.provider.getTransactionCount(bundler, "pending")) === (await ctx.provider.getTransactionCount(bundler, "latest"));
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const rival = new Wallet(developmentKey(7), ctx.provider);
      const front = handleOpsTransaction(ctx.addresses.entryPoint, [operationOf({ op: userOperationToRpc(ops[1]!) } as never)], rival.address);
      const fees = await ctx.provider.getFeeData();
      const rivalTx = await rival.sendTransaction({ ...front, maxFeePerGas: fees.maxFeePerGas! * 10n, maxPriorityFeePerGas: fees.maxFeePerGas! * 5n });
      await ctx.provider.send("evm_mine", []);
      const rivalReceipt = await rivalTx.wait();
      expect(rivalReceipt?.status).toBe(1);
      await ctx.provider.send("evm_setAutomine", [true]);
      await ctx.provider.send("evm_mine", []);
      const results = await waiting;
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      const [first, second, third] = results.map((r) => (r as PromiseFulfilledResult<Record<string, unknown>>).value);
      expect(second!.tx_hash).toBe(rivalTx.hash);
      expect(first!.tx_hash).toBe(third!.tx_hash);
      expect(first!.tx_hash).not.toBe(rivalTx.hash);
      // Exactly once: each wallet's nonce moved by one, and the operation's event is on chain once.
      const entryPoint = new Interface(entryPointAbi);
      const topic = entryPoint.getEvent("UserOperationEvent")!.topicHash;
      for (const [index, owner] of owners.entries()) {
        const sender = computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT);
        expect(await ctx.contracts.entryPoint.getNonce(sender, 0n)).toBe(2n);
        const write = (await findWrite(ctx.db, writes[index]!.id))!;
        const logs = await ctx.provider.getLogs({ address: ctx.addresses.entryPoint, topics: [topic, write.payload.userOpHash as string], fromBlock: 0 });
        expect(logs).toHaveLength(1);
      }
    } finally {
      await ctx.provider.send("evm_setAutomine", [true]);
    }
  });

  it("signs validUntil = now + 5 minutes (spec 4.11) and validAfter a little before now, with the wallet's first operation deploying it", async () => {
    const ctx = h.ctx;
    const user = newUserId();
    const pin = pinOf("123123");
    const reg = (await h.service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    await h.service.fundWallet({ user_uuid: user, xotn: "5", wallet: "user" });
    // The service shares fee data and the window for one second: "now" may be up to a second old.
    const before = Math.floor(Date.now() / 1000) - 1;
    const latest = (await ctx.provider.getBlock("latest"))!.timestamp;
    const identity = testIdentity(`user:${user}`, `window-${user}`);
    const transfer = {
      kind: "erc20_transfer" as const,
      from_address: reg.address,
      to_address: Wallet.createRandom().address,
      amount: "1",
      contract_address: ctx.addresses.xotn,
    };
    landedAnswer(await runWalletOperation(ctx, { user_uuid: user, ...pin, key_share_user: reg.key_share_user }, transfer, identity));
    const after = Math.floor(Date.now() / 1000);
    const write = (await findWriteByKey(ctx.db, identity.scope, identity.idempotencyKey!))!;
    const op = write.payload.op as Record<string, string>;
    expect(getAddress(op.sender!)).toBe(getAddress(reg.address));
    expect(op.initCode).not.toBe("0x");
    expect(op.paymasterAndData!.slice(0, 42).toLowerCase()).toBe(ctx.addresses.paymaster.toLowerCase());
    const [validUntil, validAfter] = AbiCoder.defaultAbiCoder().decode(["uint48", "uint48"], dataSlice(op.paymasterAndData!, 20, 84));
    expect(Number(validUntil)).toBeGreaterThanOrEqual(Math.max(before, latest) + 300);
    expect(Number(validUntil)).toBeLessThanOrEqual(Math.max(after, latest) + 300);
    expect(Number(validAfter)).toBeGreaterThanOrEqual(Math.min(before, latest) - SPONSORSHIP_START_LEEWAY_SECONDS);
    expect(Number(validAfter)).toBeLessThanOrEqual(Math.min(after, latest) - SPONSORSHIP_START_LEEWAY_SECONDS);
    expect(write.validUntil?.getTime()).toBe(Number(validUntil) * 1000);
    expect(dataLength(op.paymasterAndData!)).toBe(20 + 64 + 65);
    expect(dataLength(op.signature!)).toBe(65);
  });
});
