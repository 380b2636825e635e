import type {
  BalanceAdexResponse,
  IncreaseUsedContentTokenResponse,
  InitPermissionProviderResponse,
  ReleaseUsedBalanceResponse,
  TestEncryptionResponse,
  UserBuyContentTokenResponse,
} from "@slotgate/protocol";
import { LIMITS, PATHS } from "@slotgate/protocol";
import { decryptHex, encryptHex } from "@slotgate/protocol/crypto";
import {
  cuid as cuidSchema,
  increaseUsedContentTokenSchema,
  initPermissionProviderSchema,
  primitives,
  releaseUsedBalanceSchema,
  spendPayloadSchema,
  testEncryptionSchema,
  userBuyContentTokenSchema,
} from "@slotgate/protocol/schemas";
import { http } from "msw";
import { authenticateClient } from "../clients.js";
import { type MockContext, urlOf } from "../context.js";
import { basicCredentials } from "../http/auth.js";
import { readJson, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { idempotent } from "../http/idempotency.js";
import { guard, json } from "../http/respond.js";
import { randomHex, randomTxHash } from "../random.js";
import { activeSlot, firstSlotWallet, walletOf } from "../slots.js";
import type { ClientRecord, ProviderRecord, SlotBalance, SlotRecord } from "../state.js";

/** Seconds a spend message's optional `ts` may differ from the service clock. */
export const SPEND_MESSAGE_WINDOW_SECONDS = 300;

/** XOTN amount in wei: integer strings are wei, decimal strings are ether (18 decimals). */
export function parseXotn(amount: string): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  if (amount.includes(".")) return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, "0"));
  return BigInt(whole);
}

function callerClient(ctx: MockContext, request: Request): ClientRecord {
  const basic = basicCredentials(request);
  if (!basic) {
    throw new HttpError("invalid_client", {
      message: "Authenticate with HTTP Basic client credentials (client_id:client_secret).",
      headers: { "WWW-Authenticate": 'Basic realm="slotgate"' },
    });
  }
  return authenticateClient(ctx, basic.id, basic.secret);
}

function sameClient(client: ClientRecord, bodyClientId: string): void {
  if (bodyClientId !== client.client_id) {
    throw new HttpError("token_user_mismatch", { message: "The body's client_id is not the authenticated client." });
  }
}

function ownProvider(ctx: MockContext, client: ClientRecord, cuid: string): ProviderRecord {
  const provider = ctx.state.providers.get(cuid);
  if (!provider || provider.client_id !== client.client_id) throw new HttpError("provider_not_registered");
  return provider;
}

function balanceOf(slot: SlotRecord, cuid: string): SlotBalance {
  let balance = slot.balances.get(cuid);
  if (!balance) {
    balance = { balance: 0n, used: 0n, settled: 0n };
    slot.balances.set(cuid, balance);
  }
  return balance;
}

/** The user's active slot wallet of `cuid`, as the server resolves spends (a spend never opens one). */
function slotOfUser(ctx: MockContext, userDbkey: string, cuid: string): SlotRecord {
  if (!ctx.state.endUsers.has(userDbkey)) throw new HttpError("slot_not_found", { message: "No user (slot) has this user_dbkey." });
  const slot = activeSlot(ctx, userDbkey, cuid);
  if (!slot) throw new HttpError("slot_not_found", { message: "The user has no active slot of this cuid (it opens with a login to the game, a consent or POST /v1/slots)." });
  return walletOf(ctx, slot);
}

/**
 * The slot wallet a provider's purchase of `paid` XOTN wei pays from, as the server resolves it: the active slot
 * of the cuid, or — when there is none — the wallet a first opening would use, opened only once the purchase can
 * go through (a refused purchase opens nothing).
 */
