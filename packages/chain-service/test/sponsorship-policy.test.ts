import { ContractFactory, Wallet } from "ethers";
import { xotnAbi, xotnBytecode } from "@slotgate/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { developmentKey } from "../src/index.js";
import { runWalletOperation } from "../src/operations/wallet-operation.js";
import { type Harness, newUserId, pinOf, startService, testIdentity, codeOf } from "./helpers/setup.js";

// Finding 4 of issue 21: the paymaster signs only operations whose call simulates without reverting,
// within a per-operation gas cap, and transfers only of allow-listed tokens.

const developmentKey9Address = new Wallet(developmentKey(9)).address;
let h: Harness;
let otherToken: string;
let allowedToken: string;
beforeAll(async () => {
  h = await startService();
  const deploy = async () => {
    // A key of its own: the operator's transactions are the service's writers' to send.
    const token = await new ContractFactory(xotnAbi, xotnBytecode, new Wallet(developmentKey(9), h.ctx.provider)).deploy(developmentKey9Address, 10n ** 24n);
    await token.waitForDeployment();
    return token.getAddress();
  };
  otherToken = await deploy();
  allowedToken = await deploy();
});
afterAll(async () => {
  await h.service.close();
});

async function userWithWallet(service = h.service) {
  const user = newUserId();
  const pin = pinOf("565656");
  const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
  return { user, credentials: { user_uuid: user, ...pin, key_share_user: reg.key_share_user }, address: reg.address };
}

describe("sponsorship policy", () => {
  it("never signs an operation whose call reverts: nothing lands and the paymaster's deposit pays nothing", async () => {
    const { credentials, address } = await userWithWallet();
    const { entryPoint } = h.ctx.contracts;
    const deposit = await entryPoint.balanceOf(h.ctx.addresses.paymaster);
    const block = await h.ctx.provider.getBlockNumber();
    // The wallet holds no XOTN: the transfer reverts in simulation.
    const error = await runWalletOperation(
      h.ctx,
      credentials,
      {
        kind: "erc20_transfer",
        from_address: address,
        to_address: Wallet.createRandom().address,
        amount: "5",
        contract_address: h.service.addresses.xotn,
      },
      testIdentity(`user:${credentials.user_uuid}`),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "chain_reverted", details: { reason: "ERC20: transfer amount exceeds balance" } });
    expect(await entryPoint.balanceOf(h.ctx.addresses.paymaster)).toBe(deposit);
    expect(await h.ctx.provider.getBlockNumber()).toBe(block);
    expect(await h.ctx.provider.getCode(address)).toBe("0x");
  });

  it("sponsors erc20_transfer only for tokens on the allow-list (XOTN by default)", async () => {
    const transfer = (harness: Harness, user: Awaited<ReturnType<typeof userWithWallet>>, token: string) =>
      codeOf(
        runWalletOperation(
          harness.ctx,
          user.credentials,
          {
            kind: "erc20_transfer",
            from_address: user.address,
            to_address: Wallet.createRandom().address,
            amount: "1",
            contract_address: token,
          },
          testIdentity(`user:${user.user}`),
        ),
      );
    expect(await transfer(h, await userWithWallet(), otherToken)).toBe("sponsorship_refused");
    const listed = await startService({ sponsorship: { erc20AllowList: [allowedToken] } });
    try {
      const other = await userWithWallet(listed.service);
      const token = new ContractFactory(xotnAbi, xotnBytecode).attach(allowedToken).connect(new Wallet(developmentKey(9), h.ctx.provider));
      await (await (token as unknown as { transfer(to: string, amount: bigint): Promise<{ wait(): Promise<unknown> }> }).transfer(other.address, 10n)).wait();
      expect(await transfer(listed, other, allowedToken)).toBe("ok");
      expect(await transfer(listed, other, otherToken)).toBe("sponsorship_refused");
    } finally {
      await listed.service.close();
    }
  });

  it("refuses operations above the configured per-operation gas cap", async () => {
    const capped = await startService({ sponsorship: { maxOperationGas: 2_000_000n } });
    try {
      const { credentials, address } = await userWithWallet(capped.service);
      await capped.service.fundWallet({ user_uuid: credentials.user_uuid, xotn: "10", wallet: "user" });
      const transfer = {
        kind: "erc20_transfer" as const,
        from_address: address,
        to_address: Wallet.createRandom().address,
        amount: "1",
        contract_address: capped.service.addresses.xotn,
      };
      // The wallet's first operation deploys it: 500,000 + 3 × 1,000,000 + 60,000 gas at most, above the cap.
      const error = await runWalletOperation(capped.ctx, credentials, transfer, testIdentity(`user:${credentials.user_uuid}`)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "sponsorship_refused", status: 403 });
      expect(await capped.ctx.provider.getCode(address)).toBe("0x");
    } finally {
      await capped.service.close();
    }
    await expect(startService({ sponsorship: { maxOperationGas: 0n } })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(startService({ sponsorship: { erc20AllowList: ["not-an-address"] } })).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("restores the owner key only in the wallet's turn", async () => {
    const { credentials, address } = await userWithWallet();
    await h.service.fundWallet({ user_uuid: credentials.user_uuid, xotn: "10", wallet: "user" });
    // Another operation of the wallet has its turn: its own key is being restored.
    const release = await h.ctx.sponsored.walletTurn(address);
    const wrong = { ...credentials, pin_hash: pinOf("000000", credentials.pin_salt).pin_hash };
    const attempt = runWalletOperation(
      h.ctx,
      wrong,
      {
        kind: "erc20_transfer",
        from_address: address,
        to_address: Wallet.createRandom().address,
        amount: "1",
        contract_address: h.service.addresses.xotn,
      },
      testIdentity(`user:${credentials.user_uuid}`),
    ).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // While another operation of the wallet holds its lock, the PIN is not even checked (no key in memory).
    const failures = async () =>
      (await h.db.query<{ failures: number }>("SELECT failures FROM cs_pin_attempts WHERE user_uuid = $1", [credentials.user_uuid]))[0]?.failures ?? 0;
    expect(await failures()).toBe(0);
    release();
    expect(await attempt).toMatchObject({ code: "pin_invalid" });
    expect(await failures()).toBe(1);
  });
});
