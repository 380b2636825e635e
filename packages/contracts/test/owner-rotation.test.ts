import { ContractFactory, ZeroAddress } from "ethers";
import { describe, expect, it } from "vitest";
import {
  C_SALT,
  ContractsError,
  W_SALT,
  buyContentTokenCalls,
  changeOwnerCallData,
  changeSlotOwnerCall,
  computeWalletAddress,
  connectAccount,
  slotgateAccountAbi,
  slotgateAccountBytecode,
} from "../src/index.js";
import { expectRevert, offlineKey } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";
import { accountInterface, sendAs, walletsOf, xotnInterface } from "./support/wallets.js";

describe("SlotgateAccount.changeOwner (spec 4.10 recovery)", () => {
  const s = useTestSystem();

  it("rotates the owner through a UserOperation signed by the old owner; the old key is then refused and nothing else changes", async () => {
    const oldOwner = offlineKey();
    const newOwner = offlineKey();
    const { userWallet, slotWallet } = walletsOf(s, oldOwner);
    const { exchange, xotn } = s.platformContracts;

    // State worth keeping: XOTN, an approval, content tokens of the slot wallet, a slot owned by the wallet.
    await (await xotn.transfer(userWallet, 5n * XOTN)).wait();
    await sendAs(s, oldOwner, [
      ...buyContentTokenCalls({ xotn: s.addresses.xotn, exchange: s.addresses.exchange, slot: slotWallet, cuid: CUID, amount: XOTN }),
      { to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 123n]) },
    ]);
    await (await exchange.buy_slot(userWallet, 7n, CUID, slotWallet)).wait();
    const before = {
      xotn: await xotn.balanceOf(userWallet),
      allowance: await xotn.allowance(userWallet, s.addresses.exchange),
      slot: await exchange.balance_adex(slotWallet, CUID),
      owner: await exchange.slot_owner(CUID, 7n),
    };
    expect(before.owner).toBe(userWallet);

    const rotated = await sendAs(s, oldOwner, changeOwnerCallData(newOwner.address));
    const account = connectAccount(userWallet, s.provider);
    expect(await account.owner()).toBe(newOwner.address);
    const receipt = await s.provider.getTransactionReceipt(rotated.transactionHash);
    const changed = receipt?.logs
      .filter((log) => log.address === userWallet)
      .map((log) => account.interface.parseLog(log))
      .find((log) => log?.name === "OwnerChanged");
    expect([changed?.args.previousOwner, changed?.args.newOwner]).toEqual([oldOwner.address, newOwner.address]);

    // The old key is refused by the EntryPoint (AA24) and nothing is included.
    const refused = await sendAs(
      s,
      oldOwner,
      { to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 1n]) },
      { sender: userWallet },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ContractsError);
    expect((refused as ContractsError).code).toBe("user_operation_rejected");
    expect((refused as ContractsError).reason).toBe("AA24 signature error");

    // Address, balances, approval and slot ownership are unchanged.
    expect(await xotn.balanceOf(userWallet)).toBe(before.xotn);
    expect(await xotn.allowance(userWallet, s.addresses.exchange)).toBe(before.allowance);
    expect(await exchange.balance_adex(slotWallet, CUID)).toEqual(before.slot);
    expect(await exchange.slot_owner(CUID, 7n)).toBe(userWallet);

    // The new key drives the same wallet (its address must be passed: it is no longer f(newOwner, W_SALT)).
    expect(computeWalletAddress(s.addresses.factory, newOwner.address, W_SALT)).not.toBe(userWallet);
    const next = await sendAs(s, newOwner, changeSlotOwnerCall(s.addresses.exchange, CUID, 7n, s.stranger.address), { sender: userWallet });
    expect(next.sender).toBe(userWallet);
    expect(await exchange.slot_owner(CUID, 7n)).toBe(s.stranger.address);
  });

  it("rotates a not-yet-deployed slot wallet in its first operation (initCode + changeOwner)", async () => {
    const oldOwner = offlineKey();
    const newOwner = offlineKey();
    const { slotWallet } = walletsOf(s, oldOwner);
    const sent = await sendAs(s, oldOwner, { callData: accountInterface.encodeFunctionData("changeOwner", [newOwner.address]) }, { salt: C_SALT });
    expect(sent.deploysWallet).toBe(true);
    expect(sent.sender).toBe(slotWallet);
    expect(await connectAccount(slotWallet, s.provider).owner()).toBe(newOwner.address);
  });

  it("accepts changeOwner through execute(self, ...) as well", async () => {
    const oldOwner = offlineKey();
    const newOwner = offlineKey();
    const { userWallet } = walletsOf(s, oldOwner);
    await sendAs(s, oldOwner, { to: userWallet, data: accountInterface.encodeFunctionData("changeOwner", [newOwner.address]) });
    expect(await connectAccount(userWallet, s.provider).owner()).toBe(newOwner.address);
  });

  it("refuses a zero, unchanged or self owner with InvalidNewOwner (never sponsored, the owner stays)", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    await sendAs(s, owner, { to: userWallet, data: "0x" }); // deploy
    for (const candidate of [ZeroAddress, owner.address, userWallet]) {
      const error = await sendAs(s, owner, { callData: accountInterface.encodeFunctionData("changeOwner", [candidate]) }).catch((caught: unknown) => caught);
      expect((error as ContractsError).code).toBe("sponsorship_refused");
      expect((error as ContractsError).reason).toBe("InvalidNewOwner");
    }
    expect(await connectAccount(userWallet, s.provider).owner()).toBe(owner.address);
  });

  it("refuses changeOwner from anyone but the EntryPoint, the owner or the wallet with NotOwnerOrEntryPoint", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    await (await s.platformContracts.factory.createAccount(owner.address, W_SALT)).wait();
    await expectRevert(connectAccount(userWallet, s.stranger).changeOwner(s.stranger.address), "NotOwnerOrEntryPoint", [s.stranger.address]);
    await expectRevert(connectAccount(userWallet, s.platform).changeOwner(s.platform.address), "NotOwnerOrEntryPoint", [s.platform.address]);
  });

  it("lets the owner EOA call changeOwner directly", async () => {
    const owner = offlineKey().connect(s.provider);
    const newOwner = offlineKey();
    await (await s.platform.sendTransaction({ to: owner.address, value: XOTN })).wait();
    const { userWallet } = walletsOf(s, owner);
    await (await s.platformContracts.factory.createAccount(owner.address, W_SALT)).wait();
    await (await connectAccount(userWallet, owner).changeOwner(newOwner.address)).wait();
    expect(await connectAccount(userWallet, s.provider).owner()).toBe(newOwner.address);
  });

  it("cannot be initialised again: the implementation and deployed wallets reject initialize", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    await (await s.platformContracts.factory.createAccount(owner.address, W_SALT)).wait();
    await expect(connectAccount(userWallet, s.stranger).initialize(s.stranger.address)).rejects.toMatchObject({
      reason: "Initializable: contract is already initialized",
    });
    const implementation = await new ContractFactory(slotgateAccountAbi, slotgateAccountBytecode, s.platform).deploy(
      s.addresses.entryPoint,
      s.addresses.xotn,
      s.addresses.exchange,
    );
    await expect(connectAccount(await implementation.getAddress(), s.stranger).initialize(s.stranger.address)).rejects.toMatchObject({
      reason: "Initializable: contract is already initialized",
    });
  });
});
