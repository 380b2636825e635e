import fc from "fast-check";
import { MaxUint256, ZeroAddress, getAddress, id } from "ethers";
import { describe, expect, it } from "vitest";
import { expectRevert } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";

/** The documented rule: fee = floor(15%), provider = the rest. */
function expectedSplit(amount: bigint): { fee: bigint; provider: bigint } {
  const fee = (amount * 15n) / 100n;
  return { fee, provider: amount - fee };
}

describe("ContentTokenExchange: purchase", () => {
  const s = useTestSystem();
  const slot = getAddress("0x00000000000000000000000000000000000051a7");

  async function balances() {
    const { xotn, exchange } = s.platformContracts;
    const [treasury, provider, payer, slotTokens] = await Promise.all([
      xotn.balanceOf(s.addresses.treasury),
      xotn.balanceOf(s.providerWallet.address),
      xotn.balanceOf(s.holder.address),
      exchange.balance_adex(slot, CUID),
    ]);
    return { treasury, provider, payer, balance: slotTokens.balance, used: slotTokens.used };
  }

  it.each([1n, 6n, 7n, 99n, 101n, 333n, 10n ** 18n + 1n, 123_456_789_012_345_678_901n])(
    "splits %s wei exactly: floor(15%%) to the treasury, the rest to the provider, nothing created or lost",
    async (amount) => {
      const { exchange, xotn } = s.holderContracts;
      await (await xotn.approve(s.addresses.exchange, amount)).wait();
      const before = await balances();
      const [tokenAmount, platformFee, providerReceived] = await exchange.buy_content_token.staticCall(slot, CUID, amount);
      const receipt = await (await exchange.buy_content_token(slot, CUID, amount)).wait();
      const after = await balances();
      const { fee, provider } = expectedSplit(amount);

      expect([tokenAmount, platformFee, providerReceived]).toEqual([amount, fee, provider]);
      expect(platformFee + providerReceived).toBe(amount);
      expect(after.treasury - before.treasury).toBe(fee);
      expect(after.provider - before.provider).toBe(provider);
      expect(before.payer - after.payer).toBe(amount);
      expect(after.balance - before.balance).toBe(amount);
      expect(after.used).toBe(before.used);
      expect(await xotn.balanceOf(s.addresses.exchange)).toBe(0n);

      const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "ContentTokenPurchased");
      expect(event?.args.payer).toBe(s.holder.address);
      expect(event?.args.slot).toBe(slot);
      expect(event?.args.cuidKey).toBe(id(CUID));
      expect([event?.args.xotnPaid, event?.args.tokenAmount, event?.args.platformFee, event?.args.providerReceived]).toEqual([amount, amount, fee, provider]);
    },
  );

  it("quote() applies the same rule for any amount, including the largest (property)", async () => {
    const { exchange } = s.platformContracts;
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: MaxUint256 }), async (amount) => {
        const [tokens, fee, provider] = await exchange.quote(amount);
        expect(tokens).toBe(amount);
        expect(fee + provider).toBe(amount);
        expect(fee).toBe((amount / 100n) * 15n + ((amount % 100n) * 15n) / 100n);
        expect(fee * 100n <= amount * 15n).toBe(true);
        expect((fee + 1n) * 100n > amount * 15n).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("accumulates content tokens across purchases and keeps cuids apart", async () => {
    const { exchange, xotn } = s.holderContracts;
    await (await s.platformContracts.exchange.init_permission_provider("client-abc", "game-2", 10, s.stranger.address)).wait();
    await (await xotn.approve(s.addresses.exchange, 100n * XOTN)).wait();
    await (await exchange.buy_content_token(slot, CUID, 3n * XOTN)).wait();
    await (await exchange.buy_content_token(slot, CUID, 2n * XOTN)).wait();
    await (await exchange.buy_content_token(slot, "game-2", 1n * XOTN)).wait();
    expect((await exchange.balance_adex(slot, CUID)).balance).toBe(5n * XOTN);
    expect((await exchange.balance_adex(slot, "game-2")).balance).toBe(1n * XOTN);
    expect(await xotn.balanceOf(s.stranger.address)).toBe((1n * XOTN * 85n) / 100n);
  });

  it("pays the fee to the treasury in force at purchase time", async () => {
    await (await s.platformContracts.exchange.set_treasury(s.stranger.address)).wait();
    await (await s.holderContracts.xotn.approve(s.addresses.exchange, 100n)).wait();
    await (await s.holderContracts.exchange.buy_content_token(slot, CUID, 100n)).wait();
    expect(await s.platformContracts.xotn.balanceOf(s.stranger.address)).toBe(15n);
  });

  it("refuses a zero slot (ZeroAddress), zero amount (ZeroAmount) and unknown cuid (UnknownCuid)", async () => {
    const { exchange, xotn } = s.holderContracts;
    await (await xotn.approve(s.addresses.exchange, 10n)).wait();
    await expectRevert(exchange.buy_content_token(ZeroAddress, CUID, 10n), "ZeroAddress");
    await expectRevert(exchange.buy_content_token(slot, CUID, 0n), "ZeroAmount");
    await expectRevert(exchange.buy_content_token(slot, "nope", 10n), "UnknownCuid", ["nope"]);
  });

  it("refuses a purchase beyond the payer's allowance with InsufficientAllowance", async () => {
    const { exchange, xotn } = s.holderContracts;
    await (await xotn.approve(s.addresses.exchange, 9n)).wait();
    await expectRevert(exchange.buy_content_token(slot, CUID, 10n), "InsufficientAllowance", [s.holder.address, 9n, 10n]);
  });

  it("refuses a purchase beyond the payer's balance with InsufficientXotn", async () => {
    const { exchange, xotn } = s.strangerContracts;
    await (await xotn.approve(s.addresses.exchange, 10n)).wait();
    await expectRevert(exchange.buy_content_token(slot, CUID, 10n), "InsufficientXotn", [s.stranger.address, 0n, 10n]);
  });

  it("never moves a holder's XOTN on someone else's call, even with an allowance in place", async () => {
    await (await s.holderContracts.xotn.approve(s.addresses.exchange, 1_000n * XOTN)).wait();
    const before = await s.platformContracts.xotn.balanceOf(s.holder.address);
    // The platform operator buys: the exchange pulls from the operator's own XOTN, never the holder's.
    const platformBefore = await s.platformContracts.xotn.balanceOf(s.platform.address);
    await (await s.platformContracts.exchange.buy_content_token(slot, CUID, 100n)).wait();
    // treasury == platform here, so it pays 100 and gets the 15 fee back
    expect(platformBefore - (await s.platformContracts.xotn.balanceOf(s.platform.address))).toBe(85n);
    // A stranger cannot spend the holder's allowance either: the payer is always msg.sender.
    await expectRevert(s.strangerContracts.exchange.buy_content_token(s.stranger.address, CUID, 10n), "InsufficientAllowance");
    expect(await s.platformContracts.xotn.balanceOf(s.holder.address)).toBe(before);
  });
});
