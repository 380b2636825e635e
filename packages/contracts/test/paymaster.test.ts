import { ContractFactory, ZeroAddress } from "ethers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ContractsError,
  W_SALT,
  buildUserOperation,
  encodeExecute,
  encodeInitCode,
  encodePaymasterAndData,
  prepareSponsoredUserOperation,
  signUserOperation,
  slotgatePaymasterAbi,
  slotgatePaymasterBytecode,
  sponsorUserOperation,
  submitUserOperations,
} from "../src/index.js";
import { expectRevert, increaseTime, offlineKey, snapshot } from "./support/chain.js";
import { type TestSystem, XOTN, startSystem } from "./support/system.js";
import { walletsOf, xotnInterface } from "./support/wallets.js";

describe("SlotgatePaymaster (verifying paymaster, spec 4.11)", () => {
  let s: TestSystem;

  beforeAll(async () => {
    s = await startSystem();
  });
  beforeEach(async () => {
    const restore = await snapshot(s.provider);
    return () => restore();
  });

  function approveCall() {
    return { to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 1n]) };
  }

  async function rejection(promise: Promise<unknown>): Promise<ContractsError> {
    const error = await promise.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractsError);
    return error as ContractsError;
  }

  it("is wired to the EntryPoint and the platform signer, with a deposit", async () => {
    const { paymaster, entryPoint } = s.platformContracts;
    expect(await paymaster.entryPoint()).toBe(s.addresses.entryPoint);
    expect(await paymaster.verifyingSigner()).toBe(s.paymasterSigner.address);
    expect(await paymaster.owner()).toBe(s.platform.address);
    expect(await paymaster.getDeposit()).toBe(XOTN);
    expect(await entryPoint.balanceOf(s.addresses.paymaster)).toBe(XOTN);
  });

  it("rejects a sponsorship used after validUntil (AA32) and accepts a fresh one", async () => {
    const owner = offlineKey();
    const prepared = await prepareSponsoredUserOperation({
      provider: s.provider,
      addresses: s.addresses,
      owner,
      paymasterSigner: s.paymasterSigner,
      calls: approveCall(),
    });
    expect(prepared.validUntil - prepared.validAfter).toBe(300);
    await increaseTime(s.provider, 301);
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [prepared.userOperation]));
    expect(error.code).toBe("USER_OPERATION_REJECTED");
    expect(error.reason).toBe("AA32 paymaster expired or not due");
    expect(await s.provider.getCode(walletsOf(s, owner).userWallet)).toBe("0x");

    const fresh = await prepareSponsoredUserOperation({
      provider: s.provider,
      addresses: s.addresses,
      owner,
      paymasterSigner: s.paymasterSigner,
      calls: approveCall(),
    });
    const { operations } = await submitUserOperations(s.bundler, s.addresses.entryPoint, [fresh.userOperation]);
    expect(operations[0]?.success).toBe(true);
  });

  it("accepts a sponsorship just before validUntil", async () => {
    const owner = offlineKey();
    const prepared = await prepareSponsoredUserOperation({
      provider: s.provider,
      addresses: s.addresses,
      owner,
      paymasterSigner: s.paymasterSigner,
      calls: approveCall(),
      validForSeconds: 1000,
    });
    await increaseTime(s.provider, 900);
    const { operations } = await submitUserOperations(s.bundler, s.addresses.entryPoint, [prepared.userOperation]);
    expect(operations[0]?.success).toBe(true);
  });

  async function unsignedFirstOp(owner: ReturnType<typeof offlineKey>) {
    const fees = await s.provider.getFeeData();
    return buildUserOperation({
      sender: walletsOf(s, owner).userWallet,
      nonce: 0n,
      initCode: encodeInitCode(s.addresses.factory, owner.address, W_SALT),
      callData: encodeExecute(approveCall()),
      maxFeePerGas: fees.maxFeePerGas ?? 0n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 0n,
    });
  }

  it("rejects a sponsorship that is not yet valid (validAfter in the future, AA32)", async () => {
    const owner = offlineKey();
    const block = await s.provider.getBlock("latest");
    const now = Math.max(block?.timestamp ?? 0, Math.floor(Date.now() / 1000));
    const sponsored = await sponsorUserOperation(await unsignedFirstOp(owner), {
      paymaster: s.addresses.paymaster,
      signer: s.paymasterSigner,
      runner: s.provider,
      window: { validAfter: now + 3600, validUntil: now + 7200 },
    });
    const signed = await signUserOperation(sponsored, owner, { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.reason).toBe("AA32 paymaster expired or not due");
  });

  it("rejects a sponsorship signed by a key other than the platform signer (AA34)", async () => {
    const owner = offlineKey();
    const sponsored = await sponsorUserOperation(await unsignedFirstOp(owner), {
      paymaster: s.addresses.paymaster,
      signer: offlineKey(),
      runner: s.provider,
    });
    const signed = await signUserOperation(sponsored, owner, { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.code).toBe("USER_OPERATION_REJECTED");
    expect(error.reason).toBe("AA34 signature error");
  });

  it("rejects an operation changed after the platform signed it (AA34)", async () => {
    const owner = offlineKey();
    const sponsored = await sponsorUserOperation(await unsignedFirstOp(owner), {
      paymaster: s.addresses.paymaster,
      signer: s.paymasterSigner,
      runner: s.provider,
    });
    const tampered = { ...sponsored, callGasLimit: sponsored.callGasLimit + 1n };
    const signed = await signUserOperation(tampered, owner, { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.reason).toBe("AA34 signature error");
  });

  it("rejects a signature of the wrong length: the paymaster reverts (InvalidSignatureLength), the EntryPoint reports AA33", async () => {
    const owner = offlineKey();
    const op = await unsignedFirstOp(owner);
    const block = await s.provider.getBlock("latest");
    const window = { validAfter: 0, validUntil: (block?.timestamp ?? 0) + 600 };
    const short = { ...op, paymasterAndData: encodePaymasterAndData(s.addresses.paymaster, window, `0x${"11".repeat(10)}`) };
    const signed = await signUserOperation(short, owner, { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.reason).toBe("AA33 reverted (or OOG)");
  });

  it("rejects an operation signed by someone other than the wallet owner (AA24)", async () => {
    const owner = offlineKey();
    const sponsored = await sponsorUserOperation(await unsignedFirstOp(owner), {
      paymaster: s.addresses.paymaster,
      signer: s.paymasterSigner,
      runner: s.provider,
    });
    const signed = await signUserOperation(sponsored, offlineKey(), { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.reason).toBe("AA24 signature error");
  });

  it("parses paymasterAndData into the window and the signature", async () => {
    const signature = `0x${"ab".repeat(65)}`;
    const data = encodePaymasterAndData(s.addresses.paymaster, { validUntil: 2000, validAfter: 1000 }, signature);
    const [validUntil, validAfter, parsedSignature] = await s.platformContracts.paymaster.parsePaymasterAndData(data);
    expect([validUntil, validAfter, parsedSignature]).toEqual([2000n, 1000n, signature]);
    expect(data.length).toBe(2 + 2 * (20 + 64 + 65));
    expect(data.slice(0, 42).toLowerCase()).toBe(s.addresses.paymaster.toLowerCase());
  });

  it("counts sponsored operations per sender (senderNonce)", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    expect(await s.platformContracts.paymaster.senderNonce(userWallet)).toBe(0n);
    const prepared = await prepareSponsoredUserOperation({
      provider: s.provider,
      addresses: s.addresses,
      owner,
      paymasterSigner: s.paymasterSigner,
      calls: approveCall(),
    });
    await submitUserOperations(s.bundler, s.addresses.entryPoint, [prepared.userOperation]);
    expect(await s.platformContracts.paymaster.senderNonce(userWallet)).toBe(1n);
  });

  it("lets only its owner withdraw or stake (NotOwner), and the owner withdraw", async () => {
    await expectRevert(s.strangerContracts.paymaster.withdrawTo(s.stranger.address, 1n), "NotOwner", [s.stranger.address]);
    await expectRevert(s.strangerContracts.paymaster.addStake(100, { value: 1n }), "NotOwner");
    const before = await s.provider.getBalance(s.stranger.address);
    await (await s.platformContracts.paymaster.withdrawTo(s.stranger.address, 1000n)).wait();
    expect((await s.provider.getBalance(s.stranger.address)) - before).toBe(1000n);
    expect(await s.platformContracts.paymaster.getDeposit()).toBe(XOTN - 1000n);
  });

  it("refuses deployment with a zero signer", async () => {
    const factory = new ContractFactory(slotgatePaymasterAbi, slotgatePaymasterBytecode, s.platform);
    await expectRevert(factory.deploy(s.addresses.entryPoint, ZeroAddress), "ZeroAddress");
  });
});
