import { createHash } from "node:crypto";
import type { ExchangeTokenOwnerRequest, ExchangeTokenOwnerResponse } from "@slotgate/protocol";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { releaseExchangeState, reserveExchangeState } from "../storage/exchange-states.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import { openSlotRecord, queueMissingRegistrations, registrationIdentity } from "../slots/slots.js";
import { findSlot } from "../storage/slots.js";
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
      {
        user_uuid: from,
        pin_hash: input.pin_hash,
        key_share_user: input.key_share_user,
        ...(input.pin_salt === undefined ? {} : { pin_salt: input.pin_salt }),
      },
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

/**
 * @internal Platform operator: registers slot `meta_idx` of `cuid` for `user_uuid` on chain (`buy_slot`
 * with the slot wallet) and answers once it landed. A slot not opened yet is opened at that number for
 * the user (see `openSlotRecord`); an opened slot of the user has its registration answered (sent once);
 * another user's slot is `not_owner`.
 */
export async function registerSlot(
  ctx: ServiceContext,
  args: { cuid: string; meta_idx: number; user_uuid: number },
): Promise<{ tx_hash: string; owner: string } | PendingWrite> {
  if (!(await findWallet(ctx.db, args.user_uuid))) throw new ChainServiceError("wallet_not_found");
  const existing = await findSlot(ctx.db, args.cuid, args.meta_idx);
  if (existing && existing.userUuid !== args.user_uuid)
    throw new ChainServiceError("not_owner", `slot ${args.meta_idx} of ${args.cuid} belongs to another user`);
  if (!existing) await openSlotRecord(ctx, args.user_uuid, args.cuid, args.meta_idx);
  else if (!existing.registrationQueued) await queueMissingRegistrations(ctx);
  const registration = await ctx.writes.earlier(registrationIdentity(args.cuid, args.meta_idx));
  if (!registration) throw new ChainServiceError("internal_error", "the slot's registration was not recorded");
  return ctx.writes.outcome<{ tx_hash: string; owner: string }>(registration);
}
