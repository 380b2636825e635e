import { PATHS, type SlotView } from "@slotgate/protocol";
import {
  slotActivateResponseSchema,
  slotListResponseSchema,
  slotResponseSchema,
  statusLoginResponseSchema,
  statusLogoutResponseSchema,
} from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectOk } from "../assertions.js";
import type { ConformanceContext, RegisteredClient, TestUser } from "../context.js";
import { ConformanceError } from "../errors.js";
import type { CheckGroup } from "./check.js";
import { providerClient } from "./content-tokens.js";

/**
 * Slot checks (docs/decisions/marketplace.md). Cheap on a real chain: nothing here waits for a chain write
 * to land (a slot's `registered`, `owner` and on-chain `tr_cnt` are not asserted while it may still be
 * unregistered); the sale is checked only where it is refused before anything is written.
 */

/** A client that registered a cuid, and a user whose code exchange opened their first slot of it. */
interface SlotWorld {
  client: RegisteredClient;
  cuid: string;
  user: TestUser;
  /** The user's access token at the client. */
  token: string;
  /** The token response's `content_address`: the user's active slot of the cuid. */
  contentAddress: string;
}

async function slotWorld(ctx: ConformanceContext, user: TestUser = ctx.users.alice): Promise<SlotWorld> {
  const { client, cuid } = await providerClient(ctx);
  const answer = await ctx.accessToken(client, user);
  if (!answer.content_address) throw new ConformanceError("setup_failed", "a blockchain client's token exchange returned no content_address");
  return { client, cuid, user, token: answer.access_token, contentAddress: answer.content_address };
}

function list(ctx: ConformanceContext, token: string, cuid: string): Promise<Response> {
  return ctx.request(`${PATHS.slots}?${new URLSearchParams({ cu_id: cuid })}`, { headers: ctx.bearer(token) });
}

function open(ctx: ConformanceContext, token: string, cuid: string): Promise<Response> {
  return ctx.postJson(PATHS.slots, { cu_id: cuid }, ctx.bearer(token));
}

function activate(ctx: ConformanceContext, token: string, cuid: string, meta_idx: unknown): Promise<Response> {
  return ctx.postJson(PATHS.slotActivate, { cu_id: cuid, meta_idx }, ctx.bearer(token));
}

function readSlot(ctx: ConformanceContext, cuid: string, metaIdx: string | number): Promise<Response> {
  return ctx.request(PATHS.slot.replace(":cu_id", encodeURIComponent(cuid)).replace(":meta_idx", String(metaIdx)));
}

async function setStatus(ctx: ConformanceContext, w: SlotWorld, which: "login" | "logout"): Promise<void> {
  const body = { user_id: w.user.user_id, client_id: w.client.client_id };
  if (which === "login") await expectOk(await ctx.postJson(PATHS.statusLogin, body, ctx.bearer(w.token)), statusLoginResponseSchema, 200, "status login");
  else await expectOk(await ctx.postJson(PATHS.statusLogout, body, ctx.bearer(w.token)), statusLogoutResponseSchema, 200, "status logout");
}

const states = (slots: SlotView[]) => slots.map((s) => [s.meta_idx, s.state]);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The code exchange of a client with a cuid opens the user's first slot (active); `POST /v1/slots` opens
 * another (201, sleeping, its own wallet); the list shows both; activation is refused 409
 * `logout_required` while the user is logged in at the client that registered the cuid and accepted after
 * logout (the other slot sleeps); the next code exchange names the newly active slot; the public read
 * needs no token and answers 404 `slot_not_found` for a slot never opened.
 */
