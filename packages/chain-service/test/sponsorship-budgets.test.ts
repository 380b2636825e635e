import { Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainServiceError } from "../src/index.js";
import { sponsorshipUsage } from "../src/storage/sponsorship.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";

// One operation reserves at most (callGas + 3 x verificationGas + preVerificationGas) x maxFeePerGas:
// a budget of 1 wei refuses every operation; the default budget lets them through and counts them.
let tight: Harness;
let roomy: Harness;
const now = new Date("2026-11-24T10:00:00Z");
beforeAll(async () => {
  roomy = await startService({ now: () => now });
  tight = await startService({ now: () => now, sponsorship: { userWeiPerDay: 1n }, keyEncryptionKey: roomy.ctx.kek.toString("hex") });
});
afterAll(async () => {
  await tight.service.close();
  await roomy.service.close();
});

async function user() {
  const id = newUserId();
  const pin = pinOf("777000");
  const reg = (await roomy.service.registerPin({ user_uuid: id, ...pin })).data[0]!;
  await roomy.service.fundWallet({ user_uuid: id, xotn: "50", wallet: "user" });
  return {
    id,
    transfer: {
      from_address: reg.address,
      to_address: Wallet.createRandom().address,
      amount: "5",
      contract_address: roomy.service.addresses.xotn,
      ...pin,
      key_share_user: reg.key_share_user,
    },
  };
}

describe("sponsorship budgets", () => {
  it("refuse an operation over the user's daily budget before anything is recorded or sent, and say when it resets", async () => {
    const { id, transfer } = await user();
    const writesBefore = await tight.db.query<{ n: string }>("SELECT count(*) AS n FROM cs_writes");
    const error = (await tight.service.transferToken(id, transfer).catch((e: unknown) => e)) as ChainServiceError;
    expect(error).toBeInstanceOf(ChainServiceError);
    expect(error.code).toBe("sponsorship_budget_exceeded");
    expect(error.details).toMatchObject({ scope: "user", limit_wei: "1", reset_at: "2026-11-25T00:00:00.000Z", retry_after_seconds: 14 * 3600 });
    expect(await tight.db.query("SELECT count(*) AS n FROM cs_writes")).toEqual(writesBefore);
    expect(await tight.ctx.contracts.xotn.balanceOf(transfer.to_address)).toBe(0n);
    // Nothing was taken: the wallet's first operation (nonce 0, deploying it) still goes through another instance.
    await roomy.service.transferToken(id, transfer);
    expect(await roomy.ctx.contracts.xotn.balanceOf(transfer.to_address)).toBe(5n);
  });

  it("count what landed operations actually cost, per user and per UTC day", async () => {
    const { id, transfer } = await user();
    await roomy.service.transferToken(id, transfer);
    await roomy.service.transferToken(id, transfer);
    const usage = await sponsorshipUsage(roomy.db, `user:${id}`, now);
    expect(usage.operations).toBe(2);
    expect(usage.wei).toBeGreaterThan(0n);
    // Settled to the actual gas cost, which is below what was reserved (the most it could cost).
    const write = (
      await roomy.db.query<{ payload: { sponsorship: { reservedWei: string } } }>(
        "SELECT payload FROM cs_writes WHERE scope = $1 AND kind = 'user_operation' ORDER BY id DESC LIMIT 1",
        [`user:${id}`],
      )
    )[0]!;
    expect(usage.wei).toBeLessThan(2n * BigInt(write.payload.sponsorship.reservedWei));
    expect((await sponsorshipUsage(roomy.db, `user:${id}`, new Date("2026-11-25T10:00:00Z"))).operations).toBe(0);
  });
});
