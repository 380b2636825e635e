import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Wallet } from "ethers";
import { type Database, openDatabase } from "@slotgate/storage";
import { type Harness, newUserId, pinOf, startService } from "../helpers/setup.js";
import { sharedCaller } from "../helpers/caller.js";

// Included by vitest.config.ts only when SLOTGATE_TEST_DATABASE_URL is set.
const url = process.env.SLOTGATE_TEST_DATABASE_URL as string;
const schema = `cs_svc_${randomBytes(6).toString("hex")}`;
let db: Database;
let h: Harness;

beforeAll(async () => {
  db = await openDatabase({ databaseUrl: url, schema, poolSize: 10 });
  h = await startService({ db });
});
afterAll(async () => {
  await h.service.close();
  await db.query(`DROP SCHEMA ${schema} CASCADE`);
  await db.close();
});

describe("chain service on PostgreSQL", () => {
  it("registers, signs concurrent operations and recovers", async () => {
    const { service } = h;
    const user = newUserId();
    const pin = pinOf("202020");
    const reg = (await service.registerPin({ user_uuid: user, ...pin })).data[0]!;
    await service.fundWallet({ user_uuid: user, xotn: "100", wallet: "user" });
    const to = Wallet.createRandom().address;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        service.transferToken(user, {
          ...pin,
          key_share_user: reg.key_share_user,
          from_address: reg.address,
          to_address: to,
          amount: "2",
          contract_address: service.addresses.xotn,
        }),
      ),
    );
    expect(await h.ctx.contracts.xotn.balanceOf(to)).toBe(16n);
    const recovered = (await service.recover({ user_uuid: user, ...pinOf("303030"), assertion: await (await sharedCaller()).assert(user, "recover") }))
      .data[0]!;
    expect(recovered.address).toBe(reg.address);
  });
});
