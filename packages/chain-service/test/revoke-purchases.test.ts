import { randomBytes } from "node:crypto";
import { Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainServiceError } from "../src/index.js";
import { type Harness, newUserId, pinOf, startService } from "./helpers/setup.js";

/** `revoke_purchases` (the wallet window's approvals list, issue 31) and the consent read `purchaseConsent`. */
let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.service.close();
});

describe("revoke_purchases", () => {
  it("ends the consent for one cuid, read back from the chain; the provider's purchase is then refused", async () => {
    const { service } = h;
    const user = newUserId();
    const pin = pinOf("918273");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    const clientId = `sg_${randomBytes(8).toString("hex")}`;
    const cuid = `rv-${randomBytes(4).toString("hex")}`;
    await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 10, owner_addr: Wallet.createRandom().address });
    expect(await service.purchaseConsent(user, cuid), "no slot of the cuid yet").toBe("0");
    const shares = { user_uuid: user, ...pin, key_share_user: reg.key_share_user };
    const noSlot = await service.verifyPin({ ...shares, operation: { kind: "revoke_purchases", cuid } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((noSlot as ChainServiceError).code).toBe("slot_not_found");
    await service.fundWallet({ user_uuid: user, xotn: "10000" });
    await service.verifyPin({ ...shares, operation: { kind: "approve_purchases", cuid, amount: "5000" } });
    expect(await service.purchaseConsent(user, cuid)).toBe("5000");
    const revoked = await service.verifyPin({ ...shares, operation: { kind: "revoke_purchases", cuid } });
    expect(revoked).toMatchObject({ success: true });
    expect((revoked as { tx_hash: string }).tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await service.purchaseConsent(user, cuid)).toBe("0");
    const slot = (await service.contentAddressFor(user))!;
    expect(await h.ctx.contracts.exchange.purchase_allowance(slot, cuid)).toBe(0n);
    const buy = await service.buyContentToken({ client_id: clientId, user_dbkey: String(user), amount: "1", cuid }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(buy).toBeInstanceOf(ChainServiceError);
    expect((buy as ChainServiceError).code).toBe("insufficient_allowance");
  });
});
