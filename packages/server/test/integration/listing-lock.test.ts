import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLoggedOut, TRANSFER_HOLD_SECONDS } from "../../src/status/listing-lock.js";
import { moveTransferHold, setLoginStatuses, takeTransferHold } from "../../src/status/login-status-store.js";
import { type LockRig, type RigUser, startLockRig } from "../support/listing-lock-rig.js";

/**
 * The listing lock (docs/decisions/marketplace.md) on two server instances sharing one database (PGlite
 * here, one PostgreSQL schema in the postgres project), over real HTTP on 127.0.0.1. The chain service
 * is a double at the ChainService boundary (support/chain-double.ts): the lock is the server's, and the
 * double lets each test settle the sale's chain write at the moment it chooses.
 */
let rig: LockRig;
let seller: RigUser;
let buyer: RigUser;
let others: RigUser[];

beforeAll(async () => {
  rig = await startLockRig();
  [seller, buyer, ...others] = (await rig.users(8)) as [RigUser, RigUser, ...RigUser[]];
});
afterAll(async () => rig?.close());

const outboxOf = async (user: RigUser) =>
  (
    await rig.servers[0].sql<{ status: string }>(
      "SELECT payload->>'status' AS status FROM outbox WHERE topic = 'marketplace.login_status' AND payload->>'user_id' = $1 ORDER BY id",
      [user.userId],
    )
  ).map((r) => r.status);

describe("exchange_token_owner under the listing lock", () => {
  it("refuses a seller logged in at the game that registered the cuid: 409 logout_required, no chain write", async () => {
    expect((await rig.login(0, seller)).status).toBe(200);
    const calls = rig.chain.calls.length;
    const res = await rig.sell(1, seller, buyer);
    expect(res.status).toBe(409);
    expect(res.json["error"]).toBe("logout_required");
    expect(rig.chain.calls.length).toBe(calls);
    expect((await rig.row(seller))?.transfer_hold_until).toBeNull();
    expect((await rig.logout(0, seller)).status).toBe(200);
  });

  it("accepts a seller with no status record (logged_out): the row is created logged_out with the hold, ended on the answer", async () => {
    const [fresh] = others as [RigUser];
    expect(await rig.row(fresh)).toBeNull();
    const sale = rig.sell(0, fresh, buyer);
    const call = await rig.nextCall();
    const held = await rig.row(fresh);
    expect(held?.status).toBe("logged_out");
    expect(held?.transfer_hold_ref).toMatch(/^hold:/);
    expect(held!.transfer_hold_until!.getTime()).toBeGreaterThan(Date.now() + (TRANSFER_HOLD_SECONDS - 60) * 1000);
    expect(await outboxOf(fresh)).toEqual([]); // the status did not change: no webhook
    call.settle({ kind: "answer" });
    const res = await sale;
    expect(res.status).toBe(200);
    expect(res.json["tx_hash"]).toMatch(/^0x/);
    expect(await rig.row(fresh)).toMatchObject({ status: "logged_out", transfer_hold_until: null, transfer_hold_ref: null });
  });

  it("while the sale is in flight, a login on the other instance is refused 409 slot_transfer_in_progress with Retry-After; logout is accepted; login works once it settled", async () => {
    const sale = rig.sell(0, seller, buyer);
    const call = await rig.nextCall();
    const refused = await rig.login(1, seller);
    expect(refused.status).toBe(409);
    expect(refused.json["error"]).toBe("slot_transfer_in_progress");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await rig.row(seller))?.status).toBe("logged_out");
    expect((await rig.logout(1, seller)).status).toBe(200);
    call.settle({ kind: "answer" });
    expect((await sale).status).toBe(200);
    expect((await rig.login(1, seller)).status).toBe(200);
    expect((await rig.logout(1, seller)).status).toBe(200);
  });

  it("a second sale by the same seller while one is in flight is refused 409 slot_transfer_in_progress", async () => {
    const first = rig.sell(0, seller, buyer);
    const call = await rig.nextCall();
    const second = await rig.sell(1, seller, buyer);
    expect(second.status).toBe(409);
    expect(second.json["error"]).toBe("slot_transfer_in_progress");
    call.settle({ kind: "answer" });
    expect((await first).status).toBe(200);
  });

  it("a 202 pending write keeps the hold under its write id; a login looks the write up and ends the hold once it settled", async () => {
    const sale = rig.sell(1, seller, buyer);
    const call = await rig.nextCall();
    call.settle({ kind: "pending" });
    const res = await sale;
    expect(res.status).toBe(202);
    expect((await rig.row(seller))?.transfer_hold_ref).toBe(`write:${call.writeId}`);
    const refused = await rig.login(0, seller);
    expect(refused.status).toBe(409);
    expect(refused.json["error"]).toBe("slot_transfer_in_progress");
    rig.chain.settleWrite(call.writeId!, "confirmed");
    expect((await rig.login(0, seller)).status).toBe(200);
    expect(await rig.row(seller)).toMatchObject({ status: "logged_in", transfer_hold_until: null, transfer_hold_ref: null });
    expect((await rig.logout(0, seller)).status).toBe(200);
  });

  it("a sale the chain service refused (a coded 4xx) ends the hold at once", async () => {
    const sale = rig.sell(0, seller, buyer);
    (await rig.nextCall()).settle({ kind: "refused", code: "not_owner" });
    const res = await sale;
    expect(res.status).toBe(403);
    expect(res.json["error"]).toBe("not_owner");
    expect((await rig.row(seller))?.transfer_hold_until).toBeNull();
    expect((await rig.login(1, seller)).status).toBe(200);
    expect((await rig.logout(1, seller)).status).toBe(200);
  });

  it("an error of unknown outcome keeps the hold until it expires; an expired hold no longer refuses the login", async () => {
    const sale = rig.sell(0, seller, buyer);
    (await rig.nextCall()).settle({ kind: "broken" });
    expect((await sale).status).toBe(500);
    expect((await rig.row(seller))?.transfer_hold_ref).toMatch(/^hold:/);
    expect((await rig.login(1, seller)).status).toBe(409);
    await rig.servers[0].sql("UPDATE login_status SET transfer_hold_until = now() - interval '1 second' WHERE user_id = $1 AND client_id = $2", [
      seller.userId,
      rig.clientId,
    ]);
    expect((await rig.login(1, seller)).status).toBe(200);
    expect((await rig.logout(1, seller)).status).toBe(200);
    // An expired hold does not block the next sale either.
    const next = rig.sell(0, seller, buyer);
    (await rig.nextCall()).settle({ kind: "answer" });
    expect((await next).status).toBe(200);
  });

  it("a cuid that no client registered is not locked", async () => {
    expect((await rig.login(0, buyer)).status).toBe(200);
    await expect(assertLoggedOut(rig.servers[0].slotgate.services, { userId: buyer.userId, cuid: "unknown-cuid" })).resolves.toBeUndefined();
    expect((await rig.logout(0, buyer)).status).toBe(200);
  });
});

