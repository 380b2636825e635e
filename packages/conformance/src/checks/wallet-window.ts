import { randomUUID } from "node:crypto";
import { PATHS } from "@slotgate/protocol";
import { createWalletConfirmationResponseSchema, devUserLoginResponseSchema, walletConfirmationResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectJson, expectOk } from "../assertions.js";
import type { ConformanceContext, RegisteredClient, TestUser } from "../context.js";
import type { CheckGroup } from "./check.js";
import { providerClient } from "./content-tokens.js";

/**
 * The wallet window's backend rows (issue 31): `POST /v1/wallet/confirmations` and
 * `GET /v1/wallet/confirmations/{confirmation_id}` (HTTP Basic). The window itself (PIN, key share, browser
 * session) is the server's and the SDK's to test; the generic endpoint-table checks cover the rest of the rows
 * (missing credentials, bad input, answer schemas).
 */

/** A client that registered a cuid, and a player who has a wallet. */
interface WalletWorld {
  client: RegisteredClient;
  cuid: string;
  user: TestUser;
}

async function walletWorld(ctx: ConformanceContext): Promise<WalletWorld> {
  const { client, cuid } = await providerClient(ctx);
  const user = ctx.users.alice;
  await ctx.accessToken(client, user);
  await ctx.target.operator.ensureWallet?.({ user_id: user.user_id });
  return { client, cuid, user };
}

function create(ctx: ConformanceContext, client: RegisteredClient, body: Record<string, unknown>): Promise<Response> {
  return ctx.postJson(PATHS.walletConfirmations, body, ctx.basic(client));
}

function ask(w: WalletWorld, request: Record<string, unknown>, client = w.client): Record<string, unknown> {
  return { user_uuid: Number(w.user.user_id), redirect_uri: client.redirect_uri, request };
}

function read(ctx: ConformanceContext, client: RegisteredClient, id: string): Promise<Response> {
  return ctx.request(PATHS.walletConfirmation.replace(":confirmation_id", encodeURIComponent(id)), { headers: ctx.basic(client) });
}

const TO_ADDRESS = "0x00000000000000000000000000000000c0ffee02";

/**
 * A client asks its player to approve purchases for its own cuid, and for a token transfer: 201, `pending`, the
 * window under the issuer (`{issuer}/wallet/confirm/{id}`), 10 minutes to answer; reading it back: 200 `pending`,
 * no `tx_hash` or `write_id` yet, the same `kind`. Two confirmations never share an id.
 */
export async function walletConfirmationCreatedPendingAndReadable(ctx: ConformanceContext): Promise<void> {
  const w = await walletWorld(ctx);
  const before = Math.floor(Date.now() / 1000);
  const created = await expectOk(
    await create(ctx, w.client, ask(w, { kind: "approve_purchases", cuid: w.cuid, amount: "1000" })),
    createWalletConfirmationResponseSchema,
    201,
    "create an approve_purchases confirmation",
  );
  expect(created).toMatchObject({ kind: "approve_purchases", status: "pending" });
  expect(created.window_url, "window_url is the issuer's confirmation window").toBe(ctx.url(PATHS.walletConfirmPage.replace(":confirmation_id", created.id)));
  expect(created.expires_at, "expires in about 10 minutes").toBeGreaterThanOrEqual(before + 590);
  expect(created.expires_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 610);

  const got = await expectOk(await read(ctx, w.client, created.id), walletConfirmationResponseSchema, 200, "read the confirmation");
  expect(got).toMatchObject({ id: created.id, kind: "approve_purchases", status: "pending", tx_hash: null, write_id: null });
  expect(got.error).toBeUndefined();

  const transfer = await expectOk(
    await create(ctx, w.client, ask(w, { kind: "token_transfer", to_address: TO_ADDRESS, amount: "1" })),
    createWalletConfirmationResponseSchema,
    201,
    "create a token_transfer confirmation",
  );
  expect(transfer.kind).toBe("token_transfer");
  expect(transfer.id).not.toBe(created.id);
}

/** Only the creating client reads a confirmation: another client gets 404 `confirmation_not_found`, as for an id never made. */
export async function walletConfirmationHiddenFromOtherClients(ctx: ConformanceContext): Promise<void> {
  const w = await walletWorld(ctx);
  const created = await expectOk(
    await create(ctx, w.client, ask(w, { kind: "token_transfer", to_address: TO_ADDRESS, amount: "5" })),
    createWalletConfirmationResponseSchema,
    201,
    "create a confirmation",
  );
  await expectError(await read(ctx, ctx.clients.chain, created.id), "confirmation_not_found", "another client reads the confirmation");
  await expectError(await read(ctx, w.client, "A".repeat(43)), "confirmation_not_found", "an id never made");
}

