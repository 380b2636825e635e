import { MaxUint256, Wallet } from "ethers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContractsError, connectContracts, deploy } from "../src/index.js";
import { account, snapshot, startChain } from "./support/chain.js";

describe("deploy()", () => {
  const provider = startChain();
  let restore: () => Promise<void>;

  beforeAll(async () => {
    restore = await snapshot(provider);
  });
  beforeEach(async () => {
    await restore();
    restore = await snapshot(provider);
  });

  it("deploys and wires the whole system in one call", async () => {
    const deployer = await account(provider, 0);
    const paymasterSigner = Wallet.createRandom();
    const result = await deploy(deployer, { paymasterSigner: paymasterSigner.address });

    for (const address of [result.xotn, result.exchange, result.entryPoint, result.factory, result.paymaster, result.accountImplementation]) {
      expect(await provider.getCode(address)).not.toBe("0x");
    }
    expect(result.deployer).toBe(deployer.address);
    expect(result.treasury).toBe(deployer.address);
    expect([result.operator, result.spendRecorder]).toEqual([deployer.address, deployer.address]);
    expect(result.paymasterSigner).toBe(paymasterSigner.address);
    expect(result.chainId).toBe(31337n);

    const c = connectContracts(result, provider);
    expect(await c.exchange.xotn()).toBe(result.xotn);
    expect(await c.exchange.treasury()).toBe(result.treasury);
    expect(await c.exchange.owner()).toBe(deployer.address);
    expect(await c.exchange.operator()).toBe(deployer.address);
    expect(await c.exchange.spendRecorder()).toBe(deployer.address);
    expect(await c.xotn.owner()).toBe(deployer.address);
    expect(await c.xotn.balanceOf(result.treasury)).toBe(1_000_000_000n * 10n ** 18n);
    expect(await c.xotn.allowance(result.treasury, result.exchange)).toBe(MaxUint256);
    expect(await c.paymaster.entryPoint()).toBe(result.entryPoint);
    expect(await c.paymaster.verifyingSigner()).toBe(paymasterSigner.address);
    expect(await c.entryPoint.balanceOf(result.paymaster)).toBe(10n ** 18n);
    expect(await c.factory.accountImplementation()).toBe(result.accountImplementation);
  });

  it("honours treasury, supply, deposit, stake and an existing EntryPoint", async () => {
    const deployer = await account(provider, 0);
    const treasury = await account(provider, 5);
    const first = await deploy(deployer, { paymasterSigner: deployer.address });
    const second = await deploy(deployer, {
      paymasterSigner: deployer.address,
      treasury: treasury.address,
      initialSupply: 42n,
      paymasterDeposit: 0n,
      paymasterStake: { amount: 5n, unstakeDelaySec: 86_400 },
      entryPoint: first.entryPoint,
    });
    expect(second.entryPoint).toBe(first.entryPoint);
    const c = connectContracts(second, provider);
    expect(await c.xotn.balanceOf(treasury.address)).toBe(42n);
    expect(await c.xotn.allowance(treasury.address, second.exchange)).toBe(0n);
    expect(await c.entryPoint.balanceOf(second.paymaster)).toBe(0n);
    const info = await c.entryPoint.getDepositInfo(second.paymaster);
    expect([info.staked, info.stake, info.unstakeDelaySec]).toEqual([true, 5n, 86_400n]);
  });

  it("gives the exchange's operator and spend-recorder roles to their own keys when asked", async () => {
    const deployer = await account(provider, 0);
    const [operator, recorder] = [Wallet.createRandom().address, Wallet.createRandom().address];
    const result = await deploy(deployer, { paymasterSigner: deployer.address, operator, spendRecorder: recorder });
    const c = connectContracts(result, provider);
    expect([await c.exchange.owner(), await c.exchange.operator(), await c.exchange.spendRecorder()]).toEqual([deployer.address, operator, recorder]);
    expect([result.operator, result.spendRecorder]).toEqual([operator, recorder]);
  });

  it("validates its inputs with invalid_argument before sending anything", async () => {
    const deployer = await account(provider, 0);
    const nonce = await provider.getTransactionCount(deployer.address);
    const cases = [
      deploy(deployer, { paymasterSigner: "not-an-address" }),
      deploy(deployer, { paymasterSigner: deployer.address, treasury: "0x123" }),
      deploy(deployer, { paymasterSigner: deployer.address, operator: "0x123" }),
      deploy(deployer, { paymasterSigner: deployer.address, spendRecorder: "nope" }),
      deploy(deployer, { paymasterSigner: deployer.address, initialSupply: -1n }),
      deploy(deployer, { paymasterSigner: deployer.address, paymasterDeposit: -5n }),
      deploy(Wallet.createRandom(), { paymasterSigner: deployer.address }),
    ];
    for (const attempt of cases) {
      await expect(attempt).rejects.toMatchObject({ name: "ContractsError", code: "invalid_argument" });
    }
    expect(await provider.getTransactionCount(deployer.address)).toBe(nonce);
  });

  it("reports a failing step as deploy_failed", async () => {
    const poor = Wallet.createRandom().connect(provider);
    const error = await deploy(poor, { paymasterSigner: poor.address }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractsError);
    expect((error as ContractsError).code).toBe("deploy_failed");
    expect((error as ContractsError).message).toBe("deploy: deploying XOTN failed");
  });
});
