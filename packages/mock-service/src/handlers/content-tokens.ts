import type {
  BalanceAdexResponse,
  IncreaseUsedContentTokenResponse,
  InitPermissionProviderResponse,
  ReleaseUsedBalanceResponse,
  SpendPayload,
  TestEncryptionResponse,
  UserBuyContentTokenResponse,
} from "@slotgate/protocol";
import { LIMITS } from "@slotgate/protocol";
import { decryptHex, encryptHex } from "@slotgate/protocol/crypto";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { spendPayloadSchema } from "@slotgate/protocol/schemas";
import type { MockContext } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { type Answer, mockEndpoint } from "../http/mock-endpoint.js";
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
  if (!slot)
    throw new HttpError("slot_not_found", {
      message: "The user has no active slot of this cuid (it opens with a login to the game, a consent or POST /v1/slots).",
    });
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

/** A retry of a provider registration: the first answer without the key it showed (the key is shown once). */
function withoutKey<T extends Partial<InitPermissionProviderResponse>>(first: T): T {
  const { aes_key: _key, aes_iv: _iv, ...rest } = first;
  return rest as T;
}

/** The client's AES key, or 404 provider_not_registered. */
function aesOf(client: ClientRecord): { key: string; iv: string } {
  if (!client.aes) throw new HttpError("provider_not_registered", { message: "This client has no provider registration (and so no AES key)." });
  return client.aes;
}

/** The decrypted, checked spend message of a provider: 400/403/409 as the service refuses it. */
function spendOf(ctx: MockContext, client: ClientRecord, encrypted: string): SpendPayload {
  const aes = aesOf(client);
  let payload: unknown;
  try {
    payload = JSON.parse(decryptHex(encrypted, aes.key, aes.iv));
  } catch {
    throw new HttpError("invalid_encrypted_message");
  }
  const parsed = spendPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new HttpError("invalid_encrypted_message");
  const spend = parsed.data;
  const provider = ctx.state.providers.get(spend.cuid);
  if (spend.client_id !== client.client_id || provider?.client_id !== client.client_id) throw new HttpError("encrypted_message_mismatch");
  if (spend.ts !== undefined && Math.abs(ctx.now() / 1000 - spend.ts) > SPEND_MESSAGE_WINDOW_SECONDS) throw new HttpError("stale_message");
  return spend;
}

/** The six `/v1/development-api` endpoints the simulation serves, and `GET /v1/chain/writes/{write_id}`. */
export function contentTokenHandlers(ctx: MockContext) {
  return [
    ...mockEndpoint(ctx, ENDPOINTS.initPermissionProvider, { replay: withoutKey }, async (body, caller): Promise<Answer<"initPermissionProvider">> => {
      const client = caller.client!;
      return caller.once(async () => {
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
          key_issued: issued !== undefined,
          ...(issued ? { aes_key: issued.key, aes_iv: issued.iv } : {}),
        };
        return answer;
      });
    }),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.userBuyContentToken,
      {},
      async (body, caller): Promise<Answer<"userBuyContentToken">> =>
        caller.once(async () => {
          const provider = ownProvider(ctx, caller.client!, body.cuid);
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
          return answer;
        }),
    ),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.increaseUsedContentToken,
      {},
      async (body, caller): Promise<Answer<"increaseUsedContentToken">> =>
        caller.once(async () => {
          const client = caller.client!;
          const spend = spendOf(ctx, client, body.encrypted_message);
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
          return answer;
        }),
    ),
    ...mockEndpoint(ctx, ENDPOINTS.balanceAdex, {}, async (input): Promise<Answer<"balanceAdex">> => {
      const slot = ctx.state.slots.get(input.slot.toLowerCase());
      const cuid = input.cuid ?? slot?.last_cuid;
      if (cuid === undefined) throw new HttpError("slot_not_found", { message: "No purchase is known for this slot; pass ?cuid=." });
      const balance = slot?.balances.get(cuid);
      const answer: BalanceAdexResponse = {
        success: true,
        slot: slot?.address ?? input.slot,
        balance: (balance?.balance ?? 0n).toString(),
        used_balances: (balance?.used ?? 0n).toString(),
        cuid,
      };
      return answer;
    }),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.releaseUsedBalance,
      {},
      async (body, caller): Promise<Answer<"releaseUsedBalance">> =>
        caller.once(async () => {
          const provider = ownProvider(ctx, caller.client!, body.cuid);
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
          return answer;
        }),
    ),
    // The simulation settles every write within the request, so it never answers 202 and knows no write
    // to look up: the lookup authenticates its caller and answers 404.
    ...mockEndpoint(ctx, ENDPOINTS.chainWrite, {}, async (): Promise<Answer<"chainWrite">> => {
      throw new HttpError("write_not_found");
    }),
    ...mockEndpoint(ctx, ENDPOINTS.testEncryption, {}, async (body, { client }): Promise<Answer<"testEncryption">> => {
      const aes = aesOf(client!);
      const answer: TestEncryptionResponse = { success: true, encrypted_string: encryptHex(body.test_string, aes.key, aes.iv) };
      return answer;
    }),
  ];
}
