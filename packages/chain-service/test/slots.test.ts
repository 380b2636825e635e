import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "ethers";
import { encryptHex } from "@slotgate/protocol/crypto";
import { C_SALT, W_SALT, changeSlotOwnerCall, computeWalletAddress, connectAccount, slotSaleCalls, slotSalt } from "@slotgate/contracts";
import { sharedCaller } from "./helpers/caller.js";
import { type Harness, codeOf, newUserId, pinOf, startService, testIdentity } from "./helpers/setup.js";
import * as slotsHelpers from "./helpers/slots.js";
import { findKeys, findWallet } from "../src/storage/wallets.js";
import { ownerKeyFromMnemonic } from "../src/keys/mnemonic.js";
import { openStoredMnemonic } from "../src/keys/stored-mnemonic.js";
import { chainOwner } from "../src/wallets/owner.js";

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

const newCuid = () => slotsHelpers.newCuid(h.service);
const userWithPin = (pin?: string) => slotsHelpers.userWithPin(h.service, pin);
const registration = (cuid: string, metaIdx: number) => slotsHelpers.registration(h.ctx, cuid, metaIdx);

describe("slots: (cuid, meta_idx), one slot wallet each, one active per user and cuid", () => {
  it("a user's first slot is the C_SALT wallet of spec 2.6; later ones are CREATE2(owner EOA, slotSalt(cuid, meta_idx)), numbered per cuid", async () => {
    const { cuid } = await newCuid();
    const user = newUserId();
    expect(await h.service.activeSlot(user, cuid)).toBeNull();
    const first = (await h.service.activeSlot(user, cuid, { create: true }))!;
    const wallet = (await findWallet(h.db, user))!;
    expect(first).toMatchObject({ cuid, meta_idx: 0, state: "active", owner_user_id: String(user), tr_cnt: 0, balance: "0", used_balances: "0" });
    expect(first.slot).toBe(computeWalletAddress(h.service.addresses.factory, wallet.initialOwner, C_SALT));
    expect(first.slot).toBe(await h.service.contentAddressFor(user));

    const second = await h.service.openSlot(user, cuid);
    expect(second).toMatchObject({ meta_idx: 1, state: "sleeping" });
    expect(second.slot).toBe(computeWalletAddress(h.service.addresses.factory, wallet.ownerEoa, slotSalt(cuid, 1n)));

    // Another user's slots of the same cuid take the next numbers; their first slot is their own C_SALT wallet.
    const other = newUserId();
    const theirs = await h.service.openSlot(other, cuid);
    expect(theirs.meta_idx).toBe(2);
    expect(theirs.slot).toBe(await h.service.contentAddressFor(other));

    // Registration lands on chain with the slot wallet and the owner's user wallet.
    await registration(cuid, 1);
    const registered = await h.service.slotInfo(cuid, 1);
    expect(registered).toMatchObject({ registered: true, owner: wallet.address, slot: second.slot, tr_cnt: 0 });
    expect(await h.service.slotOwner(cuid, 1)).toBe(wallet.address);
  });

  it("activates one slot at a time; refuses another's slot (not_owner), an unknown slot (slot_not_found) and an unknown cuid (provider_not_registered)", async () => {
    const { cuid } = await newCuid();
    const user = newUserId();
    const a = await h.service.openSlot(user, cuid);
    const b = await h.service.openSlot(user, cuid);
    expect([a.state, b.state]).toEqual(["active", "sleeping"]);
    const active = await h.service.activateSlot(user, cuid, b.meta_idx);
    expect(active).toMatchObject({ meta_idx: b.meta_idx, state: "active" });
    expect((await h.service.listSlots(user, cuid)).map((s) => [s.meta_idx, s.state])).toEqual([
      [a.meta_idx, "sleeping"],
      [b.meta_idx, "active"],
    ]);
    expect((await h.service.activeSlot(user, cuid))!.meta_idx).toBe(b.meta_idx);

    const stranger = newUserId();
    expect(await codeOf(h.service.activateSlot(stranger, cuid, a.meta_idx))).toBe("not_owner");
    expect(await codeOf(h.service.activateSlot(user, cuid, 999))).toBe("slot_not_found");
    expect(await codeOf(h.service.slotInfo(cuid, 999))).toBe("slot_not_found");
    expect(await codeOf(h.service.openSlot(user, "no-such-cuid"))).toBe("provider_not_registered");
    expect(await h.service.listSlots(stranger, cuid)).toEqual([]);
    expect(await h.service.cuidClient("no-such-cuid")).toBeNull();
  });

  it("purchases and spends land in the ACTIVE slot of the cuid", async () => {
    const { cuid, clientId, key, iv } = await newCuid();
    const user = newUserId();
    const { address } = await h.service.devFundSlot({ user_uuid: user, xotn: "500", cuid, client_id: clientId });
    const first = (await h.service.activeSlot(user, cuid))!;
    expect(first.slot).toBe(address);
    const second = await h.service.openSlot(user, cuid);
    await h.service.activateSlot(user, cuid, second.meta_idx);
    const funded = await h.service.devFundSlot({ user_uuid: user, xotn: "300", cuid, client_id: clientId });
    expect(funded.address).toBe(second.slot);
    await h.service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "300", cuid });
    await h.service.increaseUsed(clientId, {
      encrypted_message: encryptHex(JSON.stringify({ client_id: clientId, user_dbkey: String(user), amount: "100", cuid }), key, iv),
    });
    expect(await h.service.slotInfo(cuid, second.meta_idx)).toMatchObject({ balance: "200", used_balances: "100" });
    expect(await h.service.slotInfo(cuid, first.meta_idx)).toMatchObject({ balance: "0", used_balances: "0" });
  });
});

