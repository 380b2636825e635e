import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther } from "ethers";
import { connectAccount } from "@slotgate/contracts";
import type { Database, Queryable } from "@slotgate/storage";
import { ChainServiceError, readMnemonicBackup } from "../src/index.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";
import { sharedCaller } from "./helpers/caller.js";

/** Fails the transaction that rotates the owner (after running its statements, so it really rolls back). */
let failRotation = false;
function faulty(db: Database): Database {
  return {
    ...db,
    query: (text, params) => db.query(text, params),
    transaction: (fn) =>
      db.transaction(async (tx) => {
        let rotates = false;
        const spy: Queryable = {
          query: (text, params) => {
            if (text.includes("SET owner_eoa")) rotates = true;
            return tx.query(text, params);
          },
        };
        const result = await fn(spy);
        if (rotates && failRotation) {
          failRotation = false;
          throw new Error("injected database failure");
        }
        return result;
      }),
  };
}

let h: Harness;
beforeAll(async () => {
  h = await startService({}, faulty);
});
afterAll(async () => {
  await h.service.close();
});

describe("recovery is reconciled after a failed database step", () => {
  it("keeps the chain owner's key and finishes at the next recovery", async () => {
    const { service } = h;
    const ctx = h.ctx;
    const user = newUserId();
    const pin = pinOf("777777");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    const slot = (await service.contentAddressFor(user))!;
    await service.fundWallet({ user_uuid: user, xotn: parseEther("1").toString() });
    const cuid = `rr-${user}`;
    await service.initPermissionProvider({ client_id: `sg_rr_${user}`, cuid, release_per: 0, owner_addr: `0x${"ab".repeat(20)}` });
    // Deploy the slot wallet; the user wallet stays undeployed (recovery must deploy it).
    await service.verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "approve_purchases", cuid, amount: "5" } });
    const originalOwner = getAddress(await connectAccount(slot, ctx.provider).owner());

    failRotation = true;
    const firstPin = pinOf("888888");
    const error = await service
      .recover({ user_uuid: user, ...firstPin, assertion: await (await sharedCaller()).assert(user, "recover") })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("injected database failure");
    // The chain step landed: both wallets have a new owner the database does not know yet.
    const chainOwner = getAddress(await connectAccount(slot, ctx.provider).owner());
    expect(chainOwner).not.toBe(originalOwner);
    expect(getAddress(await connectAccount(reg.address, ctx.provider).owner())).toBe(chainOwner);
    const stored = await h.db.query<{ owner_eoa: string }>("SELECT owner_eoa FROM cs_wallets WHERE user_uuid = $1", [user]);
    expect(getAddress(stored[0]!.owner_eoa)).toBe(originalOwner);
    // The old key still unlocks in the database, but the chain refuses its signature.
    const stale = await service
      .verifyPin({ user_uuid: user, ...pin, key_share_user: reg.key_share_user, operation: { kind: "approve_purchases", cuid, amount: "6" } })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ChainServiceError);
    expect((stale as ChainServiceError).code).toBe("chain_reverted");

    // The next recovery reconciles: it signs with the pending owner's key and rotates again.
    const secondPin = pinOf("999999");
    const recovered = (await service.recover({ user_uuid: user, ...secondPin, assertion: await (await sharedCaller()).assert(user, "recover") })).data[0]!;
    expect(recovered.address).toBe(reg.address);
    const finalOwner = getAddress(await connectAccount(slot, ctx.provider).owner());
    expect(finalOwner).not.toBe(chainOwner);
    expect(finalOwner).not.toBe(originalOwner);
    const after = await h.db.query<{ owner_eoa: string }>("SELECT owner_eoa FROM cs_wallets WHERE user_uuid = $1", [user]);
    expect(getAddress(after[0]!.owner_eoa)).toBe(finalOwner);
    const pending = await h.db.query("SELECT 1 FROM cs_pending_rotations WHERE user_uuid = $1", [user]);
    expect(pending).toHaveLength(0);
    const words = await readMnemonicBackup(recovered.mnemonic, secondPin.pin_hash, recovered.key_share_user);
    expect(words.split(" ")).toHaveLength(12);
    // The new share signs; the wallet's consent is replaced.
    const ok = await service.verifyPin({
      user_uuid: user,
      ...secondPin,
      key_share_user: recovered.key_share_user,
      operation: { kind: "approve_purchases", cuid, amount: "7" },
    });
    expect(ok.tx_hash).toMatch(/^0x/);
    expect(await ctx.contracts.exchange.purchase_allowance(slot, cuid)).toBe(7n);
  });
});
