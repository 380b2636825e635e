import { runWalletOperation } from "../src/operations/wallet-operation.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther } from "ethers";
import { type Harness, landedAnswer, newUserId, pinOf, startService, testIdentity } from "./helpers/setup.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

describe("sponsored operations", () => {
  it("deploys the wallet with its first sponsored operation and the user pays no gas", async () => {
    const user = newUserId();
    const pin = pinOf("123456");
    const { data } = await h.service.registerPin({ user_uuid: user, ...pin });
    const reg = data[0]!;
    const ctx = h.ctx;
    expect(await ctx.provider.getCode(reg.address)).toBe("0x");
    await h.service.fundWallet({ user_uuid: user, xotn: parseEther("10").toString(), wallet: "user" });
    const other = getAddress(`0x${"11".repeat(20)}`);
    const result = landedAnswer(
      await runWalletOperation(
        h.ctx,
        {
          user_uuid: user,
          ...pin,
          key_share_user: reg.key_share_user,
        },
        { kind: "erc20_transfer", from_address: reg.address, to_address: other, amount: "5", contract_address: h.service.addresses.xotn },
        testIdentity(`user:${user}`),
      ),
    );
    expect(result.deployed_wallet).toBe(true);
    expect(await ctx.provider.getCode(reg.address)).not.toBe("0x");
    const { xotn } = ctx.contracts;
    expect(await xotn.balanceOf(other)).toBe(5n);
    expect(await ctx.provider.getBalance(reg.address)).toBe(0n);
    const second = landedAnswer(
      await runWalletOperation(
        h.ctx,
        {
          user_uuid: user,
          ...pin,
          key_share_user: reg.key_share_user,
        },
        { kind: "erc20_transfer", from_address: reg.address, to_address: other, amount: "7", contract_address: h.service.addresses.xotn },
        testIdentity(`user:${user}`),
      ),
    );
    expect(second.deployed_wallet).toBe(false);
    expect(await xotn.balanceOf(other)).toBe(12n);
  });
});
