import { ZeroAddress } from "ethers";
import { describe, expect, it } from "vitest";
import { C_SALT, ContractsError, buyContentTokenCalls, computeWalletAddress, connectAccount, slotSaleCalls, slotSalt } from "../src/index.js";
import { expectRevert, offlineKey } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";
import { exchangeInterface, sendAs, walletsOf } from "./support/wallets.js";

describe("ContentTokenExchange: slot registry (buy_slot, change_slot_owner, slot_info)", () => {
  const s = useTestSystem();

  it("lets the platform register a slot (owner wallet, slot wallet, trCnt 0), with SlotOwnerChanged from the zero address", async () => {
    const { exchange } = s.platformContracts;
    const { userWallet: wallet, slotWallet } = walletsOf(s, offlineKey());
    expect(await exchange.slot_owner(CUID, 1n)).toBe(ZeroAddress);
    expect([...(await exchange.slot_info(CUID, 1n))]).toEqual([ZeroAddress, ZeroAddress, 0n, 0n, 0n]);
    const receipt = await (await exchange.buy_slot(wallet, 1n, CUID, slotWallet)).wait();
    expect(await exchange.slot_owner(CUID, 1n)).toBe(wallet);
    expect([...(await exchange.slot_info(CUID, 1n))]).toEqual([wallet, slotWallet, 0n, 0n, 0n]);
    const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "SlotOwnerChanged");
    expect([event?.args.slot, event?.args.previousOwner, event?.args.newOwner, event?.args.cuid]).toEqual([1n, ZeroAddress, wallet, CUID]);
  });

  it("refuses a wallet that tries to claim a free slot number for itself (squatting), on chain and before sponsorship", async () => {
    const owner = offlineKey();
    const { userWallet, slotWallet } = walletsOf(s, owner);
    const squat = { to: s.addresses.exchange, data: exchangeInterface.encodeFunctionData("buy_slot", [userWallet, 2n, CUID, slotWallet]) };
    // The platform's paymaster does not even sign it: the call reverts in simulation.
    await expect(sendAs(s, owner, squat)).rejects.toMatchObject({ code: "sponsorship_refused", reason: "NotOperator" });
    // Signed without the checks, it lands and reverts with NotOperator; the slot stays free.
    await expect(sendAs(s, owner, squat, { policy: false })).rejects.toMatchObject({ code: "user_operation_reverted", reason: "NotOperator" });
    // Directly from an account, for itself or anyone else: NotOperator.
    await expectRevert(s.strangerContracts.exchange.buy_slot(s.stranger.address, 2n, CUID, slotWallet), "NotOperator", [s.stranger.address]);
    expect(await s.platformContracts.exchange.slot_owner(CUID, 2n)).toBe(ZeroAddress);
    // The platform can still give the slot to whom it belongs.
    await (await s.platformContracts.exchange.buy_slot(userWallet, 2n, CUID, slotWallet)).wait();
    expect(await s.platformContracts.exchange.slot_owner(CUID, 2n)).toBe(userWallet);
  });

  it("keeps slot numbers of different cuids apart", async () => {
    const { exchange } = s.platformContracts;
    await (await exchange.init_permission_provider("c", "game-2", 0, s.providerWallet.address)).wait();
    await (await exchange.buy_slot(s.holder.address, 1n, CUID, walletsOf(s, offlineKey()).slotWallet)).wait();
    await (await exchange.buy_slot(s.stranger.address, 1n, "game-2", walletsOf(s, offlineKey()).slotWallet)).wait();
    expect(await exchange.slot_owner(CUID, 1n)).toBe(s.holder.address);
    expect(await exchange.slot_owner("game-2", 1n)).toBe(s.stranger.address);
  });

  it("refuses buy_slot by anyone but the operator or the owner with NotOperator, the cuid's provider included", async () => {
    await expectRevert(s.strangerContracts.exchange.buy_slot(s.holder.address, 3n, CUID, s.holder.address), "NotOperator", [s.stranger.address]);
    await expectRevert(s.providerContracts.exchange.buy_slot(s.holder.address, 3n, CUID, s.holder.address), "NotOperator");
  });

  it("refuses a zero owner or wallet, an unknown cuid, a registered slot and a wallet that backs another slot", async () => {
    const { exchange } = s.platformContracts;
    const wallet = walletsOf(s, offlineKey()).slotWallet;
    await expectRevert(exchange.buy_slot(ZeroAddress, 3n, CUID, wallet), "ZeroAddress");
    await expectRevert(exchange.buy_slot(s.holder.address, 3n, CUID, ZeroAddress), "ZeroAddress");
    await expectRevert(exchange.buy_slot(s.holder.address, 3n, "nope", wallet), "UnknownCuid", ["nope"]);
    await (await exchange.buy_slot(s.holder.address, 3n, CUID, wallet)).wait();
    await expectRevert(exchange.buy_slot(s.stranger.address, 3n, CUID, walletsOf(s, offlineKey()).slotWallet), "SlotAlreadyOwned", [3n, s.holder.address]);
    // One wallet backs one slot, across slot numbers and cuids.
    await expectRevert(exchange.buy_slot(s.holder.address, 30n, CUID, wallet), "SlotWalletInUse", [wallet]);
  });

  it("changes the owner by a call from the current owner's wallet (spec 4.9), through a UserOperation, and counts it", async () => {
    const { exchange } = s.platformContracts;
    const from = offlineKey();
    const to = offlineKey();
    const fromWallet = walletsOf(s, from).userWallet;
    const toWallet = walletsOf(s, to).userWallet;
    await (await exchange.buy_slot(fromWallet, 9n, CUID, walletsOf(s, offlineKey()).slotWallet)).wait();

    // The platform, the recipient and a stranger are all refused.
    await expectRevert(exchange.change_slot_owner(CUID, 9n, toWallet), "NotSlotOwner", [s.platform.address, fromWallet]);
    await expectRevert(s.strangerContracts.exchange.change_slot_owner(CUID, 9n, s.stranger.address), "NotSlotOwner");
    const fromOtherWallet = await sendAs(s, to, {
      to: s.addresses.exchange,
      data: exchangeInterface.encodeFunctionData("change_slot_owner", [CUID, 9n, toWallet]),
    }).catch((error: unknown) => error);
    expect((fromOtherWallet as ContractsError).code).toBe("sponsorship_refused");
    expect((fromOtherWallet as ContractsError).reason).toBe("NotSlotOwner");
    expect(await exchange.slot_owner(CUID, 9n)).toBe(fromWallet);

    // The owner's wallet transfers it.
    const sent = await sendAs(s, from, {
      to: s.addresses.exchange,
      data: exchangeInterface.encodeFunctionData("change_slot_owner", [CUID, 9n, toWallet]),
    });
    expect(await exchange.slot_owner(CUID, 9n)).toBe(toWallet);
    expect((await exchange.slot_info(CUID, 9n)).trCnt).toBe(1n);
    const receipt = await s.provider.getTransactionReceipt(sent.transactionHash);
    const event = receipt?.logs
      .filter((log) => log.address === s.addresses.exchange)
      .map((log) => exchange.interface.parseLog(log))
      .find((log) => log?.name === "SlotOwnerChanged");
    expect([event?.args.previousOwner, event?.args.newOwner]).toEqual([fromWallet, toWallet]);

    // And the previous owner can no longer move it.
    await expect(
      sendAs(s, from, { to: s.addresses.exchange, data: exchangeInterface.encodeFunctionData("change_slot_owner", [CUID, 9n, fromWallet]) }),
    ).rejects.toMatchObject({ code: "sponsorship_refused", reason: "NotSlotOwner" });
  });

  it("refuses changing an unowned slot (SlotNotOwned) and giving a slot to the zero address (ZeroAddress)", async () => {
    await expectRevert(s.holderContracts.exchange.change_slot_owner(CUID, 4n, s.stranger.address), "SlotNotOwned", [4n]);
    await (await s.platformContracts.exchange.buy_slot(s.holder.address, 4n, CUID, walletsOf(s, offlineKey()).slotWallet)).wait();
    await expectRevert(s.holderContracts.exchange.change_slot_owner(CUID, 4n, ZeroAddress), "ZeroAddress");
  });

  describe("a sale: one UserOperation from the slot wallet (executeBatch: change_slot_owner, approve(exchange, 0), changeOwner)", () => {
    /** A seller whose first slot (C_SALT wallet) holds content tokens and is registered as slot `index`. */
    async function sellerWithSlot(index: bigint) {
      const seller = offlineKey();
      const { userWallet, slotWallet } = walletsOf(s, seller);
      await (await s.platformContracts.xotn.transfer(userWallet, 2n * XOTN)).wait();
      await sendAs(s, seller, buyContentTokenCalls({ xotn: s.addresses.xotn, exchange: s.addresses.exchange, slot: slotWallet, cuid: CUID, amount: XOTN }));
      await (await s.platformContracts.exchange.buy_slot(userWallet, index, CUID, slotWallet)).wait();
      return { seller, userWallet, slotWallet };
    }

    it("hands over owner and key at once: the balance stays, trCnt counts, the seller's key is refused (AA24), the buyer's key sells again", async () => {
      const { exchange } = s.platformContracts;
      const { seller, slotWallet } = await sellerWithSlot(20n);
      const buyer = offlineKey();
      const buyerWallet = walletsOf(s, buyer).userWallet;
      const before = await exchange.balance_adex(slotWallet, CUID);
      expect(before.balance).toBe(XOTN);

      const sale = slotSaleCalls({
        exchange: s.addresses.exchange,
        xotn: s.addresses.xotn,
        cuid: CUID,
        slot: 20n,
        slotWallet,
        buyerWallet,
        buyerOwner: buyer.address,
      });
      await sendAs(s, seller, sale, { salt: C_SALT });
      expect([...(await exchange.slot_info(CUID, 20n))]).toEqual([buyerWallet, slotWallet, 1n, before.balance, before.used]);
      expect(await connectAccount(slotWallet, s.provider).owner()).toBe(buyer.address);

      // The seller's key no longer validates for the slot wallet: nothing it signs is included.
      const back = slotSaleCalls({
        exchange: s.addresses.exchange,
        xotn: s.addresses.xotn,
        cuid: CUID,
        slot: 20n,
        slotWallet,
        buyerWallet: walletsOf(s, seller).userWallet,
        buyerOwner: seller.address,
      });
      const refused = await sendAs(s, seller, back, { sender: slotWallet }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ContractsError);
      expect((refused as ContractsError).reason).toBe("AA24 signature error");
      expect((await exchange.slot_info(CUID, 20n)).owner).toBe(buyerWallet);

      // The buyer's key sells it on: trCnt 2, the address and the content tokens still the same.
      const third = offlineKey();
      await sendAs(
        s,
        buyer,
        slotSaleCalls({
          exchange: s.addresses.exchange,
          xotn: s.addresses.xotn,
          cuid: CUID,
          slot: 20n,
          slotWallet,
          buyerWallet: walletsOf(s, third).userWallet,
          buyerOwner: third.address,
        }),
        { sender: slotWallet },
      );
      expect([...(await exchange.slot_info(CUID, 20n))]).toEqual([walletsOf(s, third).userWallet, slotWallet, 2n, before.balance, before.used]);
    });

    it("is all or nothing: a batch whose registry call reverts leaves the key with the seller", async () => {
      const { seller, slotWallet } = await sellerWithSlot(21n);
      const buyer = offlineKey();
      // Slot 22 is not registered: change_slot_owner reverts (SlotNotOwned), so changeOwner is undone too.
      const wrong = slotSaleCalls({
        exchange: s.addresses.exchange,
        xotn: s.addresses.xotn,
        cuid: CUID,
        slot: 22n,
        slotWallet,
        buyerWallet: walletsOf(s, buyer).userWallet,
        buyerOwner: buyer.address,
      });
      await expect(sendAs(s, seller, wrong, { salt: C_SALT, policy: false })).rejects.toMatchObject({
        code: "user_operation_reverted",
        reason: "SlotNotOwned",
      });
      expect(await connectAccount(slotWallet, s.provider).owner()).toBe(seller.address);
      expect((await s.platformContracts.exchange.slot_info(CUID, 21n)).trCnt).toBe(0n);
    });

    it("refuses a wallet that backs another slot, and a stranger's wallet, with NotSlotOwner", async () => {
      const { seller: other } = await sellerWithSlot(23n);
      await sellerWithSlot(24n);
      const move = { to: s.addresses.exchange, data: exchangeInterface.encodeFunctionData("change_slot_owner", [CUID, 24n, walletsOf(s, other).userWallet]) };
      await expect(sendAs(s, other, move, { salt: C_SALT })).rejects.toMatchObject({ code: "sponsorship_refused", reason: "NotSlotOwner" });
    });

    it("derives later slot wallets from slotSalt(cuid, meta_idx) of the opening owner, apart from its C_SALT wallet", () => {
      const owner = offlineKey();
      const later = computeWalletAddress(s.addresses.factory, owner.address, slotSalt(CUID, 5n));
      expect(later).not.toBe(walletsOf(s, owner).slotWallet);
      expect(computeWalletAddress(s.addresses.factory, owner.address, slotSalt(CUID, 6n))).not.toBe(later);
      expect(computeWalletAddress(s.addresses.factory, owner.address, slotSalt("game-2", 5n))).not.toBe(later);
    });
  });
});
