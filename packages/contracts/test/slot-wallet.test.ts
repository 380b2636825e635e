// Issue 28: a slot wallet's code and permissions cannot outlive its owner. The wallet has no upgrade
// path, and a slot wallet (every salt but W_SALT) makes only the calls a slot needs, whether its owner
// EOA calls it directly or signs a UserOperation.
import { Interface, MaxUint256, type Wallet, getBytes } from "ethers";
import { describe, expect, it } from "vitest";
import {
  C_SALT,
  W_SALT,
  approvePurchasesCall,
  buyContentTokenCall,
  connectAccount,
  entryPointAbi,
  erc20ApproveCall,
  erc20TransferCall,
  slotSalt,
} from "../src/index.js";
import { expectRevert, offlineKey } from "./support/chain.js";
import { CUID, XOTN, useTestSystem } from "./support/system.js";
import { accountInterface, sendAs, walletsOf, xotnInterface } from "./support/wallets.js";

const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc"; // ERC-1967
const entryPointInterface = new Interface(entryPointAbi);
const upgradeInterface = new Interface([
  "function upgradeTo(address)",
  "function upgradeToAndCall(address,bytes)",
  "function increaseAllowance(address,uint256)",
]);

/** The opcodes of runtime code, PUSH data skipped. */
function opcodes(code: string): Set<number> {
  const bytes = getBytes(code);
  const seen = new Set<number>();
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i] as number;
    seen.add(op);
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return seen;
}

