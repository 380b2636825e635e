import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractFactory, Interface, JsonRpcProvider, MaxUint256, Wallet, getAddress, parseEther } from "ethers";
import { openDatabase } from "@slotgate/storage";
import { encryptHex } from "@slotgate/protocol/crypto";
import {
  ContractsError,
  W_SALT,
  buildUserOperation,
  computeAccountImplementationAddress,
  connectAccount,
  connectContracts,
  decodeContractError,
  deploy,
  encodeExecute,
  encodeExecuteBatch,
  entryPointAbi,
  erc20ApproveCall,
  readOperationNonces,
  signUserOperation,
  slotSaleCalls,
  slotgateAccountAbi,
  slotgateAccountBytecode,
  submitUserOperations,
  type UserOperation,
  type WalletCall,
} from "@slotgate/contracts";
import { type ChainServiceError, type ChainServiceWarning, developmentKey, readMnemonicBackup, startDevelopmentChain } from "../src/index.js";
import { ownerKeyFromMnemonic } from "../src/keys/mnemonic.js";
import { newCuid, registration, userWithPin } from "./helpers/slots.js";
import { findWallet } from "../src/storage/wallets.js";
import { PRE_LOCK_FACTORY_BYTECODE } from "./fixtures/pre-lock-factory.js";
import { type Harness, codeOf, sharedSystem, startService, testIdentity } from "./helpers/setup.js";
import { IMPLEMENTATION_SLOT, clearSlotWalletFlag, runForeignImplementation } from "./helpers/unsafe-slot-wallet.js";

// Issue 28, items 1 and 2: a seller holds the slot wallet's owner key (their backup words) and tries every
// back door before listing; the sale through the chain service's hand-over (as the server calls it) then
// leaves the seller nothing: not the slot, not its tokens, not its record. A wallet the chain cannot show
// to be clean is refused before anything is signed.

const upgrades = new Interface(["function upgradeTo(address)", "function upgradeToAndCall(address,bytes)"]);
const entryPointInterface = new Interface(entryPointAbi);

let h: Harness;
/** Pays the seller's own ETH (a player can get ETH anywhere); not one of the service's keys. */
let bank: Wallet;
beforeAll(async () => {
  h = await startService();
  bank = new Wallet(developmentKey(9), h.ctx.provider);
});
afterAll(async () => {
  await h.service.close();
});

/** The seller's owner key as the seller holds it: the backup words the PIN registration answered, opened with the PIN. */
async function ownerKeyOf(user: Awaited<ReturnType<typeof userWithPin>>): Promise<Wallet> {
  const words = await readMnemonicBackup(user.backup, user.pin.pin_hash, user.share);
  const owner = new Wallet(`0x${ownerKeyFromMnemonic(words).privateKey.toString("hex")}`, h.ctx.provider);
  await (await bank.sendTransaction({ to: owner.address, value: parseEther("1") })).wait();
  return owner;
}

/** A UserOperation the seller signs and bundles itself, without the platform's paymaster (paid from the wallet's deposit). */
async function ownOperation(owner: Wallet, sender: string, calls: WalletCall | WalletCall[] | { callData: string }, nonce?: bigint): Promise<UserOperation> {
  const fees = await h.ctx.provider.getFeeData();
  const op = buildUserOperation({
    sender,
    nonce: nonce ?? (await readOperationNonces(h.ctx.provider, h.ctx.addresses, sender)).nonce,
    callData: "callData" in calls ? calls.callData : Array.isArray(calls) ? encodeExecuteBatch(calls) : encodeExecute(calls),
    maxFeePerGas: (fees.maxFeePerGas ?? 2_000_000_000n) * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 1n,
  });
  return signUserOperation(op, owner, { entryPoint: h.ctx.addresses.entryPoint, chainId: h.ctx.chainId });
}

/** Submits operations the seller bundled: each one's outcome, or the EntryPoint's refusal. */
async function bundle(owner: Wallet, op: UserOperation): Promise<{ success: boolean; reason?: string | undefined }> {
  try {
    const [outcome] = (await submitUserOperations(owner, h.ctx.addresses.entryPoint, [op])).operations;
    return { success: outcome!.success, reason: outcome!.revertData === undefined ? undefined : decodeContractError(outcome!.revertData)?.name };
  } catch (error) {
    if (error instanceof ContractsError && error.code === "user_operation_rejected") return { success: false, reason: error.reason };
    throw error;
  }
}

