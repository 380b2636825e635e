import { ContractFactory, ZeroAddress, dataSlice, getBytes, verifyMessage } from "ethers";
import { describe, expect, it } from "vitest";
import {
  ContractsError,
  type SponsorOptions,
  type UserOperation,
  W_SALT,
  buildUserOperation,
  encodeExecute,
  encodeInitCode,
  encodePaymasterAndData,
  SPONSORSHIP_START_LEEWAY_SECONDS,
  paymasterHash,
  signUserOperation,
  slotgatePaymasterAbi,
  slotgatePaymasterBytecode,
  sponsorUserOperation,
  sponsorshipWindow,
  submitUserOperations,
} from "../src/index.js";
import { expectRevert, increaseTime, offlineKey } from "./support/chain.js";
import { XOTN, useTestSystem } from "./support/system.js";
import { prepareAs, sendAs, walletsOf, xotnInterface } from "./support/wallets.js";

describe("SlotgatePaymaster (verifying paymaster, spec 4.11)", () => {
  const s = useTestSystem();

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
    const prepared = await prepareAs(s, owner, approveCall());
    const latest = (await s.provider.getBlock("latest"))?.timestamp ?? 0;
    // validUntil = now + 5 minutes; validAfter starts a minute before the chain's latest block.
    expect(prepared.validUntil).toBe(Math.max(latest, Math.floor(Date.now() / 1000)) + 300);
    expect(prepared.validAfter).toBeLessThanOrEqual(latest - SPONSORSHIP_START_LEEWAY_SECONDS);
    await increaseTime(s.provider, prepared.validUntil - latest + 1);
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [prepared.userOperation]));
    expect(error.code).toBe("user_operation_rejected");
    expect(error.reason).toBe("AA32 paymaster expired or not due");
    expect(await s.provider.getCode(walletsOf(s, owner).userWallet)).toBe("0x");

    const fresh = await prepareAs(s, owner, approveCall());
    const { operations } = await submitUserOperations(s.bundler, s.addresses.entryPoint, [fresh.userOperation]);
    expect(operations[0]?.success).toBe(true);
  });

  it("names the refused operation of a bundle (opIndex) and sends nothing", async () => {
    const [good, stale] = [offlineKey(), offlineKey()];
    const fresh = await prepareAs(s, good, approveCall());
    const expired = await prepareAs(s, stale, approveCall(), {
      window: { validAfter: 0, validUntil: (await s.provider.getBlock("latest"))!.timestamp - 1 },
    });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [fresh.userOperation, expired.userOperation]));
    expect([error.code, error.opIndex, error.reason]).toEqual(["user_operation_rejected", 1, "AA32 paymaster expired or not due"]);
    expect(await s.provider.getCode(walletsOf(s, good).userWallet)).toBe("0x");
  });

  it("accepts a sponsorship just before validUntil", async () => {
    const owner = offlineKey();
    const prepared = await prepareAs(s, owner, approveCall(), { validForSeconds: 1000 });
    await increaseTime(s.provider, 900);
    const { operations } = await submitUserOperations(s.bundler, s.addresses.entryPoint, [prepared.userOperation]);
    expect(operations[0]?.success).toBe(true);
  });

  /** Sponsors the first operation of a fresh wallet (paymaster nonce 0) with the platform signer and a 5-minute window. */
  async function sponsor(op: UserOperation, options: Partial<SponsorOptions> = {}): Promise<UserOperation> {
    return sponsorUserOperation(op, {
      paymaster: s.addresses.paymaster,
      signer: s.paymasterSigner,
      chainId: 31337n,
      paymasterNonce: 0n,
      window: await sponsorshipWindow(s.provider),
      ...options,
    });
  }

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
    const sponsored = await sponsor(await unsignedFirstOp(owner), { window: { validAfter: now + 3600, validUntil: now + 7200 } });
    const signed = await signUserOperation(sponsored, owner, { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.reason).toBe("AA32 paymaster expired or not due");
  });

  it("rejects a sponsorship signed by a key other than the platform signer (AA34)", async () => {
    const owner = offlineKey();
    const sponsored = await sponsor(await unsignedFirstOp(owner), { signer: offlineKey() });
    const signed = await signUserOperation(sponsored, owner, { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.code).toBe("user_operation_rejected");
    expect(error.reason).toBe("AA34 signature error");
  });

  it("rejects an operation changed after the platform signed it (AA34)", async () => {
    const owner = offlineKey();
    const sponsored = await sponsor(await unsignedFirstOp(owner));
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
    const sponsored = await sponsor(await unsignedFirstOp(owner));
    const signed = await signUserOperation(sponsored, offlineKey(), { entryPoint: s.addresses.entryPoint, chainId: 31337n });
    const error = await rejection(submitUserOperations(s.bundler, s.addresses.entryPoint, [signed]));
    expect(error.reason).toBe("AA24 signature error");
  });

  it("computes the paymaster hash off-chain exactly as getHash does, at the wallet's current paymaster nonce", async () => {
    const owner = offlineKey();
    const window = { validAfter: 100, validUntil: 400 };
    const first = await sponsor(await unsignedFirstOp(owner), { window });
    const onChain = await s.platformContracts.paymaster.getHash(first, 400, 100);
    expect(paymasterHash(first, { paymaster: s.addresses.paymaster, chainId: 31337n, paymasterNonce: 0n, window })).toBe(onChain);
    expect(getBytes(onChain)).toHaveLength(32);
    // The platform signed exactly that hash.
    expect(verifyMessage(getBytes(onChain), dataSlice(first.paymasterAndData, 20 + 64))).toBe(s.paymasterSigner.address);

    // After one sponsored operation of the wallet, the on-chain hash moves to paymaster nonce 1.
    await sendAs(s, owner, approveCall());
    const next = { ...first, nonce: 1n, initCode: "0x" };
    const afterOne = await s.platformContracts.paymaster.getHash(next, 400, 100);
    expect(paymasterHash(next, { paymaster: s.addresses.paymaster, chainId: 31337n, paymasterNonce: 1n, window })).toBe(afterOne);
    expect(paymasterHash(next, { paymaster: s.addresses.paymaster, chainId: 31337n, paymasterNonce: 0n, window })).not.toBe(afterOne);
  });

  it("hashes the operation's fields, not its encoding: paymasterAndData's content and length do not change the hash", async () => {
    const owner = offlineKey();
    const op = await unsignedFirstOp(owner);
    const input = { paymaster: s.addresses.paymaster, chainId: 31337n, paymasterNonce: 0n, window: { validAfter: 100, validUntil: 400 } };
    const hashes = await Promise.all(
      ["0x", `${s.addresses.paymaster}${"00".repeat(64 + 65)}`, `${s.addresses.paymaster}${"11".repeat(64 + 64)}`].map((paymasterAndData) =>
        s.platformContracts.paymaster.getHash({ ...op, paymasterAndData, signature: "0x1234" }, 400, 100),
      ),
    );
    expect(new Set(hashes).size).toBe(1);
    expect(hashes[0]).toBe(paymasterHash(op, input));
    // Every signed field counts.
    for (const changed of [{ callData: "0x00" }, { initCode: "0x" }, { nonce: 1n }, { callGasLimit: 1n }, { maxFeePerGas: 1n }]) {
      expect(paymasterHash({ ...op, ...changed }, input)).not.toBe(hashes[0]);
    }
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
    const prepared = await prepareAs(s, owner, approveCall());
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
