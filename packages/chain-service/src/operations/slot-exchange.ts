import { createHash } from "node:crypto";
import type { ExchangeTokenOwnerRequest, ExchangeTokenOwnerResponse } from "@slotgate/protocol";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { releaseExchangeState, reserveExchangeState } from "../storage/exchange-states.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import { platformIdentity, platformWrite } from "../writes/platform-write.js";
import { findWallet } from "../storage/wallets.js";
import { runWalletOperation } from "./wallet-operation.js";

/**
 * @internal `POST /idex-platform/exchange_token_owner` (spec 4.9): the current owner's wallet gives
 * slot `meta_idx` of `cu_id` to `to_uuid`'s wallet with one sponsored UserOperation signed by the
 * owner key restored from the PIN shares. `state` is the request's one-time session state token:
 * accepted once per owner, so a replayed request never moves a slot twice (`replayed_message`); a
 * failed exchange frees it. A retry with the request's idempotency key answers the first outcome.
 */
export async function exchangeSlotOwner(
  ctx: ServiceContext,
  input: ExchangeTokenOwnerRequest,
  identity: WriteIdentity,
): Promise<ExchangeTokenOwnerResponse | PendingWrite> {
  const from = Number(input.from_uuid);
  if (input.to_uuid === input.from_uuid) {
    throw new ChainServiceError("invalid_request", "to_uuid: must differ from from_uuid", { details: { to_uuid: "must differ from from_uuid" } });
  }
  const stateHash = createHash("sha256").update(input.state).digest("hex");
  if (!(await reserveExchangeState(ctx.db, from, stateHash))) {
    throw new ChainServiceError("replayed_message", "This state token was already used for a slot exchange; send a new one.");
  }
  try {
    return (await runWalletOperation(
      ctx,
      { user_uuid: from, pin_hash: input.pin_hash, key_share_user: input.key_share_user, ...(input.pin_salt === undefined ? {} : { pin_salt: input.pin_salt }) },
      { kind: "exchange_slot_owner", cuid: input.cu_id, meta_idx: input.meta_idx, to_uuid: Number(input.to_uuid) },
      identity,
      {
        shape: "slot_exchange",
        effects: {
          confirmed: [{ kind: "complete_exchange_state", from_uuid: from, state_hash: stateHash }],
          failed: [{ kind: "release_exchange_state", from_uuid: from, state_hash: stateHash }],
        },
      },
    )) as ExchangeTokenOwnerResponse | PendingWrite;
  } catch (error) {
    // Refused before it was recorded (a wrong PIN, a slot it does not own): the state may be sent again.
    await releaseExchangeState(ctx.db, from, stateHash).catch(() => undefined);
    throw error;
  }
}

/** @internal Platform operator: records `user_uuid`'s wallet as owner of slot `meta_idx` of `cuid` (`buy_slot`). */
export async function registerSlot(
  ctx: ServiceContext,
  args: { cuid: string; meta_idx: number; user_uuid: number },
): Promise<{ tx_hash: string; owner: string } | PendingWrite> {
  const wallet = await findWallet(ctx.db, args.user_uuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  return platformWrite<{ tx_hash: string; owner: string }>(ctx, platformIdentity("registerSlot", [args]), {
    to: ctx.addresses.exchange,
    data: ctx.contracts.exchange.interface.encodeFunctionData("buy_slot", [wallet.address, BigInt(args.meta_idx), args.cuid]),
    answer: { kind: "transaction", fields: { owner: wallet.address } },
  });
}
