import { PATHS } from "@slotgate/protocol";
import { encryptHex } from "@slotgate/protocol/crypto";
import { balanceAdexResponseSchema, testEncryptionResponseSchema, userBuyContentTokenResponseSchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import { expectError, expectJson, expectOk } from "../assertions.js";
import type { ConformanceContext, RegisteredClient, TestUser } from "../context.js";
import { ConformanceError } from "../errors.js";
import type { CheckGroup } from "./check.js";

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const OWNER = "0x00000000000000000000000000000000c0ffee01";
const XOTN_FUND = "100000000000000000000"; // 100 XOTN

/** A freshly registered blockchain client with one provider registration, a user and that user's slot. */
export interface ProviderWorld {
  client: RegisteredClient;
  cuid: string;
  key: string;
  iv: string;
  release_per: number;
  user: TestUser;
  /** The user's slot wallet for the client (content_address). */
  slot: string;
}

async function registerClient(ctx: ConformanceContext): Promise<RegisteredClient> {
  const redirect = `https://${ctx.unique("provider")}.conformance.test/callback`;
  const body = await expectJson(
    await ctx.postJson(
      PATHS.clients,
      {
        name: "Conformance Provider",
        redirect_uris: [redirect],
        download_url: "https://conformance.test/d",
        web_url: "https://conformance.test/",
        platform: "web",
        blockchain: true,
      },
      ctx.bearer(ctx.developer.token),
    ),
    201,
    "register provider client",
  );
  return { ...(body as unknown as RegisteredClient), redirect_uri: redirect };
}

function init(ctx: ConformanceContext, client: RegisteredClient, cuid: string, release_per: number, auth = ctx.basic(client)): Promise<Response> {
  return ctx.postJson(PATHS.initPermissionProvider, { client_id: client.client_id, cuid, release_per, owner_addr: OWNER }, auth);
}

/**
 * A freshly registered blockchain client that registered one cuid (`init_permission_provider`), with the
 * registration's answer (the first one carries `aes_key` / `aes_iv`).
 *
 * @example
 * ```ts
 * const { client, cuid } = await providerClient(ctx);
 * ```
 */
export async function providerClient(
  ctx: ConformanceContext,
  release_per = 37,
): Promise<{ client: RegisteredClient; cuid: string; registered: Record<string, unknown> }> {
  const client = await registerClient(ctx);
  const cuid = ctx.unique("cuid");
  const registered = await expectJson(await init(ctx, client, cuid, release_per), 200, "init_permission_provider");
  return { client, cuid, registered };
}

/** Sets up a {@link ProviderWorld}: client, provider registration (with its AES key), user, funded slot. */
export async function providerWorld(ctx: ConformanceContext, release_per = 37): Promise<ProviderWorld> {
  const { client, cuid, registered } = await providerClient(ctx, release_per);
  const key = registered["aes_key"];
  const iv = registered["aes_iv"];
  if (typeof key !== "string" || typeof iv !== "string")
    throw new ConformanceError("setup_failed", "the first provider registration returned no aes_key / aes_iv");
  const user = ctx.users.alice;
  const token = await ctx.accessToken(client, user);
  if (!token.content_address) throw new ConformanceError("setup_failed", "a blockchain client's token exchange returned no content_address");
  await ctx.target.operator.fundSlot?.({ client_id: client.client_id, user_id: user.user_id, xotn: XOTN_FUND, cuid });
  return { client, cuid, key, iv, release_per, user, slot: token.content_address };
}

function buy(ctx: ConformanceContext, w: ProviderWorld, amount: string, cuid = w.cuid): Promise<Response> {
  return ctx.postJson(PATHS.userBuyContentToken, { client_id: w.client.client_id, user_dbkey: w.user.user_id, amount, cuid }, ctx.basic(w.client));
}

function spend(ctx: ConformanceContext, w: ProviderWorld, payload: Record<string, unknown>, key = w.key, iv = w.iv): Promise<Response> {
  const encrypted_message = encryptHex(JSON.stringify(payload), key, iv);
  return ctx.postJson(PATHS.increaseUsedContentToken, { encrypted_message }, ctx.basic(w.client));
}

function spendPayload(w: ProviderWorld, amount: string): Record<string, unknown> {
  return { client_id: w.client.client_id, user_dbkey: w.user.user_id, amount, cuid: w.cuid };
}

function balance(ctx: ConformanceContext, slot: string, cuid?: string): Promise<Response> {
  return ctx.request(`${PATHS.balanceAdex}/${slot}${cuid ? `?${new URLSearchParams({ cuid })}` : ""}`);
}

async function expectBalance(ctx: ConformanceContext, w: ProviderWorld, expected: { balance: string; used_balances: string }, what: string) {
  const body = await expectOk(await balance(ctx, w.slot, w.cuid), balanceAdexResponseSchema, 200, what);
  expect(body.slot.toLowerCase()).toBe(w.slot.toLowerCase());
  expect({ balance: body.balance, used_balances: body.used_balances, cuid: body.cuid }, what).toEqual({ ...expected, cuid: w.cuid });
}

/**
 * The first registration issues aes_key/aes_iv and shows them once: its retry under the same
 * Idempotency-Key answers the same registration, `key_issued: true`, without the key; later ones
 * (other cuids) answer `key_issued: false`; a taken cuid -> 409; bad input -> 400/403.
 */
export async function providerRegistrationIssuesKeyOnce(ctx: ConformanceContext): Promise<void> {
  const client = await registerClient(ctx);
  const firstCuid = ctx.unique("cuid");
  const withKey = { ...ctx.basic(client), "idempotency-key": ctx.unique("registration-key") };
  const first = await expectJson(await init(ctx, client, firstCuid, 50, withKey), 200, "first registration");
  expect(first["success"]).toBe(true);
  expect(first["tx_hash"]).toMatch(TX_HASH);
  expect(first["key_issued"]).toBe(true);
  expect(first["aes_key"]).toMatch(/^[0-9a-f]{64}$/);
  expect(first["aes_iv"]).toMatch(/^[0-9a-f]{32}$/);
  const retried = await expectJson(await init(ctx, client, firstCuid, 50, withKey), 200, "the first registration again, same Idempotency-Key");
  expect(retried, "a retry answers the registration, and that the key was issued, never the key").toEqual({
    success: true,
    tx_hash: first["tx_hash"],
    key_issued: true,
  });
  const cuid = ctx.unique("cuid");
  const second = await expectJson(await init(ctx, client, cuid, 50), 200, "second registration");
  expect(second["tx_hash"]).toMatch(TX_HASH);
  expect(second["key_issued"]).toBe(false);
  expect(second, "the key is shown only once").not.toHaveProperty("aes_key");
  expect(second).not.toHaveProperty("aes_iv");
  await expectError(await init(ctx, client, cuid, 50), "cuid_taken", "same cuid again");
  await expectError(await init(ctx, client, ctx.unique("cuid"), 101), "invalid_request", "release_per 101");
  await expectError(
    await ctx.postJson(
      PATHS.initPermissionProvider,
      { client_id: ctx.clients.web.client_id, cuid: ctx.unique("cuid"), release_per: 1, owner_addr: OWNER },
      ctx.basic(client),
    ),
    "token_user_mismatch",
    "body client_id of another client",
  );
}

/** test_encryption equals local AES-256-CTR (hex) with the issued key and IV. */
export async function testEncryptionMatchesLocalAes(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx);
  for (const text of ["", "hello", "héllo, Slotgate ✓", JSON.stringify(spendPayload(w, "25"))]) {
    const res = await ctx.postJson(PATHS.testEncryption, { client_id: w.client.client_id, test_string: text }, ctx.basic(w.client));
    const body = await expectOk(res, testEncryptionResponseSchema, 200, `test_encryption ${JSON.stringify(text)}`);
    expect(body.encrypted_string).toBe(encryptHex(text, w.key, w.iv));
  }
}

