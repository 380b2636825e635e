import { MaxUint256, id } from "ethers";
import { describe, expect, it } from "vitest";
import { C_SALT, approvePurchasesCall, erc20ApproveCall } from "../src/index.js";
import { expectRevert, offlineKey } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";
import { sendAs, walletsOf } from "./support/wallets.js";

// Finding 1 of issue 21: a purchase moves a user's XOTN only with the user's consent for that cuid.
const OTHER_CUID = "game-b";

describe("ContentTokenExchange: purchases with the slot's consent per cuid (approve_purchases, buy_for)", () => {
  const s = useTestSystem(async (system) => {
    // Provider B (the stranger's wallet) registers its own cuid.
    await (await system.platformContracts.exchange.init_permission_provider("client-b", OTHER_CUID, 100, system.stranger.address)).wait();
    // The holder plays the slot: it approves the exchange on XOTN once, for any amount.
    await (await system.holderContracts.xotn.approve(system.addresses.exchange, MaxUint256)).wait();
  });
  const slot = () => s.holder.address;

  it("lets the operator buy within the consent the slot gave for the cuid, paid by the slot in one transaction", async () => {
    const { exchange, xotn } = s.platformContracts;
    const receipt = await (await s.holderContracts.exchange.approve_purchases(CUID, 1_000n)).wait();
    const set = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "PurchaseAllowanceSet");
    expect([set?.args.slot, set?.args.cuidKey, set?.args.cuid, set?.args.amount]).toEqual([slot(), id(CUID), CUID, 1_000n]);
    expect(await exchange.purchase_allowance(slot(), CUID)).toBe(1_000n);

    const before = await xotn.balanceOf(slot());
    const bought = await (await exchange.buy_for(slot(), CUID, 600n)).wait();
    const event = bought?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "ContentTokenPurchased");
    expect([event?.args.payer, event?.args.slot, event?.args.xotnPaid, event?.args.platformFee]).toEqual([slot(), slot(), 600n, 90n]);
    expect(before - (await xotn.balanceOf(slot()))).toBe(600n);
    expect(await exchange.balance_adex(slot(), CUID)).toEqual([600n, 0n]);
    expect(await exchange.purchase_allowance(slot(), CUID)).toBe(400n);
    expect(await exchange.fees_collected(slot(), CUID)).toBe(90n);
    expect(await xotn.balanceOf(s.addresses.exchange)).toBe(0n);

    await expectRevert(exchange.buy_for(slot(), CUID, 401n), "InsufficientPurchaseAllowance", [slot(), CUID, 400n, 401n]);
    await (await exchange.buy_for(slot(), CUID, 400n)).wait();
    await expectRevert(exchange.buy_for(slot(), CUID, 1n), "InsufficientPurchaseAllowance", [slot(), CUID, 0n, 1n]);
  });

  it("never lets another cuid's provider move XOTN a slot made available to the first provider", async () => {
    await (await s.holderContracts.exchange.approve_purchases(CUID, 1_000n)).wait();
    const { exchange, xotn } = s.platformContracts;
    const before = await xotn.balanceOf(slot());
    // Not even the platform's operator can spend it on provider B's cuid.
    await expectRevert(exchange.buy_for(slot(), OTHER_CUID, 1n), "InsufficientPurchaseAllowance", [slot(), OTHER_CUID, 0n, 1n]);
    // Provider B's own wallet can call none of the operator's or the recorder's functions against the slot.
    await expectRevert(s.strangerContracts.exchange.buy_for(slot(), CUID, 1n), "NotOperator", [s.stranger.address]);
    await expectRevert(s.strangerContracts.exchange.buy_for(slot(), OTHER_CUID, 1n), "NotOperator", [s.stranger.address]);
    await (await exchange.buy_for(slot(), CUID, 100n)).wait();
    await (await exchange.set_release_enabled(CUID, true)).wait();
    await expectRevert(s.strangerContracts.exchange.increase_used(slot(), CUID, 1n), "NotSpendRecorderOrProvider", [s.stranger.address]);
    await expectRevert(s.strangerContracts.exchange.increase_used_batch(CUID, [slot()], [1n]), "NotSpendRecorderOrProvider");
    await expectRevert(s.strangerContracts.exchange.release_used_balance(CUID, slot()), "NotPlatformOrProvider", [s.stranger.address]);
    // And on its own cuid the slot has nothing to spend or release.
    await expectRevert(s.strangerContracts.exchange.increase_used(slot(), OTHER_CUID, 1n), "InsufficientBalance", [slot(), 0n, 1n]);
    expect(await exchange.releasable(OTHER_CUID, slot())).toBe(0n);
    expect(before - (await xotn.balanceOf(slot()))).toBe(100n);
    expect(await exchange.purchase_allowance(slot(), CUID)).toBe(900n);
    expect(await exchange.purchase_allowance(slot(), OTHER_CUID)).toBe(0n);
  });

  it("replaces the consent on each approve_purchases; 0 withdraws it", async () => {
    const { exchange } = s.platformContracts;
    await (await s.holderContracts.exchange.approve_purchases(CUID, 50n)).wait();
    await (await s.holderContracts.exchange.approve_purchases(CUID, 20n)).wait();
    expect(await exchange.purchase_allowance(slot(), CUID)).toBe(20n);
    await (await s.holderContracts.exchange.approve_purchases(CUID, 0n)).wait();
    await expectRevert(exchange.buy_for(slot(), CUID, 1n), "InsufficientPurchaseAllowance");
  });

  it("refuses consent for an unknown cuid, and a purchase the slot's XOTN or XOTN approval cannot pay", async () => {
    const { exchange } = s.platformContracts;
    await expectRevert(s.holderContracts.exchange.approve_purchases("nope", 1n), "UnknownCuid", ["nope"]);
    const held = await s.platformContracts.xotn.balanceOf(slot());
    await (await s.holderContracts.exchange.approve_purchases(CUID, MaxUint256)).wait();
    await expectRevert(exchange.buy_for(slot(), CUID, held + 1n), "InsufficientXotn", [slot(), held, held + 1n]);
    await (await s.holderContracts.xotn.approve(s.addresses.exchange, 5n)).wait();
    await expectRevert(exchange.buy_for(slot(), CUID, 6n), "InsufficientAllowance", [slot(), 5n, 6n]);
    await expectRevert(exchange.buy_for(slot(), CUID, 0n), "ZeroAmount");
  });

  it("is given by a slot wallet through its own sponsored UserOperation (approve on XOTN + approve_purchases)", async () => {
    const owner = offlineKey();
    const { slotWallet } = walletsOf(s, owner);
    await (await s.platformContracts.xotn.transfer(slotWallet, 10n * XOTN)).wait();
    await sendAs(
      s,
      owner,
      [erc20ApproveCall(s.addresses.xotn, s.addresses.exchange, MaxUint256), approvePurchasesCall(s.addresses.exchange, CUID, 3n * XOTN)],
      { salt: C_SALT },
    );
    expect(await s.platformContracts.exchange.purchase_allowance(slotWallet, CUID)).toBe(3n * XOTN);
    await (await s.platformContracts.exchange.buy_for(slotWallet, CUID, 2n * XOTN)).wait();
    expect(await s.platformContracts.exchange.balance_adex(slotWallet, CUID)).toEqual([2n * XOTN, 0n]);
    expect(await s.platformContracts.xotn.balanceOf(slotWallet)).toBe(8n * XOTN);
  });
  it("ends every consent of a slot wallet, for every cuid, when its slot changes owner (one write, change_slot_owner)", async () => {
    const { exchange } = s.platformContracts;
    // The holder's address backs slot 30 (its "wallet"): it consents for two cuids, then hands the slot over.
    await (await exchange.buy_slot(s.holder.address, 30n, CUID, slot())).wait();
    await (await s.holderContracts.exchange.approve_purchases(CUID, 1_000n)).wait();
    await (await s.holderContracts.exchange.approve_purchases(OTHER_CUID, 500n)).wait();
    expect(await exchange.owner_epoch(slot())).toBe(0n);
    const receipt = await (await s.holderContracts.exchange.change_slot_owner(CUID, 30n, s.stranger.address)).wait();
    const ended = receipt?.logs.map((log) => exchange.interface.parseLog(log)).find((log) => log?.name === "PurchaseConsentsEnded");
    expect([ended?.args.slot, ended?.args.ownerEpoch]).toEqual([slot(), 1n]);
    expect([await exchange.owner_epoch(slot()), (await exchange.slot_info(CUID, 30n)).trCnt]).toEqual([1n, 1n]);
    expect([await exchange.purchase_allowance(slot(), CUID), await exchange.purchase_allowance(slot(), OTHER_CUID)]).toEqual([0n, 0n]);
    await expectRevert(exchange.buy_for(slot(), CUID, 1n), "InsufficientPurchaseAllowance", [slot(), CUID, 0n, 1n]);
    // A consent given under the new owner counts; the old one does not come back.
    await (await s.holderContracts.exchange.approve_purchases(CUID, 7n)).wait();
    expect(await exchange.purchase_allowance(slot(), CUID)).toBe(7n);
    await (await exchange.buy_for(slot(), CUID, 7n)).wait();
    await expectRevert(exchange.buy_for(slot(), CUID, 1n), "InsufficientPurchaseAllowance", [slot(), CUID, 0n, 1n]);
  });
});