function purchaseSlot(ctx: MockContext, userDbkey: string, cuid: string, paid: bigint): SlotRecord {
  if (!ctx.state.endUsers.has(userDbkey)) throw new HttpError("slot_not_found", { message: "No user (slot) has this user_dbkey." });
  const active = activeSlot(ctx, userDbkey, cuid);
  const wallet = active ? walletOf(ctx, active) : firstSlotWallet(ctx, userDbkey, cuid);
  if (!wallet || wallet.xotn < paid) throw new HttpError("insufficient_allowance");
  if (!active) activeSlot(ctx, userDbkey, cuid, { create: true });
  return wallet;
}

function add(map: Map<string, bigint>, key: string, amount: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + amount);
}

/** The six `/v1/development-api` endpoints, and `GET /v1/chain/writes/{write_id}`. */
export function contentTokenHandlers(ctx: MockContext) {
  const path = (name: string) => urlOf(ctx, `/v1/development-api/${name}`);
  return [
    http.post(path("init_permission_provider"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const client = callerClient(ctx, request);
        const body = await readJson(request, initPermissionProviderSchema, ctx.bodyLimit);
        sameClient(client, body.client_id);
        return idempotent(ctx, request, `client:${client.client_id}`, body, async () => {
        if (ctx.state.providers.has(body.cuid)) throw new HttpError("cuid_taken");
        ctx.state.providers.set(body.cuid, { ...body, release_enabled: false });
        let issued: { key: string; iv: string } | undefined;
        if (!client.aes) {
          issued = { key: randomHex(32), iv: randomHex(16) };
          client.aes = issued;
        }
        const answer: InitPermissionProviderResponse = {
          success: true,
          tx_hash: randomTxHash(),
          ...(issued ? { aes_key: issued.key, aes_iv: issued.iv } : {}),
        };
        return json(answer, 200, { "Cache-Control": "no-store" });
        });
      }),
    ),
    http.post(path("user_buy_content_token"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const client = callerClient(ctx, request);
        const body = await readJson(request, userBuyContentTokenSchema, ctx.bodyLimit);
        sameClient(client, body.client_id);
        return idempotent(ctx, request, `client:${client.client_id}`, body, async () => {
        const provider = ownProvider(ctx, client, body.cuid);
        const paid = parseXotn(body.amount);
        const slot = purchaseSlot(ctx, body.user_dbkey, body.cuid, paid);
        const feePercent = ctx.faults.wrongFeeSplit ? 10n : 15n;
        const fee = (paid * feePercent) / 100n;
        slot.xotn -= paid;
        balanceOf(slot, body.cuid).balance += paid;
        slot.last_cuid = body.cuid;
        ctx.state.platformTreasury += fee;
        add(ctx.state.providerRevenue, provider.owner_addr.toLowerCase(), paid - fee);
        const answer: UserBuyContentTokenResponse = {
          success: true,
          tx_hash: randomTxHash(),
          token_amount: paid.toString(),
          xotn_paid: paid.toString(),
          platform_fee: fee.toString(),
          provider_received: (paid - fee).toString(),
        };
        return json(answer);
        });
      }),
    ),
    http.post(path("increase_used_content_token"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const client = callerClient(ctx, request);
        const body = await readJson(request, increaseUsedContentTokenSchema, ctx.bodyLimit);
        return idempotent(ctx, request, `client:${client.client_id}`, body, async () => {
        if (!client.aes) throw new HttpError("provider_not_registered", { message: "This client has no provider registration (and so no AES key)." });
        let payload: unknown;
        try {
          payload = JSON.parse(decryptHex(body.encrypted_message, client.aes.key, client.aes.iv));
        } catch {
          throw new HttpError("invalid_encrypted_message");
        }
        const parsed = spendPayloadSchema.safeParse(payload);
        if (!parsed.success) throw new HttpError("invalid_encrypted_message");
        const spend = parsed.data;
        const provider = ctx.state.providers.get(spend.cuid);
        if (spend.client_id !== client.client_id || provider?.client_id !== client.client_id) {
          throw new HttpError("encrypted_message_mismatch");
        }
        if (spend.ts !== undefined && Math.abs(ctx.now() / 1000 - spend.ts) > SPEND_MESSAGE_WINDOW_SECONDS) {
          throw new HttpError("stale_message");
        }
        const nonceKey = spend.nonce === undefined ? undefined : `${client.client_id}|${spend.nonce}`;
        if (nonceKey !== undefined && ctx.state.acceptedNonces.has(nonceKey)) throw new HttpError("replayed_message");
        const slot = slotOfUser(ctx, spend.user_dbkey, spend.cuid);
        const balance = balanceOf(slot, spend.cuid);
        const amount = BigInt(spend.amount);
        if (balance.balance < amount) throw new HttpError("insufficient_balance");
        balance.balance -= amount;
        balance.used += amount;
        if (nonceKey !== undefined) ctx.state.acceptedNonces.add(nonceKey);
        const answer: IncreaseUsedContentTokenResponse = {
          success: true,
          tx_hash: randomTxHash(),
          slot: slot.address,
          cuid: spend.cuid,
          amount: amount.toString(),
          balance: balance.balance.toString(),
          used_balances: balance.used.toString(),
        };
        return json(answer);
        });
      }),
    ),
    http.get(path("balance_adex/:slot"), ({ request, params }) =>
      guard(async () => {
        await ctx.ready();
        const address = validate(primitives.address, params["slot"]);
        const rawCuid = new URL(request.url).searchParams.get("cuid");
        const cuid = rawCuid === null ? undefined : validate(cuidSchema, rawCuid);
        const slot = ctx.state.slots.get(address.toLowerCase());
        const effectiveCuid = cuid ?? slot?.last_cuid;
        if (effectiveCuid === undefined) throw new HttpError("slot_not_found", { message: "No purchase is known for this slot; pass ?cuid=." });
        const balance = slot?.balances.get(effectiveCuid);
        const answer: BalanceAdexResponse = {
          success: true,
          slot: slot?.address ?? address,
          balance: (balance?.balance ?? 0n).toString(),
          used_balances: (balance?.used ?? 0n).toString(),
          cuid: effectiveCuid,
        };
        return json(answer, 200, { "Access-Control-Allow-Origin": "*" });
      }),
    ),
    http.post(path("release_used_balance"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const client = callerClient(ctx, request);
        const body = await readJson(request, releaseUsedBalanceSchema, ctx.bodyLimit);
        sameClient(client, body.client_id);
        return idempotent(ctx, request, `client:${client.client_id}`, body, async () => {
        const provider = ownProvider(ctx, client, body.cuid);
        if (!provider.release_enabled) throw new HttpError("release_disabled");
        const slot = ctx.state.slots.get(body.slot.toLowerCase());
        let released = 0n;
        if (slot) {
          const balance = balanceOf(slot, body.cuid);
          released = ((balance.used - balance.settled) * BigInt(LIMITS.platformFeePercent) * BigInt(provider.release_per)) / 10_000n;
          balance.settled = balance.used;
          add(ctx.state.released, provider.owner_addr.toLowerCase(), released);
        }
        const answer: ReleaseUsedBalanceResponse = { success: true, released_amount: released.toString(), tx_hash: randomTxHash() };
        return json(answer);
        });
      }),
    ),
    // The simulation settles every write within the request, so it never answers 202 and knows no write
    // to look up: the lookup authenticates its caller (client by HTTP Basic) and answers 404.
    http.get(urlOf(ctx, PATHS.chainWrite), ({ request, params }) =>
      guard(async () => {
        await ctx.ready();
        callerClient(ctx, request);
        validate(primitives.writeId, params["write_id"]);
        throw new HttpError("write_not_found");
      }),
    ),
    http.post(path("test_encryption"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const client = callerClient(ctx, request);
        const body = await readJson(request, testEncryptionSchema, ctx.bodyLimit);
        sameClient(client, body.client_id);
        if (!client.aes) throw new HttpError("provider_not_registered", { message: "This client has no provider registration (and so no AES key)." });
        const answer: TestEncryptionResponse = { success: true, encrypted_string: encryptHex(body.test_string, client.aes.key, client.aes.iv) };
        return json(answer);
      }),
    ),
  ];
}
