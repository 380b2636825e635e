import { JsonRpcProvider, Wallet, keccak256, parseEther } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertWrite, findWrite } from "../src/storage/writes.js";
import { transactionNonces } from "../src/storage/signers.js";
import { OperatorPlanner } from "../src/writes/operator-planner.js";
import { SignerWriter } from "../src/writes/signer-writer.js";
import type { CallPayload } from "../src/writes/operator-planner.js";
import { developmentKey } from "../src/index.js";
import { type Harness, startService } from "./helpers/setup.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

/** A funded key of its own (so this test's writers do not compete with the service's operator). */
async function freshSigner(): Promise<Wallet> {
  const key = Wallet.createRandom();
  const funder = new Wallet(developmentKey(8), h.ctx.provider);
  await (await funder.sendTransaction({ to: key.address, value: parseEther("1") })).wait();
  return new Wallet(key.privateKey, h.ctx.provider);
}

/** A provider whose node never receives a transaction: the state an instance leaves when it dies between keeping and sending. */
function droppingProvider(url: string): JsonRpcProvider {
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1 });
  // Every way of sending a raw transaction (`broadcastTransaction` too) goes through `send`.
  const send = provider.send.bind(provider);
  provider.send = async (method, params) => {
    if (method === "eth_sendRawTransaction") throw new Error("the instance died before sending");
    return send(method, params);
  };
  return provider;
}

function writer(wallet: Wallet, holder: string, provider: JsonRpcProvider, onSettled: (ids: readonly string[]) => void = () => undefined) {
  const ctx = h.ctx;
  return new SignerWriter({
    db: ctx.db,
    holder,
    provider,
    wallet: wallet.connect(provider),
    chainId: ctx.chainId,
    onSettled,
    leaseMs: 3000,
    rebroadcastMs: 200,
    planner: new OperatorPlanner({ db: ctx.db, provider, contracts: ctx.contracts, exchange: ctx.addresses.exchange, from: wallet.address }),
  });
}

/** Records an `approve(spender, amount)` of XOTN by `signer` (observable on chain, needs no balance). */
async function recordApprove(signer: string, spender: string, amount: bigint) {
  const ctx = h.ctx;
  const payload: CallPayload = {
    to: ctx.addresses.xotn,
    data: ctx.contracts.xotn.interface.encodeFunctionData("approve", [spender, amount]),
    answer: { kind: "transaction" },
  };
  const { record } = await insertWrite(ctx.db, {
    kind: "call",
    signer,
    scope: "test",
    idempotencyKey: null,
    requestHash: `approve-${spender}`,
    payload: payload as unknown as Record<string, unknown>,
  });
  return record;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("timed out waiting");
}

describe("a writer that dies", () => {
  it("between keeping a signed transaction and sending it: the next lease holder sends the same bytes, once", async () => {
    const ctx = h.ctx;
    const signer = await freshSigner();
    const spender = Wallet.createRandom().address;
    const write = await recordApprove(signer.address, spender, 41n);

    const dying = writer(signer, "dying-instance", droppingProvider(ctx.provider._getConnection().url));
    dying.kick();
    const kept = await until(
      () =>
        ctx.db.query<{ raw: string; tx_hash: string; sent_at: Date | null }>("SELECT raw, tx_hash, sent_at FROM cs_transactions WHERE signer = $1", [
          signer.address,
        ]),
      (rows) => rows.length === 1,
    );
    await dying.stop();
    expect(kept[0]!.sent_at).toBeNull();
    expect(await ctx.provider.getTransactionCount(signer.address)).toBe(0);
    expect((await findWrite(ctx.db, write.id))!.status).toBe("submitted");

    const next = writer(signer, "next-instance", ctx.provider);
    next.start();
    const settled = await until(
      () => findWrite(ctx.db, write.id),
      (w) => w!.status === "confirmed",
    );
    await next.stop();
    expect(settled!.result).toMatchObject({ success: true, tx_hash: kept[0]!.tx_hash });
    expect(keccak256(kept[0]!.raw)).toBe(kept[0]!.tx_hash);
    expect(await ctx.contracts.xotn.allowance(signer.address, spender)).toBe(41n);
    expect(await ctx.provider.getTransactionCount(signer.address)).toBe(1);
    expect(await transactionNonces(ctx.db, signer.address)).toEqual([0n]);
  });

  it("and the chain used its nonce for another transaction: its write goes back in the queue and lands once with the next nonce", async () => {
    const ctx = h.ctx;
    const signer = await freshSigner();
    const spender = Wallet.createRandom().address;
    const write = await recordApprove(signer.address, spender, 42n);
    const dying = writer(signer, "dying-instance-2", droppingProvider(ctx.provider._getConnection().url));
    dying.kick();
    await until(
      () => ctx.db.query("SELECT 1 FROM cs_transactions WHERE signer = $1", [signer.address]),
      (rows) => rows.length === 1,
    );
    await dying.stop();
    // Someone else uses the key meanwhile: nonce 0 is taken by another transaction.
    await (await signer.sendTransaction({ to: signer.address, value: 0n, nonce: 0 })).wait();

    const next = writer(signer, "next-instance-2", ctx.provider);
    next.start();
    const settled = await until(
      () => findWrite(ctx.db, write.id),
      (w) => w!.status === "confirmed",
    );
    await next.stop();
    expect(await ctx.contracts.xotn.allowance(signer.address, spender)).toBe(42n);
    expect(await ctx.provider.getTransactionCount(signer.address)).toBe(2);
    const rows = await ctx.db.query<{ nonce: string; status: string }>("SELECT nonce, status FROM cs_transactions WHERE signer = $1 ORDER BY nonce", [
      signer.address,
    ]);
    expect(rows.map((r) => [Number(r.nonce), r.status])).toEqual([
      [0, "replaced"],
      [1, "mined"],
    ]);
    expect(settled!.attempts).toBe(2);
  });

  it("only the lease holder sends: a second writer of the same key waits, and takes over when the holder stops", async () => {
    const ctx = h.ctx;
    const signer = await freshSigner();
    const holder = writer(signer, "holder", ctx.provider);
    const standby = writer(signer, "standby", ctx.provider);
    holder.start();
    await until(
      async () => holder.holdsLease,
      (held) => held,
    );
    standby.start();
    const first = await recordApprove(signer.address, Wallet.createRandom().address, 1n);
    await until(
      () => findWrite(ctx.db, first.id),
      (w) => w!.status === "confirmed",
    );
    expect(standby.holdsLease).toBe(false);
    expect(standby.stats.transactions).toBe(0);
    await holder.stop();
    const second = await recordApprove(signer.address, Wallet.createRandom().address, 2n);
    standby.kick();
    await until(
      () => findWrite(ctx.db, second.id),
      (w) => w!.status === "confirmed",
    );
    expect(standby.stats.transactions).toBe(1);
    await standby.stop();
    expect(await transactionNonces(ctx.db, signer.address)).toEqual([0n, 1n]);
  });
});
