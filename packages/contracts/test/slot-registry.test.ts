import { ZeroAddress } from "ethers";
import { describe, expect, it } from "vitest";
import type { ContractsError } from "../src/index.js";
import { expectRevert, offlineKey } from "./support/chain.js";
import { CUID, useTestSystem } from "./support/system.js";
import { exchangeInterface, sendAs, walletsOf } from "./support/wallets.js";

describe("ContentTokenExchange: slot registry (buy_slot, change_slot_owner)", () => {
  const s = useTestSystem();

  it("lets the platform record the owner wallet of a slot, with SlotOwnerChanged from the zero address", async () => {
    const { exchange } = s.platformContracts;
    const wallet = walletsOf(s, offlineKey()).userWallet;
    expect(await exchange.slot_owner(CUID, 1n)).toBe(ZeroAddress);
    const receipt = await (await exchange.buy_slot(wallet, 1n, CUID)).wait();
    expect(await exchange.slot_owner(CUID, 1n)).toBe(wallet);
    const event = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "SlotOwnerChanged");
    expect([event?.args.slot, event?.args.previousOwner, event?.args.newOwner, event?.args.cuid]).toEqual([1n, ZeroAddress, wallet, CUID]);
  });

  it("refuses a wallet that tries to claim a free slot number for itself (squatting), on chain and before sponsorship", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    const squat = { to: s.addresses.exchange, data: exchangeInterface.encodeFunctionData("buy_slot", [userWallet, 2n, CUID]) };
    // The platform's paymaster does not even sign it: the call reverts in simulation.
    await expect(sendAs(s, owner, squat)).rejects.toMatchObject({ code: "sponsorship_refused", reason: "NotOperator" });
    // Signed without the checks, it lands and reverts with NotOperator; the slot stays free.
    await expect(sendAs(s, owner, squat, { policy: false })).rejects.toMatchObject({ code: "user_operation_reverted", reason: "NotOperator" });
    // Directly from an account, for itself or anyone else: NotOperator.
    await expectRevert(s.strangerContracts.exchange.buy_slot(s.stranger.address, 2n, CUID), "NotOperator", [s.stranger.address]);
    expect(await s.platformContracts.exchange.slot_owner(CUID, 2n)).toBe(ZeroAddress);
    // The platform can still give the slot to whom it belongs.
    await (await s.platformContracts.exchange.buy_slot(userWallet, 2n, CUID)).wait();
    expect(await s.platformContracts.exchange.slot_owner(CUID, 2n)).toBe(userWallet);
  });

  it("keeps slot numbers of different cuids apart", async () => {
    const { exchange } = s.platformContracts;
    await (await exchange.init_permission_provider("c", "game-2", 0, s.providerWallet.address)).wait();
    await (await exchange.buy_slot(s.holder.address, 1n, CUID)).wait();
    await (await exchange.buy_slot(s.stranger.address, 1n, "game-2")).wait();
    expect(await exchange.slot_owner(CUID, 1n)).toBe(s.holder.address);
    expect(await exchange.slot_owner("game-2", 1n)).toBe(s.stranger.address);
  });

  it("refuses buy_slot by anyone but the operator or the owner with NotOperator, the cuid's provider included", async () => {
    await expectRevert(s.strangerContracts.exchange.buy_slot(s.holder.address, 3n, CUID), "NotOperator", [s.stranger.address]);
    await expectRevert(s.providerContracts.exchange.buy_slot(s.holder.address, 3n, CUID), "NotOperator");
  });

  it("refuses a zero owner, an unknown cuid and an owned slot", async () => {
    const { exchange } = s.platformContracts;
    await expectRevert(exchange.buy_slot(ZeroAddress, 3n, CUID), "ZeroAddress");
    await expectRevert(exchange.buy_slot(s.holder.address, 3n, "nope"), "UnknownCuid", ["nope"]);
    await (await exchange.buy_slot(s.holder.address, 3n, CUID)).wait();
    await expectRevert(exchange.buy_slot(s.stranger.address, 3n, CUID), "SlotAlreadyOwned", [3n, s.holder.address]);
  });

  it("changes the owner only by a call from the current owner's wallet (spec 4.9), through a UserOperation", async () => {
    const { exchange } = s.platformContracts;
    const from = offlineKey();
    const to = offlineKey();
    const fromWallet = walletsOf(s, from).userWallet;
    const toWallet = walletsOf(s, to).userWallet;
    await (await exchange.buy_slot(fromWallet, 9n, CUID)).wait();

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
    await (await s.platformContracts.exchange.buy_slot(s.holder.address, 4n, CUID)).wait();
    await expectRevert(s.holderContracts.exchange.change_slot_owner(CUID, 4n, ZeroAddress), "ZeroAddress");
  });
});