export async function slotsOpenListActivateAfterLogout(ctx: ConformanceContext): Promise<void> {
  const w = await slotWorld(ctx);
  const initial = await expectOk(await list(ctx, w.token, w.cuid), slotListResponseSchema, 200, "list after the code exchange");
  expect(initial.slots, "the code exchange opened one slot").toHaveLength(1);
  const first = initial.slots[0]!;
  expect(first).toMatchObject({ cuid: w.cuid, state: "active", owner_user_id: w.user.user_id, tr_cnt: 0, balance: "0", used_balances: "0" });
  expect(same(first.slot, w.contentAddress), "content_address is the active slot's wallet").toBe(true);

  const opened = await expectOk(await open(ctx, w.token, w.cuid), slotResponseSchema, 201, "open another slot");
  const second = opened.slot;
  expect(second).toMatchObject({ cuid: w.cuid, state: "sleeping", owner_user_id: w.user.user_id, tr_cnt: 0 });
  expect(second.meta_idx).not.toBe(first.meta_idx);
  expect(same(second.slot, first.slot), "each slot has its own wallet").toBe(false);
  const both = await expectOk(await list(ctx, w.token, w.cuid), slotListResponseSchema, 200, "list of two");
  expect(states(both.slots)).toEqual([
    [first.meta_idx, "active"],
    [second.meta_idx, "sleeping"],
  ]);

  await setStatus(ctx, w, "login");
  await expectError(await activate(ctx, w.token, w.cuid, second.meta_idx), "logout_required", "activate while logged in");
  expect(states((await expectOk(await list(ctx, w.token, w.cuid), slotListResponseSchema)).slots), "the refusal changed nothing").toEqual(states(both.slots));

  await setStatus(ctx, w, "logout");
  const activated = await expectOk(await activate(ctx, w.token, w.cuid, second.meta_idx), slotActivateResponseSchema, 200, "activate after logout");
  expect(activated.active).toMatchObject({ cuid: w.cuid, meta_idx: second.meta_idx, state: "active" });
  expect(same(activated.active.slot, second.slot)).toBe(true);
  const after = await expectOk(await list(ctx, w.token, w.cuid), slotListResponseSchema, 200, "list after activation");
  expect(states(after.slots)).toEqual([
    [first.meta_idx, "sleeping"],
    [second.meta_idx, "active"],
  ]);
  const again = await ctx.accessToken(w.client, w.user);
  expect(same(again.content_address ?? "", second.slot), "the next code exchange names the active slot").toBe(true);

  const read = await readSlot(ctx, w.cuid, first.meta_idx);
  expect(read.headers.get("access-control-allow-origin"), "the public read allows any origin").toBe("*");
  const publicView = await expectOk(read, slotResponseSchema, 200, "public read without a token");
  expect(publicView.slot).toMatchObject({ cuid: w.cuid, meta_idx: first.meta_idx, state: "sleeping", owner_user_id: w.user.user_id });
  expect(same(publicView.slot.slot, first.slot)).toBe(true);
  await expectError(await readSlot(ctx, w.cuid, 987_654), "slot_not_found", "a slot never opened");
}

/**
 * Bad input and strangers: 401 without a bearer token, 400 for a missing or malformed cuid or meta_idx,
 * 404 `provider_not_registered` when opening a slot of a cuid nobody registered, 404 `slot_not_found`
 * for activating a slot never opened, 403 `not_owner` for activating another user's slot; another user
 * lists none of them.
 */
export async function slotsRefuseBadInputAndStrangers(ctx: ConformanceContext): Promise<void> {
  const w = await slotWorld(ctx);
  await expectError(await ctx.request(`${PATHS.slots}?${new URLSearchParams({ cu_id: w.cuid })}`), "invalid_token", "list without a token");
  await expectError(await ctx.postJson(PATHS.slots, { cu_id: w.cuid }), "invalid_token", "open without a token");
  await expectError(await ctx.postJson(PATHS.slotActivate, { cu_id: w.cuid, meta_idx: 0 }), "invalid_token", "activate without a token");
  await expectError(await list(ctx, "not-a-token", w.cuid), "invalid_token", "list with a malformed token");

  await expectError(await ctx.request(PATHS.slots, { headers: ctx.bearer(w.token) }), "invalid_request", "list without cu_id");
  await expectError(await list(ctx, w.token, "not a cuid!"), "invalid_request", "list with a malformed cu_id");
  await expectError(await ctx.postJson(PATHS.slots, {}, ctx.bearer(w.token)), "invalid_request", "open without cu_id");
  await expectError(await ctx.postJson(PATHS.slots, { cu_id: w.cuid, extra: 1 }, ctx.bearer(w.token)), "invalid_request", "open with an unknown field");
  for (const bad of [-1, 1.5, "0", null]) {
    await expectError(await activate(ctx, w.token, w.cuid, bad), "invalid_request", `activate with meta_idx ${JSON.stringify(bad)}`);
  }
  await expectError(await readSlot(ctx, w.cuid, "abc"), "invalid_request", "public read with meta_idx abc");
  await expectError(await readSlot(ctx, w.cuid, "-1"), "invalid_request", "public read with meta_idx -1");

  await expectError(await open(ctx, w.token, ctx.unique("unregistered")), "provider_not_registered", "open a slot of a cuid nobody registered");
  await expectError(await activate(ctx, w.token, w.cuid, 987_654), "slot_not_found", "activate a slot never opened");

  const mine = (await expectOk(await list(ctx, w.token, w.cuid), slotListResponseSchema)).slots[0]!;
  const stranger = (await ctx.accessToken(w.client, ctx.users.bob)).access_token;
  // bob's code exchange opened bob's own first slot: alice's slot stays alice's.
  const bobs = await expectOk(await list(ctx, stranger, w.cuid), slotListResponseSchema, 200, "bob's list");
  expect(bobs.slots.map((s) => s.owner_user_id)).toEqual([ctx.users.bob.user_id]);
  expect(bobs.slots.some((s) => s.meta_idx === mine.meta_idx)).toBe(false);
  await expectError(await activate(ctx, stranger, w.cuid, mine.meta_idx), "not_owner", "activate another user's slot");
  const still = await expectOk(await readSlot(ctx, w.cuid, mine.meta_idx), slotResponseSchema, 200, "alice's slot after bob's attempt");
  expect(still.slot).toMatchObject({ owner_user_id: w.user.user_id, state: "active" });
}