/** Purchases: token_amount = xotn_paid, platform_fee = floor(15%), provider_received = the rest; ether decimals accepted. */
export async function purchaseSplits15To85(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx);
  const cases: [string, string, string, string][] = [
    ["1000", "1000", "150", "850"],
    ["7", "7", "1", "6"],
    ["1.5", "1500000000000000000", "225000000000000000", "1275000000000000000"],
  ];
  let total = 0n;
  for (const [amount, paid, fee, provider] of cases) {
    const body = await expectOk(await buy(ctx, w, amount), userBuyContentTokenResponseSchema, 200, `buy ${amount}`);
    expect(body, `buy ${amount}`).toMatchObject({ token_amount: paid, xotn_paid: paid, platform_fee: fee, provider_received: provider });
    total += BigInt(paid);
  }
  await expectBalance(ctx, w, { balance: total.toString(), used_balances: "0" }, "after purchases");
}

/** A spend moves the amount from balance to used_balances; balance_adex agrees (with and without cuid). */
export async function spendMovesBalanceToUsed(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx);
  await expectOk(await buy(ctx, w, "1000"), userBuyContentTokenResponseSchema);
  const res = await spend(ctx, w, spendPayload(w, "250"));
  const body = await expectJson(res, 200, "increase_used");
  expect(body).toMatchObject({ success: true, cuid: w.cuid, amount: "250", balance: "750", used_balances: "250" });
  expect(String(body["slot"]).toLowerCase()).toBe(w.slot.toLowerCase());
  expect(body["tx_hash"]).toMatch(TX_HASH);
  await expectBalance(ctx, w, { balance: "750", used_balances: "250" }, "after spend");
  const defaulted = await expectOk(await balance(ctx, w.slot), balanceAdexResponseSchema, 200, "balance without cuid");
  expect(defaulted).toMatchObject({ cuid: w.cuid, balance: "750", used_balances: "250" });
  await expectJson(await spend(ctx, w, spendPayload(w, "750")), 200, "spend the rest");
  await expectBalance(ctx, w, { balance: "0", used_balances: "1000" }, "all spent");
}

