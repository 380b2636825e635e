import type { IncreaseUsedContentTokenRequest, IncreaseUsedContentTokenResponse, SpendPayload } from "@slotgate/protocol";
import { decryptHex } from "@slotgate/protocol/crypto";
import { spendPayloadSchema } from "@slotgate/protocol/schemas";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { wipe } from "../keys/wipe.js";
import { acceptSpendNonce, findCuidOwner } from "../storage/providers.js";
import { type PendingWrite, type WriteIdentity, identityFields } from "../writes/engine.js";
import type { SpendWritePayload } from "../writes/operator-planner.js";
import { openProviderKey, providerKey } from "./providers.js";
import { activeSlotOf } from "./slots.js";

function decryptPayload(hex: string, keyHex: string, ivHex: string): SpendPayload {
  let json: unknown;
  try {
    json = JSON.parse(decryptHex(hex, keyHex, ivHex));
  } catch {
    throw new ChainServiceError("invalid_encrypted_message");
  }
  const parsed = spendPayloadSchema.safeParse(json);
  if (!parsed.success) throw new ChainServiceError("invalid_encrypted_message");
  return parsed.data;
}

/**
 * @internal `increase_used_content_token` (spec 4.7, 4.8): decrypt with the authenticated provider's
 * key and IV, validate the JSON, require its client_id and cuid to be the caller's, apply the
 * provider's replay protection (ts within the window), check the balance, then record the spend as a
 * durable write in the database transaction that accepts the message's nonce (once): the spend
 * recorder sends the spends of one cuid together (`increase_used_batch`) and the answer's
 * (balance, used_balances) are the ones its `UsedBalanceIncreased` event recorded right after it. A spend that fails frees its nonce.
 */
export async function increaseUsed(
  ctx: ServiceContext,
  clientId: string,
  input: IncreaseUsedContentTokenRequest,
  identity: WriteIdentity,
): Promise<IncreaseUsedContentTokenResponse | PendingWrite> {
  const { provider, key } = await providerKey(ctx, clientId);
  let payload: SpendPayload;
  try {
    payload = decryptPayload(input.encrypted_message, key.toString("hex"), provider.aesIv);
  } catch (error) {
    // Inside the overlap window after a key rotation, the previous key and IV still decrypt.
    const previous = provider.previous;
    if (!previous || previous.validUntil.getTime() <= ctx.now().getTime()) throw error;
    const old = openProviderKey(ctx, provider, true);
    try {
      payload = decryptPayload(input.encrypted_message, old.toString("hex"), previous.aesIv);
    } finally {
      wipe(old);
    }
  } finally {
    wipe(key);
  }
  if (payload.client_id !== clientId || (await findCuidOwner(ctx.db, payload.cuid)) !== clientId) {
    throw new ChainServiceError("encrypted_message_mismatch");
  }
  if (provider.replayProtection && (payload.nonce === undefined || payload.ts === undefined)) {
    throw new ChainServiceError("invalid_encrypted_message", "This provider requires nonce and ts inside the encrypted message.");
  }
  if (payload.ts !== undefined) {
    const age = Math.abs(Math.floor(ctx.now().getTime() / 1000) - payload.ts);
    if (age > ctx.spendMaxAgeSeconds) throw new ChainServiceError("stale_message");
  }
  const slot = (await activeSlotOf(ctx, payload.user_dbkey, payload.cuid)).wallet;
  const amount = BigInt(payload.amount);
  const [balance] = await ctx.contracts.exchange.balance_adex(slot, payload.cuid);
  if (balance < amount) throw new ChainServiceError("insufficient_balance");

  const nonce = payload.nonce;
  const now = ctx.now();
  // Only a payload with a ts can be forgotten safely later (after the window it is stale anyway).
  const forgetBefore = new Date(now.getTime() - 2 * ctx.spendMaxAgeSeconds * 1000);
  const spend: SpendWritePayload = {
    cuid: payload.cuid,
    slot,
    amount: amount.toString(),
    ...(nonce === undefined ? {} : { effects: { failed: [{ kind: "release_spend_nonce", client_id: clientId, nonce }] } }),
  };
  // The message's nonce is accepted with the write, or not at all.
  const record = await ctx.writes.recordWith(async (tx) => {
    if (nonce !== undefined && !(await acceptSpendNonce(tx, clientId, nonce, now, provider.replayProtection ? forgetBefore : undefined))) {
      throw new ChainServiceError("replayed_message");
    }
    return { kind: "spend", signer: ctx.signers.spendRecorder, ...identityFields(identity), payload: spend as unknown as Record<string, unknown> };
  });
  return ctx.writes.outcome<IncreaseUsedContentTokenResponse & Record<string, unknown>>(record);
}