describe("a slot sale (exchange_token_owner): one UserOperation from the slot wallet", () => {
  it("keeps the slot's balance, changes its owner and tr_cnt; the seller's PIN can no longer move it, the buyer's can", async () => {
    const { cuid, clientId } = await newCuid();
    const seller = await userWithPin();
    const buyer = await userWithPin("135790");
    const third = await userWithPin("112233");
    // The buyer already plays a slot of this cuid: the bought one arrives sleeping.
    const buyersOwn = await h.service.openSlot(buyer.uuid, cuid);

    await h.service.devFundSlot({ user_uuid: seller.uuid, xotn: "1000", cuid, client_id: clientId });
    await h.service.buyContentToken({ client_id: clientId, user_dbkey: String(seller.uuid), amount: "1000", cuid });
    const sold = (await h.service.activeSlot(seller.uuid, cuid))!;
    await registration(cuid, sold.meta_idx);
    const before = await h.service.slotInfo(cuid, sold.meta_idx);
    expect(before).toMatchObject({ owner: seller.wallet, tr_cnt: 0, balance: "1000", registered: true });

    const sale = await h.service.exchangeSlotOwner({
      state: `sale-${randomBytes(4).toString("hex")}`,
      cu_id: cuid,
      from_uuid: String(seller.uuid),
      to_uuid: String(buyer.uuid),
      meta_idx: sold.meta_idx,
      ...seller.pin,
      key_share_user: seller.share,
    });
    expect(sale).toMatchObject({ success: true, meta_idx: sold.meta_idx, new_owner: buyer.wallet, tr_cnt: 1 });

    const after = await h.service.slotInfo(cuid, sold.meta_idx);
    expect(after).toMatchObject({
      slot: sold.slot,
      owner: buyer.wallet,
      owner_user_id: String(buyer.uuid),
      tr_cnt: 1,
      balance: "1000",
      used_balances: "0",
      state: "sleeping",
    });
    const buyerWallet = (await findWallet(h.db, buyer.uuid))!;
    expect(getAddress(await connectAccount(sold.slot, h.ctx.provider).owner())).toBe(buyerWallet.ownerEoa);
    expect(await h.service.activeSlot(seller.uuid, cuid)).toBeNull();
    expect((await h.service.activeSlot(buyer.uuid, cuid))!.meta_idx).toBe(buyersOwn.meta_idx);

    // The seller's PIN: refused before signing by the records...
    const again = {
      cu_id: cuid,
      from_uuid: String(seller.uuid),
      to_uuid: String(third.uuid),
      meta_idx: sold.meta_idx,
      ...seller.pin,
      key_share_user: seller.share,
    };
    expect(await codeOf(h.service.exchangeSlotOwner({ state: `again-${randomBytes(4).toString("hex")}`, ...again }))).toBe("not_owner");
    // ...and by the chain: an operation from the slot wallet signed with the seller's key does not validate (AA24).
    const sellerKeys = (await findKeys(h.db, seller.uuid))!;
    const sellerKey = ownerKeyFromMnemonic(await openStoredMnemonic(h.ctx, sellerKeys.mnemonic));
    const forged = h.ctx.sponsored.send(
      {
        sender: sold.slot,
        deployment: { initialOwner: (await findWallet(h.db, seller.uuid))!.initialOwner, salt: C_SALT },
        calls: slotSaleCalls({
          exchange: h.service.addresses.exchange,
          xotn: h.service.addresses.xotn,
          cuid,
          slot: BigInt(sold.meta_idx),
          slotWallet: sold.slot,
          buyerWallet: seller.wallet,
          buyerOwner: sellerKey.address,
        }),
        identity: testIdentity(`user:${seller.uuid}`),
        budget: { userUuid: seller.uuid },
        answer: { shape: "operation" },
      },
      Buffer.from(sellerKey.privateKey),
    );
    await expect(forged).rejects.toThrow(/AA24/);
    expect((await h.service.slotInfo(cuid, sold.meta_idx)).owner).toBe(buyer.wallet);

    // The buyer's PIN moves it on: tr_cnt 2, the third user has no slot of the cuid, so it arrives active.
    const onward = await h.service.exchangeSlotOwner({
      state: `onward-${randomBytes(4).toString("hex")}`,
      cu_id: cuid,
      from_uuid: String(buyer.uuid),
      to_uuid: String(third.uuid),
      meta_idx: sold.meta_idx,
      ...buyer.pin,
      key_share_user: buyer.share,
    });
    expect(onward.tr_cnt).toBe(2);
    expect(await h.service.slotInfo(cuid, sold.meta_idx)).toMatchObject({ owner: third.wallet, tr_cnt: 2, balance: "1000", state: "active" });
    expect((await h.service.activeSlot(third.uuid, cuid))!.slot).toBe(sold.slot);
    expect((await h.service.listSlots(buyer.uuid, cuid)).map((s) => s.meta_idx)).toEqual([buyersOwn.meta_idx]);
  });
});

