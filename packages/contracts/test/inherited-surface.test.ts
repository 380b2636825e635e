// The functions our contracts inherit from SimpleAccount, BasePaymaster and Ownable2Step are part of
// their public surface too: these tests pin who may call them.
import { ZeroAddress, ZeroHash } from "ethers";
import { describe, expect, it } from "vitest";
import { W_SALT, buildUserOperation, connectAccount } from "../src/index.js";
import { expectRevert, increaseTime, offlineKey } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";
import { walletsOf } from "./support/wallets.js";

describe("inherited surface", () => {
  const s = useTestSystem();

  async function fundedOwnerWithWallet() {
    const owner = offlineKey().connect(s.provider);
    await (await s.platform.sendTransaction({ to: owner.address, value: XOTN })).wait();
    const { userWallet } = walletsOf(s, owner);
    await (await s.platformContracts.factory.createAccount(owner.address, W_SALT)).wait();
    return { owner, userWallet };
  }

  describe("SlotgateAccount (the SimpleAccount v0.6 scheme)", () => {
    it("executes direct calls from the owner EOA and refuses strangers", async () => {
      const { owner, userWallet } = await fundedOwnerWithWallet();
      await (await s.platformContracts.xotn.transfer(userWallet, 10n)).wait();
      const transfer = s.platformContracts.xotn.interface.encodeFunctionData("transfer", [s.stranger.address, 4n]);
      await (await connectAccount(userWallet, owner).execute(s.addresses.xotn, 0n, transfer)).wait();
      expect(await s.platformContracts.xotn.balanceOf(s.stranger.address)).toBe(4n);
      await expectRevert(connectAccount(userWallet, s.stranger).execute(s.addresses.xotn, 0n, transfer), "NotOwnerOrEntryPoint", [s.stranger.address]);
      await expectRevert(connectAccount(userWallet, s.stranger).executeBatch([s.addresses.xotn], [transfer]), "NotOwnerOrEntryPoint", [s.stranger.address]);
      await expectRevert(connectAccount(userWallet, owner).executeBatch([s.addresses.xotn], []), "InvalidBatch", [1n, 0n]);
    });

    it("bubbles up the revert data of a failing call", async () => {
      const { owner, userWallet } = await fundedOwnerWithWallet();
      const spend = s.platformContracts.exchange.interface.encodeFunctionData("increase_used", [userWallet, CUID, 1n]);
      await expectRevert(connectAccount(userWallet, owner).execute(s.addresses.exchange, 0n, spend), "NotSpendRecorderOrProvider", [userWallet]);
    });

    it("accepts validateUserOp only from the EntryPoint", async () => {
      const { userWallet } = await fundedOwnerWithWallet();
      const op = buildUserOperation({ sender: userWallet, nonce: 0n, callData: "0x", maxFeePerGas: 1n });
      await expect(connectAccount(userWallet, s.stranger).validateUserOp(op, ZeroHash, 0n)).rejects.toMatchObject({
        reason: "account: not from EntryPoint",
      });
    });

    it("manages its own EntryPoint deposit: anyone adds, only the owner withdraws", async () => {
      const { owner, userWallet } = await fundedOwnerWithWallet();
      await (await connectAccount(userWallet, s.stranger).addDeposit({ value: 1000n })).wait();
      expect(await connectAccount(userWallet, s.provider).getDeposit()).toBe(1000n);
      await expectRevert(connectAccount(userWallet, s.stranger).withdrawDepositTo(s.stranger.address, 1n), "NotOwner", [s.stranger.address]);
      await (await connectAccount(userWallet, owner).withdrawDepositTo(s.stranger.address, 400n)).wait();
      expect(await connectAccount(userWallet, s.provider).getDeposit()).toBe(600n);
      expect(await connectAccount(userWallet, s.provider).entryPoint()).toBe(s.addresses.entryPoint);
    });

    it("accepts ERC-721 and ERC-1155 tokens", async () => {
      const { userWallet } = await fundedOwnerWithWallet();
      const account = connectAccount(userWallet, s.provider);
      expect(await account.onERC721Received(ZeroAddress, ZeroAddress, 1n, "0x")).toBe("0x150b7a02");
      expect(await account.onERC1155Received(ZeroAddress, ZeroAddress, 1n, 1n, "0x")).toBe("0xf23a6e61");
      expect(await account.onERC1155BatchReceived(ZeroAddress, ZeroAddress, [], [], "0x")).toBe("0xbc197c81");
      expect(await account.supportsInterface("0x01ffc9a7")).toBe(true);
    });
  });

  describe("SlotgatePaymaster (BasePaymaster)", () => {
    it("accepts validatePaymasterUserOp and postOp only from the EntryPoint", async () => {
      const op = buildUserOperation({ sender: s.stranger.address, nonce: 0n, callData: "0x", maxFeePerGas: 1n });
      await expect(s.strangerContracts.paymaster.validatePaymasterUserOp(op, ZeroHash, 0n)).rejects.toMatchObject({
        reason: "Sender not EntryPoint",
      });
      await expect(s.strangerContracts.paymaster.postOp(0, "0x", 0n)).rejects.toMatchObject({ reason: "Sender not EntryPoint" });
    });

    it("takes deposits from anyone and lets only its owner stake, unlock and withdraw the stake", async () => {
      const { paymaster, entryPoint } = s.platformContracts;
      await (await s.strangerContracts.paymaster.deposit({ value: 5n })).wait();
      expect(await paymaster.getDeposit()).toBe(XOTN + 5n);
      await expectRevert(s.strangerContracts.paymaster.unlockStake(), "NotOwner");
      await expectRevert(s.strangerContracts.paymaster.withdrawStake(s.stranger.address), "NotOwner");
      await (await paymaster.addStake(60, { value: 100n })).wait();
      expect((await entryPoint.getDepositInfo(s.addresses.paymaster)).staked).toBe(true);
      await (await paymaster.unlockStake()).wait();
      await increaseTime(s.provider, 61);
      const before = await s.provider.getBalance(s.stranger.address);
      await (await paymaster.withdrawStake(s.stranger.address)).wait();
      expect((await s.provider.getBalance(s.stranger.address)) - before).toBe(100n);
    });

    it("hands ownership over only by its owner", async () => {
      await expectRevert(s.strangerContracts.paymaster.transferOwnership(s.stranger.address), "NotOwner");
      await (await s.platformContracts.paymaster.transferOwnership(s.stranger.address)).wait();
      expect(await s.platformContracts.paymaster.owner()).toBe(s.stranger.address);
    });
  });

  describe("Ownable2Step on XOTN and the exchange", () => {
    it("renounces only on the owner's call, after which platform functions are refused", async () => {
      await expectRevert(s.strangerContracts.exchange.renounceOwnership(), "NotPlatform");
      await expectRevert(s.strangerContracts.xotn.renounceOwnership(), "NotOwner");
      await (await s.platformContracts.exchange.renounceOwnership()).wait();
      expect(await s.platformContracts.exchange.owner()).toBe(ZeroAddress);
      await expectRevert(s.platformContracts.exchange.set_treasury(s.stranger.address), "NotPlatform");
      await expectRevert(s.platformContracts.exchange.set_operator(s.stranger.address), "NotPlatform");
      await expectRevert(s.strangerContracts.exchange.transferOwnership(s.stranger.address), "NotPlatform");
    });
  });
});