/** Bad spend messages: wrong key -> 400, another client / cuid -> 403, over balance -> 409; balances unchanged. */
export async function spendRejectsBadMessages(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx);
  await expectOk(await buy(ctx, w, "100"), userBuyContentTokenResponseSchema);
  const otherKey = "11".repeat(32);
  await expectError(await spend(ctx, w, spendPayload(w, "10"), otherKey), "invalid_encrypted_message", "encrypted under another key");
  await expectError(await spend(ctx, w, { ...spendPayload(w, "10"), amount: 10 }), "invalid_encrypted_message", "amount as a number");
  await expectError(
    await spend(ctx, w, { ...spendPayload(w, "10"), client_id: ctx.clients.web.client_id }),
    "encrypted_message_mismatch",
    "another client_id inside",
  );
  await expectError(await spend(ctx, w, { ...spendPayload(w, "10"), cuid: ctx.unique("cuid") }), "encrypted_message_mismatch", "unregistered cuid inside");
  await expectError(await spend(ctx, w, spendPayload(w, "101")), "insufficient_balance", "more than the balance");
  await expectError(await ctx.postJson(PATHS.increaseUsedContentToken, { encrypted_message: "zz-not-hex" }, ctx.basic(w.client)), "invalid_request", "not hex");
  await expectError(
    await ctx.postJson(PATHS.increaseUsedContentToken, { ...spendPayload(w, "10") }, ctx.basic(w.client)),
    "invalid_request",
    "fields in clear instead of encrypted_message",
  );
  await expectBalance(ctx, w, { balance: "100", used_balances: "0" }, "refused spends changed nothing");
}

/**
 * Release: 409 release_disabled until enabled; then the provider is paid release_per % of the platform's
 * 15 % fee on the newly used tokens, floor((used - settled) * 15 * release_per / 10000) (the contract's rule,
 * see docs/decisions/contracts.md); again with no new usage -> "0".
 */
export async function releaseRequiresFlagAndSettlesOnce(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx, 37);
  await expectOk(await buy(ctx, w, "1000"), userBuyContentTokenResponseSchema);
  await expectJson(await spend(ctx, w, spendPayload(w, "200")), 200, "spend 200");
  const release = () => ctx.postJson(PATHS.releaseUsedBalance, { client_id: w.client.client_id, cuid: w.cuid, slot: w.slot }, ctx.basic(w.client));
  await expectError(await release(), "release_disabled", "before the operator enables release");
  await ctx.target.operator.enableRelease(w.cuid);
  const first = await expectJson(await release(), 200, "first release");
  expect(first).toMatchObject({ success: true, released_amount: "11" });
  expect(first["tx_hash"]).toMatch(TX_HASH);
  expect((await expectJson(await release(), 200, "second release"))["released_amount"], "no new usage pays 0").toBe("0");
  await expectJson(await spend(ctx, w, spendPayload(w, "400")), 200, "spend 400");
  expect((await expectJson(await release(), 200, "third release"))["released_amount"], "only the new 400 is settled").toBe("22");
  await expectBalance(ctx, w, { balance: "400", used_balances: "600" }, "release does not change used_balances");
}