describe("the status batcher and the hold", () => {
  it("logins batched in one statement with a held row: the held one is refused with no outbox row, the others are stored", async () => {
    const sale = rig.sell(0, seller, buyer);
    const call = await rig.nextCall();
    const before = await outboxOf(seller);
    const batch = others.slice(1, 5);
    const answers = await Promise.all([rig.login(1, seller), ...batch.map((u) => rig.login(1, u))]);
    expect(answers.map((a) => a.status)).toEqual([409, ...batch.map(() => 200)]);
    expect(await outboxOf(seller)).toEqual(before);
    for (const u of batch) expect((await rig.row(u))?.status).toBe("logged_in");
    call.settle({ kind: "answer" });
    expect((await sale).status).toBe(200);
    await Promise.all(batch.map((u) => rig.logout(1, u)));
  });

  it("one setLoginStatuses statement: a held login is skipped and reported with its hold, a held logout and other logins are stored", async () => {
    const [, u1, u2] = others as [RigUser, RigUser, RigUser];
    const db = rig.servers[0].db;
    expect((await takeTransferHold(db, { userId: u1.userId, clientId: rig.clientId, ref: "hold:batch-a", seconds: 60 })).taken).toBe(true);
    expect((await takeTransferHold(db, { userId: u2.userId, clientId: rig.clientId, ref: "hold:batch-b", seconds: 60 })).taken).toBe(true);
    const outbox = { marketplaceUrl: null, maxAttempts: 1 };
    const writes = await setLoginStatuses(
      db,
      [
        { userId: u1.userId, clientId: rig.clientId, status: "logged_in" },
        { userId: u2.userId, clientId: rig.clientId, status: "logged_out" },
        { userId: buyer.userId, clientId: rig.clientId, status: "logged_in" },
      ],
      outbox,
    );
    expect(writes.get(`${u1.userId}/${rig.clientId}`)).toMatchObject({ stored: false, hold: { ref: "hold:batch-a" } });
    expect(writes.get(`${u2.userId}/${rig.clientId}`)).toMatchObject({ stored: true });
    expect(writes.get(`${buyer.userId}/${rig.clientId}`)).toMatchObject({ stored: true });
    expect(await rig.row(u2)).toMatchObject({ status: "logged_out", transfer_hold_ref: "hold:batch-b" });
    expect(await moveTransferHold(db, { userId: u1.userId, clientId: rig.clientId, ref: "hold:other", to: null })).toBe(false);
    for (const [u, ref] of [
      [u1, "hold:batch-a"],
      [u2, "hold:batch-b"],
    ] as const)
      expect(await moveTransferHold(db, { userId: u.userId, clientId: rig.clientId, ref, to: null })).toBe(true);
    await setLoginStatuses(db, [{ userId: buyer.userId, clientId: rig.clientId, status: "logged_out" }], outbox);
  });
});

describe("assertLoggedOut (slot activation and sleep)", () => {
  it("refuses 409 logout_required while logged in at the cuid's client, and allows with no record or after logout", async () => {
    const services = rig.servers[1].slotgate.services;
    const fresh = others[5]!;
    expect(await rig.row(fresh)).toBeNull();
    await expect(assertLoggedOut(services, { userId: fresh.userId, cuid: rig.cuid })).resolves.toBeUndefined();
    expect((await rig.login(0, fresh)).status).toBe(200);
    await expect(assertLoggedOut(services, { userId: fresh.userId, cuid: rig.cuid })).rejects.toMatchObject({ code: "logout_required", status: 409 });
    expect((await rig.logout(0, fresh)).status).toBe(200);
    await expect(assertLoggedOut(services, { userId: fresh.userId, cuid: rig.cuid })).resolves.toBeUndefined();
  });
});