describe("recovery (spec 4.10 rule 8) re-keys every slot wallet the user owns", () => {
  it("rotates the user wallet, the first slot, a later slot and a bought slot; a slot sold away is left to its buyer", async () => {
    const { cuid } = await newCuid();
    const alice = await userWithPin();
    const bob = await userWithPin("135790");
    const first = await h.service.openSlot(alice.uuid, cuid);
    const later = await h.service.openSlot(alice.uuid, cuid);
    const bobsFirst = await h.service.openSlot(bob.uuid, cuid);
    const bobsSold = await h.service.openSlot(bob.uuid, cuid);
    await registration(cuid, bobsSold.meta_idx);
    await h.service.exchangeSlotOwner({
      state: `r-${randomBytes(4).toString("hex")}`,
      cu_id: cuid,
      from_uuid: String(bob.uuid),
      to_uuid: String(alice.uuid),
      meta_idx: bobsSold.meta_idx,
      ...bob.pin,
      key_share_user: bob.share,
    });
    // Alice also sells her first slot to bob: it is no longer hers to re-key.
    await registration(cuid, first.meta_idx);
    await h.service.exchangeSlotOwner({
      state: `r-${randomBytes(4).toString("hex")}`,
      cu_id: cuid,
      from_uuid: String(alice.uuid),
      to_uuid: String(bob.uuid),
      meta_idx: first.meta_idx,
      ...alice.pin,
      key_share_user: alice.share,
    });
    const bobOwner = (await findWallet(h.db, bob.uuid))!.ownerEoa;
    const aliceBefore = (await findWallet(h.db, alice.uuid))!.ownerEoa;
    // Bob plays his own first slot: the one alice sold him arrives sleeping.
    expect(await h.service.slotInfo(cuid, first.meta_idx)).toMatchObject({ owner_user_id: String(bob.uuid), state: "sleeping" });
    expect((await h.service.activeSlot(bob.uuid, cuid))!.meta_idx).toBe(bobsFirst.meta_idx);

    const recoveryPin = pinOf("998877");
    const assertion = await (await sharedCaller()).assert(alice.uuid, "recover");
    const recovered = (await h.service.recover({ user_uuid: alice.uuid, ...recoveryPin, assertion })).data[0]!;
    const aliceAfter = (await findWallet(h.db, alice.uuid))!;
    expect(aliceAfter.ownerEoa).not.toBe(aliceBefore);
    // Each wallet is deployed now (the rotation deploys a wallet that had not been), and answers to the new key.
    for (const wallet of [recovered.address, later.slot, bobsSold.slot]) {
      expect(await h.ctx.provider.getCode(wallet)).not.toBe("0x");
      expect(await chainOwner(h.ctx, wallet, aliceBefore)).toBe(aliceAfter.ownerEoa);
    }
    // The slot alice sold still answers to bob's key.
    expect(await chainOwner(h.ctx, first.slot, aliceBefore)).toBe(bobOwner);

    // The new key signs for a slot wallet: alice sells the bought slot back to bob with her new PIN.
    const back = await h.service.exchangeSlotOwner({
      state: `r-${randomBytes(4).toString("hex")}`,
      cu_id: cuid,
      from_uuid: String(alice.uuid),
      to_uuid: String(bob.uuid),
      meta_idx: bobsSold.meta_idx,
      ...recoveryPin,
      key_share_user: recovered.key_share_user,
    });
    expect(back.tr_cnt).toBe(2);
  });
});