/**
 * The listing lock on the sale (`exchange_token_owner`): refused 409 `logout_required` while the seller
 * is logged in at the client that registered the cuid, with nothing changed; 401 without a token; 403
 * `token_user_mismatch` when `from_uuid` is not the token's user; after logout a sale to oneself is 400.
 * (A sale that goes through needs the seller's PIN shares and a chain write; it is not checked here.)
 */
export async function saleRefusedWhileSellerLoggedIn(ctx: ConformanceContext): Promise<void> {
  const w = await slotWorld(ctx);
  const slot = (await expectOk(await list(ctx, w.token, w.cuid), slotListResponseSchema)).slots[0]!;
  const sale = (overrides: Record<string, unknown> = {}) => ({
    state: ctx.unique("sale-state"),
    cu_id: w.cuid,
    from_uuid: w.user.user_id,
    to_uuid: ctx.users.bob.user_id,
    meta_idx: slot.meta_idx,
    pin_hash: "ab".repeat(32),
    key_share_user: "cd".repeat(32),
    ...overrides,
  });
  await expectError(await ctx.postJson(PATHS.exchangeTokenOwner, sale()), "invalid_token", "sale without a token");
  await expectError(
    await ctx.postJson(PATHS.exchangeTokenOwner, sale({ from_uuid: ctx.users.bob.user_id, to_uuid: w.user.user_id }), ctx.bearer(w.token)),
    "token_user_mismatch",
    "sale of another user's slot",
  );
  await expectError(await ctx.postJson(PATHS.exchangeTokenOwner, sale({ meta_idx: -1 }), ctx.bearer(w.token)), "invalid_request", "sale with meta_idx -1");

  await setStatus(ctx, w, "login");
  await expectError(await ctx.postJson(PATHS.exchangeTokenOwner, sale(), ctx.bearer(w.token)), "logout_required", "sale while the seller is logged in");
  const unchanged = await expectOk(await readSlot(ctx, w.cuid, slot.meta_idx), slotResponseSchema, 200, "slot after the refused sale");
  expect(unchanged.slot).toMatchObject({ owner_user_id: w.user.user_id, tr_cnt: 0, state: "active" });

  await setStatus(ctx, w, "logout");
  await expectError(
    await ctx.postJson(PATHS.exchangeTokenOwner, sale({ to_uuid: w.user.user_id }), ctx.bearer(w.token)),
    "invalid_request",
    "sale to oneself after logout",
  );
}

/** Slot checks (feature `contentTokens`: slots need a provider registration). */
export const slotChecks: CheckGroup = {
  "slots: the code exchange opens the first; open, list, activate only after logout; public read": slotsOpenListActivateAfterLogout,
  "slots: bad input, unregistered cuid, unknown slot and another user's slot are refused": slotsRefuseBadInputAndStrangers,
  "exchange_token_owner is refused 409 logout_required while the seller is logged in": saleRefusedWhileSellerLoggedIn,
};