/** The custom error a call reverts with. */
const revertOf = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => "ok",
    (error: unknown) => decodeContractError(error)?.name ?? "reverted",
  );

/** A seller whose slot holds XOTN, content tokens and a spending record, registered on chain; and a buyer. */
async function sellerWithSlot() {
  const { cuid, clientId, key, iv } = await newCuid(h.service);
  const seller = await userWithPin(h.service);
  const buyer = await userWithPin(h.service, "135790");
  await h.service.devFundSlot({ user_uuid: seller.uuid, xotn: "5000", cuid, client_id: clientId });
  await h.service.buyContentToken({ client_id: clientId, user_dbkey: String(seller.uuid), amount: "1000", cuid });
  const spend = encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(seller.uuid), amount: "300", cuid }), key, iv);
  await h.service.increaseUsed(clientId, { encrypted_message: spend });
  const slot = (await h.service.activeSlot(seller.uuid, cuid))!;
  await registration(h.ctx, cuid, slot.meta_idx);
  return { cuid, seller, buyer, slot: getAddress(slot.slot), metaIdx: slot.meta_idx };
}

const saleOf = (w: Awaited<ReturnType<typeof sellerWithSlot>>, state = `sale-${randomBytes(4).toString("hex")}`) => ({
  state,
  cu_id: w.cuid,
  from_uuid: String(w.seller.uuid),
  to_uuid: String(w.buyer.uuid),
  meta_idx: w.metaIdx,
  ...w.seller.pin,
  key_share_user: w.seller.share,
});

