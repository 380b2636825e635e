/**
 * The simulated sale (exchange_token_owner after logout), which the shared conformance suite cannot check
 * (on the real server it needs the seller's PIN shares and a chain write).
 */
import { type ConformanceContext, createConformanceContext, providerClient } from "@slotgate/conformance";
import { PATHS } from "@slotgate/protocol";
import { encryptHex } from "@slotgate/protocol/crypto";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockService } from "../src/index.js";

const mock = createMockService({ baseUrl: "http://slots.slotgate.test" });
const server = setupServer(...mock.handlers);
let ctx: ConformanceContext;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  ctx = await createConformanceContext({ name: "slots", baseUrl: () => mock.baseUrl, operator: mock.operator, readMailedCode: (e) => mock.readMailedCode(e) });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  server.close();
});

async function json(res: Response, status: number): Promise<Record<string, unknown>> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

const read = (cuid: string, metaIdx: number) => fetch(`${mock.baseUrl}${PATHS.slot.replace(":cu_id", cuid).replace(":meta_idx", String(metaIdx))}`);

describe("a sale in the simulated service", () => {
  it("hands the slot with its wallet and record to the buyer (tr_cnt 1, sleeping beside the buyer's active slot); the seller gets a new slot at the next login", async () => {
    const { client, cuid, registered } = await providerClient(ctx);
    const { alice, bob } = ctx.users;
    const sellerLogin = await ctx.accessToken(client, alice);
    await mock.operator.fundSlot({ client_id: client.client_id, user_id: alice.user_id, xotn: "1000", cuid });
    await json(
      await ctx.postJson(PATHS.userBuyContentToken, { client_id: client.client_id, user_dbkey: alice.user_id, amount: "100", cuid }, ctx.basic(client)),
      200,
    );
    const message = encryptHex(
      JSON.stringify({ client_id: client.client_id, user_dbkey: alice.user_id, amount: "30", cuid }),
      String(registered["aes_key"]),
      String(registered["aes_iv"]),
    );
    await json(await ctx.postJson(PATHS.increaseUsedContentToken, { encrypted_message: message }, ctx.basic(client)), 200);
    const buyerLogin = await ctx.accessToken(client, bob);
    const before = (await json(await read(cuid, 0), 200))["slot"] as Record<string, unknown>;
    expect(before).toMatchObject({ owner_user_id: alice.user_id, slot: sellerLogin.content_address, balance: "70", used_balances: "30", tr_cnt: 0 });

    const sale = {
      state: "sale-1",
      cu_id: cuid,
      from_uuid: alice.user_id,
      to_uuid: bob.user_id,
      meta_idx: 0,
      pin_hash: "ab".repeat(32),
      key_share_user: "cd".repeat(32),
    };
    const sold = await json(await ctx.postJson(PATHS.exchangeTokenOwner, sale, ctx.bearer(sellerLogin.access_token)), 200);
    expect(sold).toMatchObject({ success: true, meta_idx: 0, tr_cnt: 1 });
    expect(sold["tx_hash"]).toMatch(/^0x[0-9a-f]{64}$/);

    const after = (await json(await read(cuid, 0), 200))["slot"] as Record<string, unknown>;
    expect(after).toMatchObject({
      owner_user_id: bob.user_id,
      owner: sold["new_owner"],
      slot: before["slot"],
      balance: "70",
      used_balances: "30",
      tr_cnt: 1,
      state: "sleeping",
    });
    await expect(json(await ctx.postJson(PATHS.exchangeTokenOwner, sale, ctx.bearer(sellerLogin.access_token)), 409)).resolves.toMatchObject({
      error: "replayed_message",
    });
    await expect(
      json(await ctx.postJson(PATHS.exchangeTokenOwner, { ...sale, state: "sale-2" }, ctx.bearer(sellerLogin.access_token)), 403),
    ).resolves.toMatchObject({ error: "not_owner" });

    const sellerSlots = await json(await fetch(`${mock.baseUrl}${PATHS.slots}?cu_id=${cuid}`, { headers: ctx.bearer(sellerLogin.access_token) }), 200);
    expect(sellerSlots["slots"]).toEqual([]);
    const sellerAgain = await ctx.accessToken(client, alice);
    expect(sellerAgain.content_address).not.toBe(before["slot"]);

    const activated = await json(await ctx.postJson(PATHS.slotActivate, { cu_id: cuid, meta_idx: 0 }, ctx.bearer(buyerLogin.access_token)), 200);
    expect(activated["active"]).toMatchObject({ meta_idx: 0, state: "active", owner_user_id: bob.user_id });
    expect((await ctx.accessToken(client, bob)).content_address, "the buyer's login names the bought slot").toBe(before["slot"]);
  });

  it("exchange_token_owner to a user that does not exist is 404 wallet_not_found and moves nothing", async () => {
    const { client, cuid } = await providerClient(ctx);
    const login = await ctx.accessToken(client, ctx.users.alice);
    const sale = {
      state: "s",
      cu_id: cuid,
      from_uuid: ctx.users.alice.user_id,
      to_uuid: "999999",
      meta_idx: 0,
      pin_hash: "ab".repeat(32),
      key_share_user: "cd".repeat(32),
    };
    await expect(json(await ctx.postJson(PATHS.exchangeTokenOwner, sale, ctx.bearer(login.access_token)), 404)).resolves.toMatchObject({
      error: "wallet_not_found",
    });
    expect(((await json(await read(cuid, 0), 200))["slot"] as Record<string, unknown>)["owner_user_id"]).toBe(ctx.users.alice.user_id);
  });
});

describe("purchases and slots in the simulated service", () => {
  it("a refused purchase opens no slot, as on the server", async () => {
    const { client } = await providerClient(ctx);
    const { alice } = ctx.users;
    const login = await ctx.accessToken(client, alice);
    const { client: other, cuid: otherCuid } = await providerClient(ctx);
    const refused = await json(
      await ctx.postJson(PATHS.userBuyContentToken, { client_id: other.client_id, user_dbkey: alice.user_id, amount: "5", cuid: otherCuid }, ctx.basic(other)),
      409,
    );
    expect(refused["error"]).toBe("insufficient_allowance");
    const slots = await json(await fetch(`${mock.baseUrl}${PATHS.slots}?cu_id=${otherCuid}`, { headers: ctx.bearer(login.access_token) }), 200);
    expect(slots["slots"], "the refused purchase opened no slot of that cuid").toEqual([]);
  });
});