/** balance_adex is public: invalid address -> 400; never-seen slot -> 404 without cuid, zeros with cuid. */
export async function balanceAdexValidation(ctx: ConformanceContext): Promise<void> {
  await expectError(await balance(ctx, "0x1234"), "invalid_request", "short address");
  await expectError(await balance(ctx, `0x${"g".repeat(40)}`), "invalid_request", "non-hex address");
  const unseen = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("hex")}`;
  await expectError(await balance(ctx, unseen), "slot_not_found", "never-seen slot without cuid");
  const zeros = await expectOk(await balance(ctx, unseen, "some-cuid"), balanceAdexResponseSchema, 200, "never-seen slot with cuid");
  expect(zeros).toMatchObject({ balance: "0", used_balances: "0", cuid: "some-cuid" });
}

/** Every development-api call but balance_adex needs HTTP Basic client credentials: 401 invalid_client. */
export async function contentTokenEndpointsRequireClientAuth(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx);
  const wrong = ctx.basic({ client_id: w.client.client_id, client_secret: `${w.client.client_secret}x` });
  const calls: [string, unknown][] = [
    [PATHS.initPermissionProvider, { client_id: w.client.client_id, cuid: ctx.unique("cuid"), release_per: 1, owner_addr: OWNER }],
    [PATHS.userBuyContentToken, { client_id: w.client.client_id, user_dbkey: w.user.user_id, amount: "1", cuid: w.cuid }],
    [PATHS.increaseUsedContentToken, { encrypted_message: encryptHex(JSON.stringify(spendPayload(w, "1")), w.key, w.iv) }],
    [PATHS.releaseUsedBalance, { client_id: w.client.client_id, cuid: w.cuid, slot: w.slot }],
    [PATHS.testEncryption, { client_id: w.client.client_id, test_string: "x" }],
  ];
  for (const [path, body] of calls) {
    await expectError(await ctx.postJson(path, body), "invalid_client", `${path} without credentials`);
    await expectError(await ctx.postJson(path, body, wrong), "invalid_client", `${path} with a wrong secret`);
    await expectError(
      await ctx.postJson(path, body, ctx.bearer((await ctx.accessToken(w.client, w.user)).access_token)),
      "invalid_client",
      `${path} with a bearer token`,
    );
  }
  await expectBalance(ctx, w, { balance: "0", used_balances: "0" }, "refused calls changed nothing");
}

/**
 * `Idempotency-Key` on the money endpoints: a purchase and a spend sent again with their keys answer
 * the first answers and happen once; another request under a used key is 422; a malformed key is 400
 * and changes nothing; an unknown write id is 404 for its would-be owner.
 */
export async function idempotencyKeysMakeRetriesSafe(ctx: ConformanceContext): Promise<void> {
  const w = await providerWorld(ctx);
  const withKey = (key: string) => ({ ...ctx.basic(w.client), "idempotency-key": key });
  const buyWith = (amount: string, key: string) =>
    ctx.postJson(PATHS.userBuyContentToken, { client_id: w.client.client_id, user_dbkey: w.user.user_id, amount, cuid: w.cuid }, withKey(key));
  const purchaseKey = ctx.unique("purchase-key");
  const first = await expectOk(await buyWith("300", purchaseKey), userBuyContentTokenResponseSchema, 200, "purchase with a key");
  const again = await expectOk(await buyWith("300", purchaseKey), userBuyContentTokenResponseSchema, 200, "the same purchase again");
  expect(again, "a retry answers the first answer").toEqual(first);
  await expectBalance(ctx, w, { balance: "300", used_balances: "0" }, "bought once");
  await expectError(await buyWith("301", purchaseKey), "idempotency_key_reused", "another purchase under the key");

  const spendKey = ctx.unique("spend-key");
  const message = { encrypted_message: encryptHex(JSON.stringify(spendPayload(w, "40")), w.key, w.iv) };
  const spent = await expectJson(await ctx.postJson(PATHS.increaseUsedContentToken, message, withKey(spendKey)), 200, "spend with a key");
  const respent = await expectJson(await ctx.postJson(PATHS.increaseUsedContentToken, message, withKey(spendKey)), 200, "the same spend again");
  expect(respent).toEqual(spent);
  await expectBalance(ctx, w, { balance: "260", used_balances: "40" }, "spent once");

  for (const bad of ["two words", "x".repeat(256)]) {
    await expectError(await buyWith("1", bad), "invalid_request", `malformed key ${JSON.stringify(bad.slice(0, 12))}`);
  }
  await expectBalance(ctx, w, { balance: "260", used_balances: "40" }, "malformed keys changed nothing");
  await expectError(
    await ctx.request(PATHS.chainWrite.replace(":write_id", "987654321987"), { headers: ctx.basic(w.client) }),
    "write_not_found",
    "an unknown write",
  );
  await expectError(await ctx.request(PATHS.chainWrite.replace(":write_id", "1")), "invalid_client", "a lookup without credentials");
}

/** Content-token checks (feature `contentTokens`). */
export const contentTokenChecks: CheckGroup = {
  "provider registration shows the AES key once, never to a retry; taken cuid -> 409": providerRegistrationIssuesKeyOnce,
  "test_encryption equals local AES-256-CTR": testEncryptionMatchesLocalAes,
  "purchase splits 15% platform / 85% provider": purchaseSplits15To85,
  "spend moves balance to used_balances": spendMovesBalanceToUsed,
  "bad spend messages are refused and change nothing": spendRejectsBadMessages,
  "release needs the operator flag and settles each usage once": releaseRequiresFlagAndSettlesOnce,
  "balance_adex validates the address and knows unseen slots": balanceAdexValidation,
  "development-api calls need HTTP Basic client credentials": contentTokenEndpointsRequireClientAuth,
  "Idempotency-Key makes retries of purchases and spends safe": idempotencyKeysMakeRetriesSafe,
};