describe("a slot sale leaves the seller nothing, whatever the seller set before listing", () => {
  it("the seller's back doors are refused or end with the sale; after it the seller moves nothing and the buyer holds owner, balance and used_balances", async () => {
    const w = await sellerWithSlot();
    const { exchange, xotn, entryPoint } = h.ctx.contracts;
    const owner = await ownerKeyOf(w.seller);
    const wallet = connectAccount(w.slot, owner);
    const xotnBefore = await xotn.balanceOf(w.slot);
    // Code with a back door that passes every check at sale time: the same account, trusting the seller as "exchange".
    const backdoor = await new ContractFactory(slotgateAccountAbi, slotgateAccountBytecode, bank).deploy(
      h.ctx.addresses.entryPoint,
      h.ctx.addresses.xotn,
      owner.address,
    );
    const backdoorAddress = await backdoor.getAddress();

    // Directly from the owner EOA: no upgrade, no approval of anyone but the exchange, no EntryPoint stake.
    for (const data of [
      upgrades.encodeFunctionData("upgradeTo", [backdoorAddress]),
      upgrades.encodeFunctionData("upgradeToAndCall", [backdoorAddress, "0x"]),
    ]) {
      await expect(owner.sendTransaction({ to: w.slot, data })).rejects.toThrow();
      await expect(revertOf(wallet.execute(w.slot, 0n, data))).resolves.toBe("SlotCallNotAllowed");
    }
    await expect(revertOf(wallet.execute(h.ctx.addresses.xotn, 0n, xotn.interface.encodeFunctionData("approve", [owner.address, MaxUint256])))).resolves.toBe(
      "SlotCallNotAllowed",
    );
    await expect(revertOf(wallet.execute(h.ctx.addresses.entryPoint, 0n, entryPointInterface.encodeFunctionData("addStake", [1])))).resolves.toBe(
      "SlotCallNotAllowed",
    );
    // What a slot may set, set as large as it goes: a consent, the exchange's XOTN approval, an EntryPoint deposit.
    await (await wallet.execute(h.ctx.addresses.exchange, 0n, exchange.interface.encodeFunctionData("approve_purchases", [w.cuid, MaxUint256 / 2n]))).wait();
    const approveExchange = erc20ApproveCall(h.ctx.addresses.xotn, h.ctx.addresses.exchange, MaxUint256);
    await (await wallet.executeBatch([approveExchange.to], [approveExchange.data ?? "0x"])).wait();
    await (await wallet.addDeposit({ value: parseEther("0.5") })).wait();
    expect([await exchange.purchase_allowance(w.slot, w.cuid), await xotn.allowance(w.slot, h.ctx.addresses.exchange)]).toEqual([MaxUint256 / 2n, MaxUint256]);

    // Through UserOperations the seller signs and bundles: refused the same way, on chain.
    expect(await bundle(owner, await ownOperation(owner, w.slot, { callData: upgrades.encodeFunctionData("upgradeTo", [backdoorAddress]) }))).toEqual({
      success: false,
      reason: undefined,
    });
    expect(await bundle(owner, await ownOperation(owner, w.slot, erc20ApproveCall(h.ctx.addresses.xotn, owner.address, MaxUint256)))).toEqual({
      success: false,
      reason: "SlotCallNotAllowed",
    });
    // And through the platform's sponsored pipeline: refused in its simulation, nothing signed.
    const sponsored = h.ctx.sponsored.send(
      {
        sender: w.slot,
        deployment: { initialOwner: (await findWallet(h.db, w.seller.uuid))!.initialOwner, salt: 1n },
        calls: [erc20ApproveCall(h.ctx.addresses.xotn, owner.address, MaxUint256)],
        identity: testIdentity(`user:${w.seller.uuid}`),
        budget: { userUuid: w.seller.uuid },
        answer: { shape: "operation" },
      },
      Buffer.from(owner.privateKey.slice(2), "hex"),
    );
    await expect(sponsored).rejects.toMatchObject({ code: "chain_reverted", details: { reason: "SlotCallNotAllowed" } });
    // Operations signed now for after the sale: the next nonce (taking the slot back), and another nonce key.
    const next = (await readOperationNonces(h.ctx.provider, h.ctx.addresses, w.slot)).nonce + 1n;
    const [takeBackRegistry, ...takeBackRest] = slotSaleCalls({
      exchange: h.ctx.addresses.exchange,
      xotn: h.ctx.addresses.xotn,
      cuid: w.cuid,
      slot: BigInt(w.metaIdx),
      slotWallet: w.slot,
      buyerWallet: w.seller.wallet,
      buyerOwner: Wallet.createRandom().address,
    });
    const takeBack = [takeBackRegistry as WalletCall, ...takeBackRest];
    const presigned = [await ownOperation(owner, w.slot, takeBack, next), await ownOperation(owner, w.slot, takeBack, 7n << 64n)];
    // The seller's user wallet (W_SALT, the registry's owner today), deployed to call the registry later.
    await (await connectContracts(h.ctx.addresses, owner).factory.createAccount(owner.address, W_SALT)).wait();
    expect(await h.ctx.provider.getStorage(w.slot, IMPLEMENTATION_SLOT)).toBe(
      `0x${(await h.ctx.contracts.factory.accountImplementation()).slice(2).toLowerCase().padStart(64, "0")}`,
    );

    // The sale, through the chain service's hand-over: the wallet is clean, so it completes.
    const sale = await h.service.exchangeSlotOwner(saleOf(w));
    expect(sale).toMatchObject({ success: true, new_owner: w.buyer.wallet, tr_cnt: 1 });

    // The seller can move neither the slot, nor its tokens, nor its record, by any call.
    const buyerOwner = (await findWallet(h.db, w.buyer.uuid))!.ownerEoa;
    await expect(revertOf(wallet.execute(h.ctx.addresses.exchange, 0n, (takeBackRegistry as WalletCall).data ?? "0x"))).resolves.toBe("NotOwnerOrEntryPoint");
    await expect(revertOf(wallet.changeOwner(owner.address))).resolves.toBe("NotOwnerOrEntryPoint");
    await expect(revertOf(wallet.withdrawDepositTo(owner.address, 1n))).resolves.toBe("NotOwner");
    for (const op of presigned) expect(await bundle(owner, op)).toEqual({ success: false, reason: "AA24 signature error" });
    const userWallet = connectAccount(w.seller.wallet, owner);
    await expect(revertOf(userWallet.execute(h.ctx.addresses.exchange, 0n, (takeBackRegistry as WalletCall).data ?? "0x"))).resolves.toBe("NotSlotOwner");
    await expect(revertOf(connectContracts(h.ctx.addresses, owner).xotn.transferFrom(w.slot, owner.address, 1n))).resolves.not.toBe("ok");
    expect(await exchange.purchase_allowance(w.slot, w.cuid)).toBe(0n);
    await expect(revertOf(exchange.buy_for.staticCall(w.slot, w.cuid, 1n))).resolves.toBe("InsufficientPurchaseAllowance");
    expect([await xotn.allowance(w.slot, h.ctx.addresses.exchange), await xotn.allowance(w.slot, owner.address)]).toEqual([0n, 0n]);

    // The buyer holds the wallet's key, the registry's record, the balance and the spending record, read from the chain.
    expect(getAddress(await connectAccount(w.slot, h.ctx.provider).owner())).toBe(buyerOwner);
    expect([...(await exchange.slot_info(w.cuid, BigInt(w.metaIdx)))]).toEqual([w.buyer.wallet, w.slot, 1n, 700n, 300n]);
    expect(await exchange.owner_epoch(w.slot)).toBe(1n);
    expect(await xotn.balanceOf(w.slot)).toBe(xotnBefore);
    expect(await entryPoint.balanceOf(w.slot)).toBeGreaterThan(0n);
  });

  it("refuses a slot wallet running another implementation (slot_wallet_unsafe) before anything is signed; nothing moves", async () => {
    const w = await sellerWithSlot();
    const owner = await ownerKeyOf(w.seller);
    // A wallet whose code was replaced: here by the wallet code of Slotgate before issue 28 (the implementation
    // its factory made), which reads the same owner, makes any call and can be upgraded by its owner. The seller
    // approves itself on XOTN; every check but the implementation's passes.
    await runForeignImplementation(h.ctx.provider, bank, h.ctx.addresses.entryPoint, w.slot);
    await (
      await connectAccount(w.slot, owner).execute(
        h.ctx.addresses.xotn,
        0n,
        h.ctx.contracts.xotn.interface.encodeFunctionData("approve", [owner.address, MaxUint256]),
      )
    ).wait();
    expect(await h.ctx.contracts.xotn.allowance(w.slot, owner.address)).toBe(MaxUint256);
    const before = [...(await h.ctx.contracts.exchange.slot_info(w.cuid, BigInt(w.metaIdx)))];
    const nonce = (await readOperationNonces(h.ctx.provider, h.ctx.addresses, w.slot)).nonce;

    const state = `foreign-${randomBytes(4).toString("hex")}`;
    const refused = (await h.service.exchangeSlotOwner(saleOf(w, state)).catch((e: unknown) => e)) as ChainServiceError;
    expect([refused.code, refused.status, refused.details]).toEqual(["slot_wallet_unsafe", 409, { reason: "foreign_implementation" }]);
    expect([...(await h.ctx.contracts.exchange.slot_info(w.cuid, BigInt(w.metaIdx)))]).toEqual(before);
    expect(getAddress(await connectAccount(w.slot, h.ctx.provider).owner())).toBe(owner.address);
    expect((await readOperationNonces(h.ctx.provider, h.ctx.addresses, w.slot)).nonce, "no operation was signed").toBe(nonce);
    expect(await h.service.slotInfo(w.cuid, w.metaIdx)).toMatchObject({ owner_user_id: String(w.seller.uuid) });
    // The refusal came before the PIN and the state token were spent: the same state is refused the same way.
    expect(await codeOf(h.service.exchangeSlotOwner(saleOf(w, state)))).toBe("slot_wallet_unsafe");
  });

  it("refuses a wallet of the factory's implementation that is not restricted to slot calls (slot_wallet_unsafe, not_a_slot_wallet); nothing moves", async () => {
    const w = await sellerWithSlot();
    const owner = await ownerKeyOf(w.seller);
    const wallet = connectAccount(w.slot, owner);
    // The slot's wallet made unrestricted, as a user's W_SALT wallet is; the implementation and the owner stay.
    await clearSlotWalletFlag(h.ctx.provider, w.slot);
    expect([await wallet.isSlotWallet(), getAddress(await wallet.owner())]).toEqual([false, owner.address]);
    expect(await h.ctx.provider.getStorage(w.slot, IMPLEMENTATION_SLOT)).toBe(
      `0x${(await h.ctx.contracts.factory.accountImplementation()).slice(2).toLowerCase().padStart(64, "0")}`,
    );
    // Unrestricted, it approves the seller on XOTN: a permission a sale would leave behind.
    await (await wallet.execute(h.ctx.addresses.xotn, 0n, h.ctx.contracts.xotn.interface.encodeFunctionData("approve", [owner.address, MaxUint256]))).wait();
    expect(await h.ctx.contracts.xotn.allowance(w.slot, owner.address)).toBe(MaxUint256);
    const before = [...(await h.ctx.contracts.exchange.slot_info(w.cuid, BigInt(w.metaIdx)))];
    const nonce = (await readOperationNonces(h.ctx.provider, h.ctx.addresses, w.slot)).nonce;

    const state = `unrestricted-${randomBytes(4).toString("hex")}`;
    const refused = (await h.service.exchangeSlotOwner(saleOf(w, state)).catch((e: unknown) => e)) as ChainServiceError;
    expect([refused.code, refused.status, refused.details]).toEqual(["slot_wallet_unsafe", 409, { reason: "not_a_slot_wallet" }]);
    expect([...(await h.ctx.contracts.exchange.slot_info(w.cuid, BigInt(w.metaIdx)))]).toEqual(before);
    expect(getAddress(await connectAccount(w.slot, h.ctx.provider).owner())).toBe(owner.address);
    expect((await readOperationNonces(h.ctx.provider, h.ctx.addresses, w.slot)).nonce, "no operation was signed").toBe(nonce);
    expect(await h.service.slotInfo(w.cuid, w.metaIdx)).toMatchObject({ owner_user_id: String(w.seller.uuid) });
    expect(await codeOf(h.service.exchangeSlotOwner(saleOf(w, state)))).toBe("slot_wallet_unsafe");
  });

  it("a deployment made before slot wallets were locked starts with a warning and refuses every sale (deployment_predates_lock); nothing moves", async () => {
    // A whole deployment of its own (its own keys, so its writers never share a nonce with the suite's),
    // whose factory is the one Slotgate deployed before issue 28.
    const system = await sharedSystem();
    const provider = new JsonRpcProvider(system.rpcUrl, undefined, { cacheTimeout: -1 });
    const keys = { operatorKey: developmentKey(8), spendRecorderKey: developmentKey(7), paymasterSignerKey: developmentKey(6), bundlerKey: developmentKey(5) };
    const deployer = new Wallet(keys.operatorKey, provider);
    const deployed = await deploy(deployer, {
      paymasterSigner: new Wallet(keys.paymasterSignerKey).address,
      spendRecorder: new Wallet(keys.spendRecorderKey).address,
      paymasterDeposit: parseEther("10"),
    });
    const factory = await new ContractFactory(["constructor(address entryPoint)"], PRE_LOCK_FACTORY_BYTECODE, deployer).deploy(deployed.entryPoint);
    const { xotn, exchange, entryPoint, paymaster } = deployed;
    const preLock = { ...system, ...keys, addresses: { xotn, exchange, entryPoint, paymaster, factory: await factory.getAddress() } };
    provider.destroy();
    const warnings: ChainServiceWarning[] = [];
    const old = await startService({ chain: preLock, db: await openDatabase({}), warn: (warning) => warnings.push(warning) });
    try {
      expect(warnings.map((warning) => warning.code)).toContain("slot_sales_refused");
      const { cuid } = await newCuid(old.service);
      const seller = await userWithPin(old.service);
      const buyer = await userWithPin(old.service, "135790");
      const slot = await old.service.openSlot(seller.uuid, cuid);
      await registration(old.ctx, cuid, slot.meta_idx);
      const before = [...(await old.ctx.contracts.exchange.slot_info(cuid, BigInt(slot.meta_idx)))];
      const sale = {
        state: `old-${randomBytes(4).toString("hex")}`,
        cu_id: cuid,
        from_uuid: String(seller.uuid),
        to_uuid: String(buyer.uuid),
        meta_idx: slot.meta_idx,
        ...seller.pin,
        key_share_user: seller.share,
      };
      const refused = (await old.service.exchangeSlotOwner(sale).catch((e: unknown) => e)) as ChainServiceError;
      expect([refused.code, refused.details]).toEqual(["slot_wallet_unsafe", { reason: "deployment_predates_lock" }]);
      expect([...(await old.ctx.contracts.exchange.slot_info(cuid, BigInt(slot.meta_idx)))]).toEqual(before);
    } finally {
      await old.service.close();
    }
  });

  it("a development data directory deployed before slot wallets were locked is refused at start: start from an empty data directory", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "sg-pre-lock-"));
    try {
      const first = await startDevelopmentChain({ stateDir, port: 0 });
      // An older wallet implementation, simulated: the factory's implementation runs code without the slot lock (XOTN's).
      const rpc = new JsonRpcProvider(first.anvil.rpcUrl, undefined, { staticNetwork: true });
      await rpc.send("anvil_setCode", [
        computeAccountImplementationAddress(first.deployment.addresses.factory),
        await rpc.getCode(first.deployment.addresses.xotn),
      ]);
      rpc.destroy();
      await first.anvil.stop();
      await expect(startDevelopmentChain({ stateDir, port: 0 })).rejects.toMatchObject({
        code: "chain_unavailable",
        message: expect.stringContaining(
          "older Slotgate whose slot wallets are not locked (its wallets can be upgraded by their owners and make any call); start from an empty data directory",
        ),
      });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