describe("SlotgateAccount: no upgrade path, and a slot wallet limited to the calls a slot needs", () => {
  const s = useTestSystem();

  /** An owner EOA with ETH (so it can call its wallets directly) and its deployed user and slot wallets. */
  async function ownerWithWallets() {
    const owner = offlineKey().connect(s.provider) as Wallet;
    await (await s.platform.sendTransaction({ to: owner.address, value: XOTN })).wait();
    const { userWallet, slotWallet } = walletsOf(s, owner);
    await (await s.platformContracts.factory.createAccount(owner.address, W_SALT)).wait();
    await (await s.platformContracts.factory.createAccount(owner.address, C_SALT)).wait();
    await (await s.platformContracts.xotn.transfer(slotWallet, 10n * XOTN)).wait();
    return { owner, userWallet, slotWallet };
  }

  it("makes every wallet but the user wallet (W_SALT) a slot wallet when it deploys it; nobody else can restrict one", async () => {
    const { owner, userWallet, slotWallet } = await ownerWithWallets();
    const later = await s.platformContracts.factory.createAccount.staticCall(owner.address, slotSalt(CUID, 4n));
    await (await s.platformContracts.factory.createAccount(owner.address, slotSalt(CUID, 4n))).wait();
    expect(await connectAccount(userWallet, s.provider).isSlotWallet()).toBe(false);
    expect(await connectAccount(slotWallet, s.provider).isSlotWallet()).toBe(true);
    expect(await connectAccount(later, s.provider).isSlotWallet()).toBe(true);
    await expectRevert(connectAccount(userWallet, owner).restrictToSlotCalls(), "NotFactory", [owner.address]);
    await expectRevert(connectAccount(userWallet, s.stranger).restrictToSlotCalls(), "NotFactory", [s.stranger.address]);
    expect(await connectAccount(userWallet, s.provider).factory()).toBe(s.addresses.factory);
  });

  it("makes the calls a slot needs: its purchases, its consents, ERC-20 and ETH transfers", async () => {
    const { owner, slotWallet } = await ownerWithWallets();
    await sendAs(
      s,
      owner,
      [
        erc20ApproveCall(s.addresses.xotn, s.addresses.exchange, MaxUint256),
        buyContentTokenCall(s.addresses.exchange, slotWallet, CUID, XOTN),
        approvePurchasesCall(s.addresses.exchange, CUID, 2n * XOTN),
        erc20TransferCall(s.addresses.xotn, s.stranger.address, 3n),
      ],
      { sender: slotWallet },
    );
    expect(await s.platformContracts.exchange.balance_adex(slotWallet, CUID)).toEqual([XOTN, 0n]);
    expect(await s.platformContracts.exchange.purchase_allowance(slotWallet, CUID)).toBe(2n * XOTN);
    await (await owner.sendTransaction({ to: slotWallet, value: 100n })).wait();
    await (await connectAccount(slotWallet, owner).execute(s.stranger.address, 40n, "0x")).wait();
    expect(await s.provider.getBalance(slotWallet)).toBe(60n);
  });

  it("refuses every other call, directly from its owner EOA and through a UserOperation the owner signed", async () => {
    const { owner, slotWallet } = await ownerWithWallets();
    const account = connectAccount(slotWallet, owner);
    const refused: Array<[string, string, string]> = [
      ["XOTN approve of the owner", s.addresses.xotn, xotnInterface.encodeFunctionData("approve", [owner.address, MaxUint256])],
      ["XOTN approve of a stranger", s.addresses.xotn, xotnInterface.encodeFunctionData("approve", [s.stranger.address, 1n])],
      ["XOTN increaseAllowance", s.addresses.xotn, upgradeInterface.encodeFunctionData("increaseAllowance", [s.stranger.address, 1n])],
      ["XOTN transferFrom", s.addresses.xotn, xotnInterface.encodeFunctionData("transferFrom", [s.holder.address, owner.address, 1n])],
      ["upgradeTo on itself", slotWallet, upgradeInterface.encodeFunctionData("upgradeTo", [s.addresses.xotn])],
      ["withdrawDepositTo on itself", slotWallet, accountInterface.encodeFunctionData("withdrawDepositTo", [owner.address, 1n])],
      ["EntryPoint stake", s.addresses.entryPoint, entryPointInterface.encodeFunctionData("addStake", [1])],
      ["EntryPoint nonce key", s.addresses.entryPoint, entryPointInterface.encodeFunctionData("incrementNonce", [1n])],
      ["a stranger's approve", s.stranger.address, xotnInterface.encodeFunctionData("approve", [owner.address, 1n])],
      [
        "the exchange's other functions",
        s.addresses.exchange,
        s.platformContracts.exchange.interface.encodeFunctionData("release_used_balance", [CUID, slotWallet]),
      ],
      ["three bytes of calldata", s.addresses.exchange, "0x123456"],
    ];
    for (const [what, to, data] of refused) {
      const selector = data.length >= 10 ? data.slice(0, 10) : "0x00000000";
      await expectRevert(account.execute(to, 0n, data), "SlotCallNotAllowed", [to, selector]).catch((error: unknown) => {
        throw new Error(`${what}: ${String(error)}`);
      });
    }
    // ETH rides only on a plain transfer; a batch is checked call by call.
    await expectRevert(account.execute(s.addresses.exchange, 1n, approvePurchasesCall(s.addresses.exchange, CUID, 1n).data ?? "0x"), "SlotCallNotAllowed");
    const [first, second] = [erc20ApproveCall(s.addresses.xotn, s.addresses.exchange, 1n), erc20ApproveCall(s.addresses.xotn, owner.address, 1n)];
    const [firstData, secondData] = [first.data ?? "0x", second.data ?? "0x"];
    await expectRevert(account.executeBatch([first.to, second.to], [firstData, secondData]), "SlotCallNotAllowed", [s.addresses.xotn, secondData.slice(0, 10)]);
    // Signed as a UserOperation and sent without the platform's simulation: the call reverts on chain.
    await expect(sendAs(s, owner, [first, second], { sender: slotWallet, policy: false })).rejects.toMatchObject({
      code: "user_operation_reverted",
      reason: "SlotCallNotAllowed",
    });
    expect(await s.platformContracts.xotn.allowance(slotWallet, owner.address)).toBe(0n);
    expect(await s.platformContracts.xotn.allowance(slotWallet, s.addresses.exchange)).toBe(0n);
  });

  it("has no upgrade path: upgradeTo and upgradeToAndCall are refused for the owner, directly and through a UserOperation", async () => {
    const { owner, userWallet, slotWallet } = await ownerWithWallets();
    const implementation = await s.platformContracts.factory.accountImplementation();
    for (const wallet of [userWallet, slotWallet]) {
      for (const data of [
        upgradeInterface.encodeFunctionData("upgradeTo", [s.addresses.xotn]),
        upgradeInterface.encodeFunctionData("upgradeToAndCall", [s.addresses.xotn, "0x"]),
      ]) {
        await expect(owner.sendTransaction({ to: wallet, data })).rejects.toThrow();
        await expect(sendAs(s, owner, { callData: data }, { sender: wallet, policy: false })).rejects.toMatchObject({ code: "user_operation_reverted" });
      }
      expect(BigInt(await s.provider.getStorage(wallet, IMPLEMENTATION_SLOT))).toBe(BigInt(implementation));
    }
    // The user wallet's execute reaches anything, itself included, and still cannot change its code.
    await expect(
      connectAccount(userWallet, owner).execute(userWallet, 0n, upgradeInterface.encodeFunctionData("upgradeTo", [s.addresses.xotn])),
    ).rejects.toThrow();
    // Nothing in the implementation's code could write the implementation slot: no DELEGATECALL, CALLCODE or SELFDESTRUCT.
    const ops = opcodes(await s.provider.getCode(implementation));
    expect([0xf4, 0xf2, 0xff].filter((op) => ops.has(op))).toEqual([]);
    expect(ops.has(0xf1)).toBe(true); // CALL: the reader sees the opcodes
  });

  it("leaves the user wallet (W_SALT) unrestricted: it approves and calls whatever its owner asks", async () => {
    const { owner, userWallet } = await ownerWithWallets();
    await (await connectAccount(userWallet, owner).execute(s.addresses.xotn, 0n, xotnInterface.encodeFunctionData("approve", [s.stranger.address, 5n]))).wait();
    expect(await s.platformContracts.xotn.allowance(userWallet, s.stranger.address)).toBe(5n);
    await (await connectAccount(userWallet, owner).execute(s.addresses.entryPoint, 0n, entryPointInterface.encodeFunctionData("incrementNonce", [1n]))).wait();
    expect(await s.platformContracts.entryPoint.getNonce(userWallet, 1n)).not.toBe(0n);
  });
});
