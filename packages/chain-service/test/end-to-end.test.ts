import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Wallet, getAddress, parseEther } from "ethers";
import { connectAccount } from "@slotgate/contracts";
import { encryptHex } from "@slotgate/protocol/crypto";
import { ChainServiceError, readMnemonicBackup } from "../src/index.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";
import { sharedCaller, testCaller } from "./helpers/caller.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

async function rejects(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChainServiceError);
  expect((error as ChainServiceError).code).toBe(code);
}

describe("end to end on the development chain", () => {
  it("walks register -> sponsored deploy -> provider -> purchase -> spend -> release -> transfer -> slot exchange -> reset -> recovery", async () => {
    const { service } = h;
    const ctx = h.ctx;
    const { xotn } = ctx.contracts;
    const blockOf = () => ctx.provider.getBlockNumber();

    // 1. PIN register: one database transaction, no chain transaction.
    const alice = newUserId();
    const bob = newUserId();
    let alicePin = pinOf("246810");
    const bobPin = pinOf("135790");
    const before = await blockOf();
    const reg = (await service.registerPin({ user_uuid: alice, ...alicePin })).data[0]!;
    const bobReg = (await service.registerPin({ user_uuid: bob, ...bobPin })).data[0]!;
    expect(await blockOf()).toBe(before);
    expect(reg.key_share_user).toMatch(/^[0-9a-f]{64}$/);
    const slot = (await service.contentAddressFor(alice))!;
    expect(slot).not.toBe(reg.address);
    expect(await service.walletAddressFor(alice)).toBe(reg.address);
    // The client reads its own backup words with its pin_hash.
    const words = await readMnemonicBackup(reg.mnemonic, alicePin.pin_hash, reg.key_share_user);
    expect(words.split(" ")).toHaveLength(12);
    await rejects(service.registerPin({ user_uuid: alice, ...alicePin }), "wallet_exists");

    // 2. Provider registration: AES key and IV shown once; a second cuid reuses them.
    const clientId = `sg_${randomBytes(8).toString("hex")}`;
    const providerWallet = Wallet.createRandom().address;
    const cuid = `game-${randomBytes(4).toString("hex")}`;
    const provider = await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 50, owner_addr: providerWallet });
    expect(provider.aes_key).toMatch(/^[0-9a-f]{64}$/);
    expect(provider.aes_iv).toMatch(/^[0-9a-f]{32}$/);
    const second = await service.initPermissionProvider({ client_id: clientId, cuid: `${cuid}-b`, release_per: 10, owner_addr: providerWallet });
    expect(second.aes_key).toBeUndefined();
    await rejects(service.initPermissionProvider({ client_id: "other", cuid, release_per: 1, owner_addr: providerWallet }), "cuid_taken");
    const key = provider.aes_key!;
    const iv = provider.aes_iv!;
    expect((await service.testEncryption({ client_id: clientId, test_string: "hello" })).encrypted_string).toBe(encryptHex("hello", key, iv));

    // 3. The slot wallet is deployed by its first sponsored operation: consent to purchases for the cuid.
    await service.fundWallet({ user_uuid: alice, xotn: parseEther("100").toString() });
    expect(await ctx.provider.getCode(slot)).toBe("0x");
    const approve = await service.verifyPin({
      user_uuid: alice,
      ...alicePin,
      key_share_user: reg.key_share_user,
      operation: { kind: "approve_purchases", cuid, amount: "5000" },
    });
    expect(approve.deployed_wallet).toBe(true);
    expect(await ctx.provider.getCode(slot)).not.toBe("0x");
    expect(await ctx.provider.getBalance(slot)).toBe(0n);

    expect(await ctx.contracts.exchange.purchase_allowance(slot, cuid)).toBe(5000n);
    // The consent is for this cuid only, even another cuid of the same provider gets nothing.
    await rejects(service.buyContentToken({ client_id: clientId, user_dbkey: String(alice), amount: "1", cuid: `${cuid}-b` }), "insufficient_allowance");

    // 4. Purchase: 15% to the treasury, 85% to the provider, tokens 1:1 to the slot.
    const treasury = service.addresses.operator;
    const treasuryBefore: bigint = await xotn.balanceOf(treasury);
    const bought = await service.buyContentToken({ client_id: clientId, user_dbkey: String(alice), amount: "1000", cuid });
    expect(bought).toMatchObject({ token_amount: "1000", xotn_paid: "1000", platform_fee: "150", provider_received: "850" });
    // Spec 4.7's field order, also when the answer is read back from the writes table.
    expect(Object.keys(bought)).toEqual(["success", "tx_hash", "token_amount", "xotn_paid", "platform_fee", "provider_received"]);
    expect(await xotn.balanceOf(providerWallet)).toBe(850n);
    expect((await xotn.balanceOf(treasury)) - treasuryBefore).toBe(150n);
    expect(await xotn.balanceOf(slot)).toBe(parseEther("100") - 1000n);
    const ether = await service.buyContentToken({ client_id: clientId, user_dbkey: String(alice), amount: "0.000000000000001", cuid });
    expect(ether.xotn_paid).toBe("1000");
    // The slot wallet can also buy by itself with a PIN-signed operation (approve + buy in one batch).
    const providerMid: bigint = await xotn.balanceOf(providerWallet);
    await service.verifyPin({
      user_uuid: alice,
      ...alicePin,
      key_share_user: reg.key_share_user,
      operation: { kind: "buy_content_token", cuid, amount: "100" },
    });
    expect((await xotn.balanceOf(providerWallet)) - providerMid).toBe(85n);
    await service.increaseUsed(clientId, {
      encrypted_message: encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(alice), amount: "100", cuid }), key, iv),
    });

    // 5. Encrypted spend: balance down, used_balances up by the amount; equals the chain.
    const spend = (payload: object) => ({ encrypted_message: encryptHex(JSON.stringify(payload), key, iv) });
    const spent = await service.increaseUsed(clientId, spend({ client_id: clientId, user_dbkey: String(alice), amount: "300", cuid }));
    expect(spent).toMatchObject({ balance: "1700", used_balances: "400", amount: "300", slot });
    const balance = await service.balanceOf(slot);
    expect(balance).toMatchObject({ balance: "1700", used_balances: "400", cuid });
    const exchange = ctx.contracts.exchange;
    const [chainBalance, chainUsed] = await exchange.balance_adex(slot, cuid);
    expect([chainBalance.toString(), chainUsed.toString()]).toEqual([balance.balance, balance.used_balances]);
    await rejects(
      service.increaseUsed(clientId, spend({ client_id: "someone-else", user_dbkey: String(alice), amount: "1", cuid })),
      "encrypted_message_mismatch",
    );
    await rejects(service.increaseUsed(clientId, spend({ client_id: clientId, user_dbkey: String(alice), amount: "999999", cuid })), "insufficient_balance");
    await rejects(service.increaseUsed(clientId, { encrypted_message: "00ff00ff" }), "invalid_encrypted_message");

    // 6. Release: refused until enabled, then paid once.
    await rejects(service.release({ client_id: clientId, cuid, slot }), "release_disabled");
    await service.enableRelease(cuid);
    const providerBefore: bigint = await xotn.balanceOf(providerWallet);
    // The settlement rule lives in the exchange contract; the service reports what it paid.
    const releasable: bigint = await exchange.releasable(cuid, slot);
    expect(releasable).toBeGreaterThan(0n);
    const released = await service.release({ client_id: clientId, cuid, slot });
    expect(released.released_amount).toBe(releasable.toString());
    expect((await xotn.balanceOf(providerWallet)) - providerBefore).toBe(releasable);
    expect((await service.release({ client_id: clientId, cuid, slot })).released_amount).toBe("0");

    // 7. ERC-20 transfer from the slot wallet (spec 4.5).
    const receiver = Wallet.createRandom().address;
    const transfer = await service.transferToken(alice, {
      from_address: slot,
      to_address: receiver,
      amount: "42",
      contract_address: service.addresses.xotn,
      pin_hash: alicePin.pin_hash,
      pin_salt: alicePin.pin_salt,
      key_share_user: reg.key_share_user,
    });
    expect(transfer.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await xotn.balanceOf(receiver)).toBe(42n);

    // 8. Slot ownership: platform records alice, alice's wallet gives it to bob, bob gives it back.
    await service.registerSlot({ cuid, meta_idx: 7, user_uuid: alice });
    expect(await service.slotOwner(cuid, 7)).toBe(reg.address);
    const exchanged = await service.exchangeSlotOwner({
      state: "s1",
      cu_id: cuid,
      from_uuid: String(alice),
      to_uuid: String(bob),
      meta_idx: 7,
      ...alicePin,
      key_share_user: reg.key_share_user,
    });
    expect(exchanged.new_owner).toBe(bobReg.address);
    expect(await service.slotOwner(cuid, 7)).toBe(bobReg.address);
    await rejects(
      service.exchangeSlotOwner({
        state: "s2",
        cu_id: cuid,
        from_uuid: String(alice),
        to_uuid: String(bob),
        meta_idx: 7,
        ...alicePin,
        key_share_user: reg.key_share_user,
      }),
      "not_owner",
    );
    await service.exchangeSlotOwner({
      state: "s3",
      cu_id: cuid,
      from_uuid: String(bob),
      to_uuid: String(alice),
      meta_idx: 7,
      ...bobPin,
      key_share_user: bobReg.key_share_user,
    });
    expect(await service.slotOwner(cuid, 7)).toBe(reg.address);

    // 9. PIN reset with the mnemonic: same owner and address, no chain transaction, old share refused.
    const ownerBefore = getAddress(await connectAccount(slot, ctx.provider).owner());
    const newPin = pinOf("975310");
    const blockBeforeReset = await blockOf();
    const reset = await service.resetPin({ user_uuid: alice, mnemonic: words, new_pin_hash: newPin.pin_hash, new_pin_salt: newPin.pin_salt });
    expect(await blockOf()).toBe(blockBeforeReset);
    expect(reset.data[0]!.address).toBe(reg.address);
    expect(await readMnemonicBackup(reset.data[0]!.mnemonic, newPin.pin_hash, reset.data[0]!.key_share_user)).toBe(words);
    await rejects(service.verifyPin({ user_uuid: alice, ...alicePin, key_share_user: reg.key_share_user }), "pin_invalid");
    alicePin = newPin;
    const shareAfterReset = reset.data[0]!.key_share_user;
    await service.verifyPin({ user_uuid: alice, ...alicePin, key_share_user: shareAfterReset });
    expect(getAddress(await connectAccount(slot, ctx.provider).owner())).toBe(ownerBefore);
    await rejects(
      service.resetPin({
        user_uuid: alice,
        mnemonic: "test test test test test test test test test test test junk",
        new_pin_hash: newPin.pin_hash,
        new_pin_salt: newPin.pin_salt,
      }),
      "mnemonic_mismatch",
    );

    // 10. Recovery: new owner EOA, same wallet address, balances and slot ownership kept, old share refused.
    const recoveryPin = pinOf("112233");
    const stranger = await testCaller();
    await rejects(service.recover({ user_uuid: alice, ...recoveryPin, assertion: await stranger.assert(alice, "recover") }), "invalid_caller_assertion");
    const assertion = await (await sharedCaller()).assert(alice, "recover");
    const recovered = (await service.recover({ user_uuid: alice, ...recoveryPin, assertion })).data[0]!;
    await rejects(service.recover({ user_uuid: alice, ...recoveryPin, assertion }), "caller_assertion_replayed");
    expect(recovered.address).toBe(reg.address);
    const newOwner = getAddress(await connectAccount(slot, ctx.provider).owner());
    expect(newOwner).not.toBe(ownerBefore);
    expect(getAddress(await connectAccount(reg.address, ctx.provider).owner())).toBe(newOwner);
    expect(await service.contentAddressFor(alice)).toBe(slot);
    expect(await service.balanceOf(slot, cuid)).toMatchObject({ balance: "1700", used_balances: "400" });
    expect(await service.slotOwner(cuid, 7)).toBe(reg.address);
    await rejects(service.verifyPin({ user_uuid: alice, ...alicePin, key_share_user: shareAfterReset }), "pin_invalid");
    const newWords = await readMnemonicBackup(recovered.mnemonic, recoveryPin.pin_hash, recovered.key_share_user);
    expect(newWords).not.toBe(words);
    // The new key signs: a transfer from the slot still works and the allowance survived.
    await service.transferToken(alice, {
      from_address: slot,
      to_address: receiver,
      amount: "8",
      contract_address: service.addresses.xotn,
      pin_hash: recoveryPin.pin_hash,
      key_share_user: recovered.key_share_user,
    }); // the spec's transfer body has no pin_salt
    expect(await xotn.balanceOf(receiver)).toBe(50n);
    const afterRecovery = await service.buyContentToken({ client_id: clientId, user_dbkey: String(alice), amount: "10", cuid });
    expect(afterRecovery.token_amount).toBe("10");
  });
});