describe("contentSlot: the wallet a blockchain client's answers name, never one the user no longer owns (issue 28)", () => {
  const sell = (cuid: string, metaIdx: number, from: Awaited<ReturnType<typeof userWithPin>>, to: { uuid: number }) =>
    h.service.exchangeSlotOwner({
      state: `cs-${randomBytes(4).toString("hex")}`,
      cu_id: cuid,
      from_uuid: String(from.uuid),
      to_uuid: String(to.uuid),
      meta_idx: metaIdx,
      ...from.pin,
      key_share_user: from.share,
    });

  it("without a cuid: the C_SALT wallet while it is the user's, the W_SALT wallet once it was sold, the C_SALT wallet again bought back (tr_cnt 2, read from the chain)", async () => {
    const { cuid } = await newCuid();
    const seller = await userWithPin();
    const buyer = await userWithPin("135790");
    const cSalt = (await h.service.contentAddressFor(seller.uuid))!;
    expect(await h.service.contentSlot(seller.uuid)).toEqual({ content_address: cSalt, tr_cnt: 0 });
    const first = await h.service.openSlot(seller.uuid, cuid);
    expect(first.slot, "the user's first slot is the C_SALT wallet").toBe(cSalt);
    await registration(cuid, first.meta_idx);
    expect(await h.service.contentSlot(seller.uuid)).toEqual({ content_address: cSalt, tr_cnt: 0 });

    await sell(cuid, first.meta_idx, seller, buyer);
    expect(await h.service.contentSlot(seller.uuid), "sold: the seller's own user wallet").toEqual({ content_address: seller.wallet, tr_cnt: 0 });
    expect(await h.service.contentSlot(buyer.uuid), "the buyer's answer is the buyer's own C_SALT wallet").toEqual({
      content_address: await h.service.contentAddressFor(buyer.uuid),
      tr_cnt: 0,
    });
    await sell(cuid, first.meta_idx, buyer, seller);
    expect(await h.service.contentSlot(seller.uuid)).toEqual({ content_address: cSalt, tr_cnt: 2 });
  });

  it("with a cuid: the active slot with the chain's tr_cnt; a slot the chain already shows with another owner is not named (slot_transfer_in_progress)", async () => {
    const { cuid } = await newCuid();
    const seller = await userWithPin();
    const buyer = await userWithPin("135790");
    const named = await h.service.contentSlot(seller.uuid, cuid);
    const active = (await h.service.activeSlot(seller.uuid, cuid))!;
    expect(named).toEqual({ content_address: active.slot, tr_cnt: 0, cu_id: cuid, meta_idx: active.meta_idx });
    await registration(cuid, active.meta_idx);

    // The registry moves on chain while the records still name the seller (as between a sale's landing and its
    // settlement): here the seller's user wallet, the registered owner, gives the slot away itself (spec 4.9 form).
    const wallet = (await findWallet(h.db, seller.uuid))!;
    const key = ownerKeyFromMnemonic(await openStoredMnemonic(h.ctx, (await findKeys(h.db, seller.uuid))!.mnemonic));
    await h.ctx.sponsored.send(
      {
        sender: wallet.address,
        deployment: { initialOwner: wallet.initialOwner, salt: W_SALT },
        calls: changeSlotOwnerCall(h.service.addresses.exchange, cuid, BigInt(active.meta_idx), buyer.wallet),
        identity: testIdentity(`user:${seller.uuid}`),
        budget: { userUuid: seller.uuid },
        answer: { shape: "operation" },
      },
      key.privateKey,
    );
    expect((await h.service.slotInfo(cuid, active.meta_idx)).owner).toBe(buyer.wallet);
    expect(await codeOf(h.service.contentSlot(seller.uuid, cuid))).toBe("slot_transfer_in_progress");
  });
});