/** A client registered by a developer account of its own (not the suite's developer). */
async function clientOfAnotherDeveloper(ctx: ConformanceContext): Promise<RegisteredClient> {
  const developer = { email: `${ctx.unique("other-dev")}@conformance.test`, password: `pw-${randomUUID()}` };
  const signup = await expectOk(await ctx.postJson(PATHS.devUserSignup, developer), devUserLoginResponseSchema, 201, "another developer's signup");
  const redirect = `https://${ctx.unique("other-dev-app")}.conformance.test/callback`;
  const registration = {
    name: "Another developer's app",
    redirect_uris: [redirect],
    download_url: "https://conformance.test/d",
    web_url: "https://conformance.test/",
    platform: "web",
    blockchain: true,
  };
  const body = await expectJson(await ctx.postJson(PATHS.clients, registration, ctx.bearer(signup.token)), 201, "another developer's client");
  return { ...(body as unknown as RegisteredClient), redirect_uri: redirect };
}

/**
 * A client asks only about the cuids of its developer account: `approve_purchases` for a cuid a client of another
 * developer registered, or nobody did, and `slot_hand_over` of such a cu_id, are 403 `cuid_not_owned`; nothing is
 * created. Another client of the same developer (a studio's marketplace beside its game) may ask: 201.
 */
export async function walletConfirmationRefusesCuidNotOwned(ctx: ConformanceContext): Promise<void> {
  const w = await walletWorld(ctx);
  const other = await clientOfAnotherDeveloper(ctx);
  await expectError(
    await create(ctx, other, ask(w, { kind: "approve_purchases", cuid: w.cuid, amount: "1000" }, other)),
    "cuid_not_owned",
    "approve_purchases for another developer's cuid",
  );
  await expectError(
    await create(ctx, w.client, ask(w, { kind: "approve_purchases", cuid: ctx.unique("nobodys-cuid"), amount: "1000" })),
    "cuid_not_owned",
    "approve_purchases for a cuid nobody registered",
  );
  await expectError(
    await create(ctx, other, ask(w, { kind: "slot_hand_over", cu_id: w.cuid, to_uuid: ctx.users.bob.user_id, meta_idx: 0 }, other)),
    "cuid_not_owned",
    "slot_hand_over of another developer's cu_id",
  );
  const sibling = ctx.clients.chain;
  await expectOk(
    await create(ctx, sibling, ask(w, { kind: "slot_hand_over", cu_id: w.cuid, to_uuid: ctx.users.bob.user_id, meta_idx: 0 }, sibling)),
    createWalletConfirmationResponseSchema,
    201,
    "slot_hand_over asked by another client of the cuid's developer",
  );
}

/**
 * Bad asks are refused before anything else: an unknown `kind`, a request missing its fields, a `user_uuid` that
 * is not a number: 400 `invalid_request`; a redirect URI the client did not register: 401 `redirect_uri_mismatch`.
 */
export async function walletConfirmationRefusesBadRequests(ctx: ConformanceContext): Promise<void> {
  const w = await walletWorld(ctx);
  const bad = async (body: Record<string, unknown>, what: string) => {
    const error = await expectError(await create(ctx, w.client, body), "invalid_request", what);
    expect(error.details?.length, `${what}: details name the fields`).toBeGreaterThan(0);
  };
  await bad(ask(w, { kind: "buy_everything", cuid: w.cuid, amount: "1" }), "an unknown kind");
  await bad(ask(w, { kind: "approve_purchases", cuid: w.cuid }), "approve_purchases without an amount");
  await bad(ask(w, { kind: "token_transfer", to_address: "not-an-address", amount: "1" }), "a token_transfer to a malformed address");
  await bad({ ...ask(w, { kind: "token_transfer", to_address: TO_ADDRESS, amount: "1" }), user_uuid: w.user.user_id }, "a user_uuid as a string");
  await expectError(
    await create(ctx, w.client, {
      ...ask(w, { kind: "token_transfer", to_address: TO_ADDRESS, amount: "1" }),
      redirect_uri: "https://elsewhere.conformance.test/cb",
    }),
    "redirect_uri_mismatch",
    "a redirect URI the client did not register",
  );
}

/** The wallet window's backend rows. */
export const walletWindowChecks: CheckGroup = {
  "a confirmation is created pending, with its window under the issuer, and read back pending": walletConfirmationCreatedPendingAndReadable,
  "another client's read is 404 confirmation_not_found": walletConfirmationHiddenFromOtherClients,
  "approve_purchases / slot_hand_over for a cuid of another developer is 403 cuid_not_owned; a sibling client may ask": walletConfirmationRefusesCuidNotOwned,
  "a bad kind, missing fields or an unregistered redirect URI is refused": walletConfirmationRefusesBadRequests,
};
