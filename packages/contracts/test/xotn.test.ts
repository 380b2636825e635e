import { ContractFactory, Signature, ZeroAddress } from "ethers";
import { describe, expect, it } from "vitest";
import { type XotnContract, xotnAbi, xotnBytecode } from "../src/index.js";
import { expectRevert } from "./support/chain.js";
import { XOTN, useTestSystem } from "./support/system.js";

describe("XOTN", () => {
  const s = useTestSystem();

  it("is an 18-decimal ERC-20 named XOTN whose initial supply went to the treasury", async () => {
    const { xotn } = s.platformContracts;
    expect(await xotn.name()).toBe("XOTN");
    expect(await xotn.symbol()).toBe("XOTN");
    expect(await xotn.decimals()).toBe(18n);
    expect(await xotn.totalSupply()).toBe(1_000_000_000n * XOTN);
    expect(await xotn.balanceOf(s.addresses.treasury)).toBe(1_000_000_000n * XOTN - 1_000n * XOTN);
    expect(await xotn.owner()).toBe(s.addresses.deployer);
  });

  it("lets the platform mint and emits Transfer from the zero address", async () => {
    const { xotn } = s.platformContracts;
    const receipt = await (await xotn.mint(s.stranger.address, 5n)).wait();
    expect(await xotn.balanceOf(s.stranger.address)).toBe(5n);
    const log = receipt?.logs.map((entry) => xotn.interface.parseLog(entry)).find((entry) => entry?.name === "Transfer");
    expect(log?.args.from).toBe(ZeroAddress);
    expect(log?.args.value).toBe(5n);
  });

  it("refuses minting by anyone but the platform with NotOwner", async () => {
    await expectRevert(s.strangerContracts.xotn.mint(s.stranger.address, 1n), "NotOwner", [s.stranger.address]);
  });

  it("refuses minting to the zero address with ZeroAddress", async () => {
    await expectRevert(s.platformContracts.xotn.mint(ZeroAddress, 1n), "ZeroAddress");
  });

  it("refuses deployment with a zero initial holder", async () => {
    const factory = new ContractFactory(xotnAbi, xotnBytecode, s.platform);
    await expectRevert(factory.deploy(ZeroAddress, 1n), "ZeroAddress");
  });

  it("deploys with a zero initial supply", async () => {
    const factory = new ContractFactory(xotnAbi, xotnBytecode, s.platform);
    const token = (await (await factory.deploy(s.stranger.address, 0n)).waitForDeployment()) as unknown as XotnContract;
    expect(await token.totalSupply()).toBe(0n);
  });

  it("transfers ownership in two steps and only to the nominee", async () => {
    const { xotn } = s.platformContracts;
    await (await xotn.transferOwnership(s.stranger.address)).wait();
    expect(await xotn.owner()).toBe(s.platform.address);
    await expect(s.holderContracts.xotn.acceptOwnership()).rejects.toMatchObject({
      reason: "Ownable2Step: caller is not the new owner",
    });
    await (await s.strangerContracts.xotn.acceptOwnership()).wait();
    expect(await xotn.owner()).toBe(s.stranger.address);
    await expectRevert(xotn.mint(s.platform.address, 1n), "NotOwner", [s.platform.address]);
  });

  it("accepts an EIP-2612 permit signed by the holder", async () => {
    const { xotn } = s.holderContracts;
    const deadline = 2n ** 40n;
    const nonce = await xotn.nonces(s.holder.address);
    const { chainId } = await s.provider.getNetwork();
    const signature = Signature.from(
      await s.holder.signTypedData(
        { name: "XOTN", version: "1", chainId, verifyingContract: s.addresses.xotn },
        {
          Permit: [
            { name: "owner", type: "address" },
            { name: "spender", type: "address" },
            { name: "value", type: "uint256" },
            { name: "nonce", type: "uint256" },
            { name: "deadline", type: "uint256" },
          ],
        },
        { owner: s.holder.address, spender: s.addresses.exchange, value: 7n, nonce, deadline },
      ),
    );
    await (await s.strangerContracts.xotn.permit(s.holder.address, s.addresses.exchange, 7n, deadline, signature.v, signature.r, signature.s)).wait();
    expect(await xotn.allowance(s.holder.address, s.addresses.exchange)).toBe(7n);
  });
});