describe("development funding", () => {
  it("devFundSlot gives a user without a PIN a deployed, funded slot that can buy that much of the caller's cuid, and no more", async () => {
    const { service } = h;
    const user = newUserId();
    const clientId = `sg_${randomBytes(8).toString("hex")}`;
    const cuid = `dev-${randomBytes(4).toString("hex")}`;
    const otherClient = `sg_${randomBytes(8).toString("hex")}`;
    const otherCuid = `dev-${randomBytes(4).toString("hex")}`;
    await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
    await service.initPermissionProvider({ client_id: otherClient, cuid: otherCuid, release_per: 0, owner_addr: Wallet.createRandom().address });
    await rejects(service.devFundSlot({ user_uuid: user, xotn: "500", cuid, client_id: otherClient }), "provider_not_registered");
    const { address } = await service.devFundSlot({ user_uuid: user, xotn: "500", cuid, client_id: clientId });
    expect(await service.contentAddressFor(user)).toBe(address);
    expect(await h.ctx.contracts.exchange.purchase_allowance(address, cuid)).toBe(500n);
    expect(await h.ctx.contracts.exchange.purchase_allowance(address, otherCuid)).toBe(0n);
    // The other provider cannot spend the slot's XOTN on its own cuid.
    await rejects(service.buyContentToken({ client_id: otherClient, user_dbkey: String(user), amount: "1", cuid: otherCuid }), "insufficient_allowance");
    const bought = await service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "500", cuid });
    expect(bought.provider_received).toBe("425");
    await rejects(service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid }), "insufficient_allowance");
  });

  it("maps a reverted wallet call to its specific code", async () => {
    const { service } = h;
    const user = newUserId();
    const pin = pinOf("101010");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    const clientId = `sg_${randomBytes(8).toString("hex")}`;
    const cuid = `rv-${randomBytes(4).toString("hex")}`;
    await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
    // The slot holds no XOTN: the call reverts in simulation, so the platform never signs it.
    await rejects(
      service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "buy_content_token", cuid, amount: "5" } }),
      "insufficient_balance",
    );
  });
});
