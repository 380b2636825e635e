import { ZeroAddress } from "ethers";
import { describe, expect, it } from "vitest";
import {
  C_SALT,
  ContractsError,
  W_SALT,
  assembleSponsoredUserOperation,
  computeAccountImplementationAddress,
  computeWalletAddresses,
  connectAccount,
  getUserOpHash,
  operationGasCeiling,
  readOperationNonces,
  sponsorshipWindow,
  submitUserOperations,
} from "../src/index.js";
import { offlineKey } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";
import { exchangeInterface, prepareAs, sendAs, walletsOf, xotnInterface } from "./support/wallets.js";

describe("ERC-4337 v0.6: wallets, factory and sponsored UserOperations", () => {
  const s = useTestSystem();

  it("computes the user (W_SALT) and slot (C_SALT) wallet addresses off-chain exactly as the factory does", async () => {
    const { factory } = s.platformContracts;
    for (let i = 0; i < 3; i++) {
      const owner = offlineKey();
      const { userWallet, slotWallet } = computeWalletAddresses(s.addresses.factory, owner.address);
      expect(userWallet).toBe(await factory["getAddress(address,uint256)"](owner.address, W_SALT));
      expect(slotWallet).toBe(await factory["getAddress(address,uint256)"](owner.address, C_SALT));
      expect(userWallet).not.toBe(slotWallet);
    }
    expect(computeAccountImplementationAddress(s.addresses.factory)).toBe(await factory.accountImplementation());
    expect(s.addresses.accountImplementation).toBe(await factory.accountImplementation());
  });

  it("computes getUserOpHash off-chain exactly as the EntryPoint does", async () => {
    const owner = offlineKey();
    const prepared = await prepareAs(s, owner, {
      to: s.addresses.xotn,
      data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 1n]),
    });
    const onChain = await s.platformContracts.entryPoint.getUserOpHash(prepared.userOperation);
    expect(getUserOpHash(prepared.userOperation, s.addresses.entryPoint, 31337n)).toBe(onChain);
    expect(prepared.userOpHash).toBe(onChain);
  });

  it("assembles from chain facts read before, offline, the operation prepare builds from the same facts, and it lands", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    const calls = { to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 5n]) };
    const [nonces, fees, window, code] = await Promise.all([
      readOperationNonces(s.provider, s.addresses, userWallet),
      s.provider.getFeeData(),
      sponsorshipWindow(s.provider),
      s.provider.getCode(userWallet),
    ]);
    const facts = { chainId: 31337n, nonce: nonces.nonce, paymasterNonce: nonces.paymasterNonce, fees, window };
    // Neither signer has a provider: assembling cannot reach the node.
    expect([owner.provider, s.paymasterSigner.provider]).toEqual([null, null]);
    const assembled = await assembleSponsoredUserOperation({
      addresses: s.addresses,
      owner,
      paymasterSigner: s.paymasterSigner,
      sender: userWallet,
      initialOwner: owner.address,
      salt: W_SALT,
      calls,
      ...facts,
      walletDeployed: code !== "0x",
    });
    const prepared = await prepareAs(s, owner, calls, facts);
    expect(assembled).toEqual(prepared);
    expect(assembled.deploysWallet).toBe(true);
    const submitted = await submitUserOperations(s.bundler, s.addresses.entryPoint, [assembled.userOperation]);
    expect(submitted.operations.map((op) => [op.userOpHash, op.success])).toEqual([[assembled.userOpHash, true]]);
    expect(await s.platformContracts.xotn.allowance(userWallet, s.addresses.exchange)).toBe(5n);
  });

  it("refuses to assemble above the gas cap, before anything is signed", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    const assembling = assembleSponsoredUserOperation({
      addresses: s.addresses,
      owner,
      paymasterSigner: s.paymasterSigner,
      sender: userWallet,
      initialOwner: owner.address,
      salt: W_SALT,
      calls: { to: s.addresses.xotn, data: "0x" },
      chainId: 31337n,
      nonce: 0n,
      paymasterNonce: 0n,
      fees: { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gasPrice: null },
      window: { validAfter: 0, validUntil: 1 },
      walletDeployed: false,
      maxOperationGas: 1_000n,
    });
    await expect(assembling).rejects.toMatchObject({ code: "sponsorship_refused", reason: "gas_cap" });
  });

  it("deploys the wallet through initCode on a sponsored operation with nonce 0, then runs nonce 1 without initCode", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    const { entryPoint } = s.platformContracts;
    const depositBefore = await entryPoint.balanceOf(s.addresses.paymaster);
    expect(await s.provider.getCode(userWallet)).toBe("0x");

    const first = await sendAs(s, owner, {
      to: s.addresses.xotn,
      data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 11n]),
    });
    expect(first.deploysWallet).toBe(true);
    expect(first.userOperation.nonce).toBe(0n);
    expect(first.userOperation.initCode).not.toBe("0x");
    expect(first.outcome.success).toBe(true);
    expect(first.sender).toBe(userWallet);
    expect(await s.provider.getCode(userWallet)).not.toBe("0x");
    expect(await connectAccount(userWallet, s.provider).owner()).toBe(owner.address);
    expect(await s.platformContracts.xotn.allowance(userWallet, s.addresses.exchange)).toBe(11n);

    const second = await sendAs(s, owner, {
      to: s.addresses.xotn,
      data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 22n]),
    });
    expect(second.deploysWallet).toBe(false);
    expect(second.userOperation.nonce).toBe(1n);
    expect(second.userOperation.initCode).toBe("0x");
    expect(await s.platformContracts.xotn.allowance(userWallet, s.addresses.exchange)).toBe(22n);
    expect(await entryPoint.getNonce(userWallet, 0n)).toBe(2n);

    // The paymaster's deposit paid; the user never held ETH.
    const depositAfter = await entryPoint.balanceOf(s.addresses.paymaster);
    expect(depositBefore - depositAfter).toBe(first.outcome.actualGasCost + second.outcome.actualGasCost);
    expect(await s.provider.getBalance(userWallet)).toBe(0n);
  });

  it("prepares a wallet's next operation before the first lands when the caller passes the nonces, and both run in one bundle", async () => {
    const owner = offlineKey();
    const { userWallet } = walletsOf(s, owner);
    const approve = (amount: bigint) => ({ to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, amount]) });
    const first = await prepareAs(s, owner, approve(11n));
    const second = await prepareAs(s, owner, approve(22n), { nonce: 1n, paymasterNonce: 1n });
    expect([first.deploysWallet, second.deploysWallet]).toEqual([true, false]);
    expect(second.userOperation.initCode).toBe("0x");
    const { operations } = await submitUserOperations(s.bundler, s.addresses.entryPoint, [first.userOperation, second.userOperation]);
    expect(operations.map((outcome) => [outcome.userOpHash, outcome.success])).toEqual([
      [first.userOpHash, true],
      [second.userOpHash, true],
    ]);
    expect(await s.platformContracts.xotn.allowance(userWallet, s.addresses.exchange)).toBe(22n);
  });

  it("lets the factory be called directly, emitting AccountCreated once and returning the same wallet after", async () => {
    const owner = offlineKey();
    const { factory } = s.platformContracts;
    const expected = walletsOf(s, owner).slotWallet;
    expect(await factory.createAccount.staticCall(owner.address, C_SALT)).toBe(expected);
    const receipt = await (await factory.createAccount(owner.address, C_SALT)).wait();
    const created = receipt?.logs.map((log) => factory.interface.parseLog(log)).filter((log) => log?.name === "AccountCreated");
    expect(created?.map((log) => [log?.args.account, log?.args.owner, log?.args.salt])).toEqual([[expected, owner.address, C_SALT]]);
    const again = await (await factory.createAccount(owner.address, C_SALT)).wait();
    expect(again?.logs.length).toBe(0);
    expect(await factory.createAccount.staticCall(owner.address, C_SALT)).toBe(expected);
  });

  it("buys content tokens from the user's wallet (approve + buy in one operation) for the slot wallet", async () => {
    const owner = offlineKey();
    const { userWallet, slotWallet } = walletsOf(s, owner);
    await (await s.platformContracts.xotn.transfer(userWallet, 10n * XOTN)).wait();
    const amount = 3n * XOTN + 7n;
    await sendAs(s, owner, [
      { to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, amount]) },
      { to: s.addresses.exchange, data: exchangeInterface.encodeFunctionData("buy_content_token", [slotWallet, CUID, amount]) },
    ]);
    expect(await s.platformContracts.exchange.balance_adex(slotWallet, CUID)).toEqual([amount, 0n]);
    expect(await s.platformContracts.xotn.balanceOf(userWallet)).toBe(10n * XOTN - amount);
  });

  it("refuses to sponsor a call that reverts in simulation (sponsorship_refused): nothing is signed or sent, the deposit pays nothing", async () => {
    const owner = offlineKey();
    const { userWallet, slotWallet } = walletsOf(s, owner);
    const reverting = { to: s.addresses.exchange, data: exchangeInterface.encodeFunctionData("buy_content_token", [slotWallet, CUID, 5n]) };
    const deposit = await s.platformContracts.entryPoint.balanceOf(s.addresses.paymaster);
    const block = await s.provider.getBlockNumber();
    // The wallet does not exist yet: simulated through simulateHandleOp with its initCode.
    await expect(sendAs(s, owner, reverting)).rejects.toMatchObject({ code: "sponsorship_refused", reason: "InsufficientAllowance" });
    // A deployed wallet: simulated as the EntryPoint's call into it.
    await sendAs(s, owner, { to: userWallet, data: "0x" });
    const afterDeploy = await s.platformContracts.entryPoint.balanceOf(s.addresses.paymaster);
    await expect(sendAs(s, owner, reverting)).rejects.toMatchObject({ code: "sponsorship_refused", reason: "InsufficientAllowance" });
    await expect(prepareAs(s, owner, reverting)).rejects.toMatchObject({ code: "sponsorship_refused" });
    expect(await s.platformContracts.entryPoint.balanceOf(s.addresses.paymaster)).toBe(afterDeploy);
    expect(afterDeploy).toBeLessThan(deposit);
    expect(await s.provider.getBlockNumber()).toBe(block + 1); // only the deploying operation was mined
    expect(await s.platformContracts.entryPoint.getNonce(userWallet, 0n)).toBe(1n);
  });

  it("refuses to sponsor an operation whose gas limits exceed the per-operation cap (gas_cap)", async () => {
    const owner = offlineKey();
    const call = { to: s.addresses.xotn, data: xotnInterface.encodeFunctionData("approve", [s.addresses.exchange, 1n]) };
    await expect(prepareAs(s, owner, call, { gas: { callGasLimit: 5_000_000n } })).rejects.toMatchObject({ code: "sponsorship_refused", reason: "gas_cap" });
    await expect(prepareAs(s, owner, call, { policy: { maxOperationGas: 3_000_000n } })).rejects.toMatchObject({ reason: "gas_cap" });
    const prepared = await prepareAs(s, owner, call, { policy: { maxOperationGas: 3_560_000n } });
    expect(operationGasCeiling(prepared.userOperation)).toBe(3_560_000n);
  });

  it("reports a reverting wallet call signed without the checks as user_operation_reverted with the decoded custom error, gas still sponsored", async () => {
    const owner = offlineKey();
    const { slotWallet } = walletsOf(s, owner);
    const error = await sendAs(
      s,
      owner,
      {
        to: s.addresses.exchange,
        data: exchangeInterface.encodeFunctionData("buy_content_token", [slotWallet, CUID, 5n]),
      },
      { policy: false },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractsError);
    expect((error as ContractsError).code).toBe("user_operation_reverted");
    expect((error as ContractsError).reason).toBe("InsufficientAllowance");
    // the operation was included: the wallet exists and its nonce advanced
    expect(await s.platformContracts.entryPoint.getNonce(walletsOf(s, owner).userWallet, 0n)).toBe(1n);
  });

  it("refuses to build a first operation for a sender that is not the wallet of (owner, salt)", async () => {
    const error = await prepareAs(
      s,
      offlineKey(),
      { to: ZeroAddress.replace(/0$/, "1") },
      {
        sender: walletsOf(s, offlineKey()).userWallet,
      },
    ).catch((caught: unknown) => caught);
    expect((error as ContractsError).code).toBe("invalid_argument");
  });
});
