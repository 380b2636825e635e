import { ZeroAddress, getAddress } from "ethers";
import { describe, expect, it } from "vitest";
import { connectContracts } from "../src/index.js";
import { expectRevert } from "./support/chain.js";
import { CUID, RELEASE_PER, useTestSystem } from "./support/system.js";

const SLOT = getAddress("0x0000000000000000000000000000000000005107");
const BOUGHT = 1_000n;

describe("ContentTokenExchange: spending (increase_used) and release settlement", () => {
  const s = useTestSystem(async (system) => {
    await (await system.holderContracts.xotn.approve(system.addresses.exchange, BOUGHT)).wait();
    await (await system.holderContracts.exchange.buy_content_token(SLOT, CUID, BOUGHT)).wait();
  });

  describe("increase_used", () => {
    it("moves the amount from balance to used_balances and emits UsedBalanceIncreased", async () => {
      const { exchange } = s.platformContracts;
      const receipt = await (await exchange.increase_used(SLOT, CUID, 300n)).wait();
      const [balance, used] = await exchange.balance_adex(SLOT, CUID);
      expect([balance, used]).toEqual([BOUGHT - 300n, 300n]);
      expect(await exchange.used_balances(SLOT, CUID)).toBe(300n);
      const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "UsedBalanceIncreased");
      expect([event?.args.slot, event?.args.cuid, event?.args.amount, event?.args.balance, event?.args.usedBalance]).toEqual([SLOT, CUID, 300n, 700n, 300n]);
    });

    it("keeps balance + used constant and used non-decreasing over a sequence of spends", async () => {
      let previousUsed = 0n;
      for (const amount of [1n, 99n, 250n, 650n]) {
        await (await s.providerContracts.exchange.increase_used(SLOT, CUID, amount)).wait();
        const [balance, used] = await s.platformContracts.exchange.balance_adex(SLOT, CUID);
        expect(balance + used).toBe(BOUGHT);
        expect(used - previousUsed).toBe(amount);
        previousUsed = used;
      }
      expect(await s.platformContracts.exchange.balance_adex(SLOT, CUID)).toEqual([0n, BOUGHT]);
    });

    it("lets the cuid's provider wallet record spending", async () => {
      await (await s.providerContracts.exchange.increase_used(SLOT, CUID, 5n)).wait();
      expect((await s.platformContracts.exchange.balance_adex(SLOT, CUID)).used).toBe(5n);
    });

    it("refuses anyone else, including another cuid's provider and the operator, with NotSpendRecorderOrProvider", async () => {
      await (await s.platformContracts.exchange.init_permission_provider("other", "game-2", 10, s.stranger.address)).wait();
      await expectRevert(s.strangerContracts.exchange.increase_used(SLOT, CUID, 1n), "NotSpendRecorderOrProvider", [s.stranger.address]);
      await expectRevert(s.holderContracts.exchange.increase_used(SLOT, CUID, 1n), "NotSpendRecorderOrProvider", [s.holder.address]);
      // Once the owner appoints a separate spend recorder, the platform's other keys record nothing.
      await (await s.platformContracts.exchange.set_spend_recorder(s.bundler.address)).wait();
      await expectRevert(s.platformContracts.exchange.increase_used(SLOT, CUID, 1n), "NotSpendRecorderOrProvider", [s.platform.address]);
      await (await connectContracts(s.addresses, s.bundler).exchange.increase_used(SLOT, CUID, 1n)).wait();
      expect((await s.platformContracts.exchange.balance_adex(SLOT, CUID)).used).toBe(1n);
    });

    it("refuses a spend above the balance with InsufficientBalance and changes nothing", async () => {
      await expectRevert(s.platformContracts.exchange.increase_used(SLOT, CUID, BOUGHT + 1n), "InsufficientBalance", [SLOT, BOUGHT, BOUGHT + 1n]);
      expect(await s.platformContracts.exchange.balance_adex(SLOT, CUID)).toEqual([BOUGHT, 0n]);
    });

    it("refuses a zero slot, a zero amount and an unknown cuid", async () => {
      const { exchange } = s.platformContracts;
      await expectRevert(exchange.increase_used(ZeroAddress, CUID, 1n), "ZeroAddress");
      await expectRevert(exchange.increase_used(SLOT, CUID, 0n), "ZeroAmount");
      await expectRevert(exchange.increase_used(SLOT, "nope", 1n), "UnknownCuid", ["nope"]);
    });
  });

  describe("increase_used_batch", () => {
    const OTHER = getAddress("0x0000000000000000000000000000000000005108");

    async function spendEvents(receipt: Awaited<ReturnType<Awaited<ReturnType<typeof s.platformContracts.exchange.increase_used_batch>>["wait"]>>) {
      return (receipt?.logs ?? [])
        .map((log) => s.platformContracts.exchange.interface.parseLog(log))
        .filter((log) => log?.name === "UsedBalanceIncreased")
        .map((log) => [log?.args.slot, log?.args.cuid, log?.args.amount, log?.args.balance, log?.args.usedBalance]);
    }

    it("records several slots' spending in one transaction with one UsedBalanceIncreased per entry", async () => {
      await (await s.holderContracts.xotn.approve(s.addresses.exchange, 500n)).wait();
      await (await s.holderContracts.exchange.buy_content_token(OTHER, CUID, 500n)).wait();
      const { exchange } = s.platformContracts;
      const receipt = await (await exchange.increase_used_batch(CUID, [SLOT, OTHER, SLOT], [100n, 50n, 25n])).wait();
      expect(await spendEvents(receipt)).toEqual([
        [SLOT, CUID, 100n, BOUGHT - 100n, 100n],
        [OTHER, CUID, 50n, 450n, 50n],
        [SLOT, CUID, 25n, BOUGHT - 125n, 125n],
      ]);
      expect(await exchange.balance_adex(SLOT, CUID)).toEqual([BOUGHT - 125n, 125n]);
      expect(await exchange.balance_adex(OTHER, CUID)).toEqual([450n, 50n]);
    });

    it("is all or nothing: one short balance reverts the whole batch with InsufficientBalance", async () => {
      const { exchange } = s.platformContracts;
      await expectRevert(exchange.increase_used_batch(CUID, [SLOT, OTHER], [10n, 1n]), "InsufficientBalance", [OTHER, 0n, 1n]);
      expect(await exchange.balance_adex(SLOT, CUID)).toEqual([BOUGHT, 0n]);
    });

    it("refuses empty or uneven batches, zero entries, unknown cuids and callers other than the recorder or the provider", async () => {
      const { exchange } = s.platformContracts;
      await expectRevert(exchange.increase_used_batch(CUID, [], []), "InvalidBatch", [0n, 0n]);
      await expectRevert(exchange.increase_used_batch(CUID, [SLOT], [1n, 2n]), "InvalidBatch", [1n, 2n]);
      await expectRevert(exchange.increase_used_batch(CUID, [SLOT, ZeroAddress], [1n, 1n]), "ZeroAddress");
      await expectRevert(exchange.increase_used_batch(CUID, [SLOT], [0n]), "ZeroAmount");
      await expectRevert(exchange.increase_used_batch("nope", [SLOT], [1n]), "UnknownCuid", ["nope"]);
      await expectRevert(s.strangerContracts.exchange.increase_used_batch(CUID, [SLOT], [1n]), "NotSpendRecorderOrProvider", [s.stranger.address]);
      await (await s.providerContracts.exchange.increase_used_batch(CUID, [SLOT], [1n])).wait();
      expect((await exchange.balance_adex(SLOT, CUID)).used).toBe(1n);
    });
  });

  describe("release_used_balance", () => {
    it("is refused with ReleaseDisabled while the cuid flag is off (the default)", async () => {
      await (await s.platformContracts.exchange.increase_used(SLOT, CUID, 500n)).wait();
      await expectRevert(s.platformContracts.exchange.release_used_balance(CUID, SLOT), "ReleaseDisabled", [CUID]);
      await expectRevert(s.providerContracts.exchange.release_used_balance(CUID, SLOT), "ReleaseDisabled", [CUID]);
    });

    it("pays release_per % of the platform fee on the used amount once the flag is on, and nothing new the second time", async () => {
      const { exchange, xotn } = s.platformContracts;
      await (await exchange.increase_used(SLOT, CUID, 333n)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      const expected = (333n * 15n * BigInt(RELEASE_PER)) / 10_000n; // 19 (19.98 rounded down)
      expect(expected).toBe(19n);
      expect(await exchange.releasable(CUID, SLOT)).toBe(expected);

      const providerBefore = await xotn.balanceOf(s.providerWallet.address);
      const treasuryBefore = await xotn.balanceOf(s.addresses.treasury);
      expect(await exchange.release_used_balance.staticCall(CUID, SLOT)).toBe(expected);
      const receipt = await (await exchange.release_used_balance(CUID, SLOT)).wait();
      expect((await xotn.balanceOf(s.providerWallet.address)) - providerBefore).toBe(expected);
      expect(treasuryBefore - (await xotn.balanceOf(s.addresses.treasury))).toBe(expected);
      expect(await exchange.released_used(SLOT, CUID)).toBe(333n);
      const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "UsedBalanceReleased");
      expect([event?.args.slot, event?.args.providerOwner, event?.args.settledUsed, event?.args.releasedAmount]).toEqual([
        SLOT,
        s.providerWallet.address,
        333n,
        expected,
      ]);

      // Second release: the same used amount is never paid twice.
      expect(await exchange.release_used_balance.staticCall(CUID, SLOT)).toBe(0n);
      await (await exchange.release_used_balance(CUID, SLOT)).wait();
      expect((await xotn.balanceOf(s.providerWallet.address)) - providerBefore).toBe(expected);
      expect(await exchange.releasable(CUID, SLOT)).toBe(0n);

      // Newly used balance is settled on the next release, and only it.
      await (await exchange.increase_used(SLOT, CUID, 100n)).wait();
      expect(await exchange.release_used_balance.staticCall(CUID, SLOT)).toBe(6n); // 100 * 15% * 40%
      await (await s.providerContracts.exchange.release_used_balance(CUID, SLOT)).wait();
      expect((await xotn.balanceOf(s.providerWallet.address)) - providerBefore).toBe(expected + 6n);
      expect(await exchange.balance_adex(SLOT, CUID)).toEqual([BOUGHT - 433n, 433n]);
    });

    it("is refused again after the platform switches the flag back off", async () => {
      const { exchange } = s.platformContracts;
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await exchange.set_release_enabled(CUID, false)).wait();
      await (await exchange.increase_used(SLOT, CUID, 10n)).wait();
      await expectRevert(exchange.release_used_balance(CUID, SLOT), "ReleaseDisabled");
    });

    it("settles with release_per 0 without paying, and with 100 pays the whole platform fee on the used amount", async () => {
      const { exchange, xotn } = s.platformContracts;
      await (await exchange.increase_used(SLOT, CUID, 200n)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await exchange.update_provider(CUID, 0, s.providerWallet.address)).wait();
      const before = await xotn.balanceOf(s.providerWallet.address);
      await (await exchange.release_used_balance(CUID, SLOT)).wait();
      expect(await xotn.balanceOf(s.providerWallet.address)).toBe(before);
      expect(await exchange.released_used(SLOT, CUID)).toBe(200n);
      await (await exchange.update_provider(CUID, 100, s.providerWallet.address)).wait();
      await (await exchange.increase_used(SLOT, CUID, 60n)).wait();
      await (await exchange.release_used_balance(CUID, SLOT)).wait();
      expect((await xotn.balanceOf(s.providerWallet.address)) - before).toBe(9n); // 15% of 60
    });

    it("never lets a provider that buys and spends its own tokens take out more XOTN than it paid", async () => {
      const { exchange } = s.platformContracts;
      await (await exchange.update_provider(CUID, 100, s.providerWallet.address)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await s.platformContracts.xotn.transfer(s.providerWallet.address, 1_000_000n)).wait();
      const own = s.providerWallet.address;
      const before = await s.providerContracts.xotn.balanceOf(own);
      for (const amount of [1_000n, 333n, 7n, 99_999n]) {
        await (await s.providerContracts.xotn.approve(s.addresses.exchange, amount)).wait();
        await (await s.providerContracts.exchange.buy_content_token(own, CUID, amount)).wait();
        await (await s.providerContracts.exchange.increase_used(own, CUID, amount)).wait();
        await (await s.providerContracts.exchange.release_used_balance(CUID, own)).wait();
      }
      expect(await s.providerContracts.xotn.balanceOf(own)).toBeLessThanOrEqual(before);
    });

    it("caps release by the fees collected for the slot and cuid: purchases of 6 wei or less release nothing", async () => {
      const { exchange, xotn } = s.platformContracts;
      const tiny = getAddress("0x0000000000000000000000000000000000005109");
      await (await exchange.update_provider(CUID, 100, s.providerWallet.address)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await s.holderContracts.xotn.approve(s.addresses.exchange, 6n * 50n)).wait();
      for (let i = 0; i < 50; i++) await (await s.holderContracts.exchange.buy_content_token(tiny, CUID, 6n)).wait();
      expect(await exchange.fees_collected(tiny, CUID)).toBe(0n); // floor(6 * 15%) = 0, 50 times
      await (await exchange.increase_used(tiny, CUID, 300n)).wait();
      expect(await exchange.releasable(CUID, tiny)).toBe(0n); // uncapped: floor(300 * 15%) = 45
      const treasuryBefore = await xotn.balanceOf(s.addresses.treasury);
      expect(await exchange.release_used_balance.staticCall(CUID, tiny)).toBe(0n);
      await (await exchange.release_used_balance(CUID, tiny)).wait();
      expect(await xotn.balanceOf(s.addresses.treasury)).toBe(treasuryBefore);
      expect(await exchange.released_used(tiny, CUID)).toBe(300n);

      // A purchase that carries a fee funds release up to that fee, never more.
      await (await s.holderContracts.xotn.approve(s.addresses.exchange, 7n)).wait();
      await (await s.holderContracts.exchange.buy_content_token(tiny, CUID, 7n)).wait(); // fee 1
      await (await exchange.increase_used(tiny, CUID, 7n)).wait();
      const before = await xotn.balanceOf(s.providerWallet.address);
      expect(await exchange.releasable(CUID, tiny)).toBe(1n);
      await (await exchange.release_used_balance(CUID, tiny)).wait();
      expect((await xotn.balanceOf(s.providerWallet.address)) - before).toBe(1n);
      expect([await exchange.fees_collected(tiny, CUID), await exchange.fees_released(tiny, CUID)]).toEqual([1n, 1n]);
      expect(await exchange.releasable(CUID, tiny)).toBe(0n);
    });

    it("pays the uncapped rule when the slot's purchases carried their fees, and tracks what it paid", async () => {
      const { exchange } = s.platformContracts;
      await (await exchange.update_provider(CUID, 100, s.providerWallet.address)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await exchange.increase_used(SLOT, CUID, BOUGHT)).wait();
      expect(await exchange.fees_collected(SLOT, CUID)).toBe(150n);
      expect(await exchange.release_used_balance.staticCall(CUID, SLOT)).toBe(150n);
      await (await exchange.release_used_balance(CUID, SLOT)).wait();
      expect(await exchange.fees_released(SLOT, CUID)).toBe(150n);
    });

    it("refuses callers other than the platform and the cuid's provider with NotPlatformOrProvider", async () => {
      await (await s.platformContracts.exchange.set_release_enabled(CUID, true)).wait();
      await expectRevert(s.strangerContracts.exchange.release_used_balance(CUID, SLOT), "NotPlatformOrProvider");
    });

    it("refuses a zero slot and an unknown cuid", async () => {
      await expectRevert(s.platformContracts.exchange.release_used_balance(CUID, ZeroAddress), "ZeroAddress");
      await expectRevert(s.platformContracts.exchange.release_used_balance("nope", SLOT), "UnknownCuid");
    });

    it("refuses with ReleaseFundingShort when the treasury's allowance cannot cover it, and settles nothing", async () => {
      const { exchange, xotn } = s.platformContracts;
      await (await exchange.increase_used(SLOT, CUID, 100n)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await xotn.approve(s.addresses.exchange, 5n)).wait();
      await expectRevert(exchange.release_used_balance(CUID, SLOT), "ReleaseFundingShort", [s.addresses.treasury, 5n, 6n]);
      expect(await exchange.released_used(SLOT, CUID)).toBe(0n);
    });

    it("refuses with ReleaseFundingShort when the treasury's balance is short", async () => {
      const { exchange, xotn } = s.platformContracts;
      await (await exchange.increase_used(SLOT, CUID, 100n)).wait();
      await (await exchange.set_release_enabled(CUID, true)).wait();
      await (await exchange.set_treasury(s.stranger.address)).wait();
      await (await s.strangerContracts.xotn.approve(s.addresses.exchange, 1_000n)).wait();
      await (await xotn.transfer(s.stranger.address, 5n)).wait();
      await expectRevert(exchange.release_used_balance(CUID, SLOT), "ReleaseFundingShort", [s.stranger.address, 5n, 6n]);
    });
  });
});
