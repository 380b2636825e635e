import { getAddress } from "ethers";
import type { IncreaseUsedContentTokenRequest, IncreaseUsedContentTokenResponse, SpendPayload } from "@slotgate/protocol";
import { decryptHex } from "@slotgate/protocol/crypto";
import { increaseUsedContentTokenSchema, spendPayloadSchema } from "@slotgate/protocol/schemas";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { wipe } from "../keys/wipe.js";
import { acceptSpendNonce, findCuidOwner, releaseSpendNonce } from "../storage/providers.js";
import { parseInput } from "../validate.js";
import { operatorCall } from "./operator-call.js";
import { providerKey } from "./providers.js";
import { slotWalletOf } from "./slots.js";

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
 * provider's replay protection (nonce accepted once, ts within the window), then the operator records
 * the spending on chain and the new (balance, used_balances) is read back.
 */
export async function increaseUsed(
  ctx: ServiceContext,
  clientId: string,
  request: IncreaseUsedContentTokenRequest,
): Promise<IncreaseUsedContentTokenResponse> {
  const input = parseInput(increaseUsedContentTokenSchema, request);
  const { provider, key } = await providerKey(ctx, clientId);
  let payload: SpendPayload;
  try {
    payload = decryptPayload(input.encrypted_message, key.toString("hex"), provider.aesIv);
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
  const wallet = await slotWalletOf(ctx, payload.user_dbkey);
  const slot = getAddress(wallet.contentAddress);
  const amount = BigInt(payload.amount);
  const nonce = payload.nonce;
  const now = ctx.now();
  // Only a payload with a ts can be forgotten safely later (after the window it is stale anyway).
  const forgetBefore = new Date(now.getTime() - 2 * ctx.spendMaxAgeSeconds * 1000);
  if (nonce !== undefined && !(await acceptSpendNonce(ctx.db, clientId, nonce, now, provider.replayProtection ? forgetBefore : undefined))) {
    throw new ChainServiceError("replayed_message");
  }
  const { exchange } = ctx.contracts;
  let txHash: string;
  try {
    const [balance] = await exchange.balance_adex(slot, payload.cuid);
    if (balance < amount) throw new ChainServiceError("insufficient_balance");
    const receipt = await operatorCall(ctx, ctx.addresses.exchange, exchange.interface.encodeFunctionData("increase_used", [slot, payload.cuid, amount]));
    txHash = receipt.hash;
  } catch (error) {
    // Nothing was recorded: the same message may be sent again.
    if (nonce !== undefined) await releaseSpendNonce(ctx.db, clientId, nonce);
    throw error;
  }
  const [balance, used] = await exchange.balance_adex(slot, payload.cuid);
  return {
    success: true,
    tx_hash: txHash,
    slot,
    cuid: payload.cuid,
    amount: amount.toString(),
    balance: balance.toString(),
    used_balances: used.toString(),
  };
}
