import { isPendingWrite, type WalletConfirmationRequest } from "@slotgate/protocol";
import type { Services } from "../platform/app/services.js";
import { runAsVerifiedUser } from "../chain-api/chain/caller-assertions.js";
import { chainOf } from "../chain-api/chain/chain-of.js";
import { asServerError } from "../platform/http/error-handler.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { withTransferHold } from "../status/listing-lock.js";
import { type ConfirmationRow, closeConfirmation, findConfirmation, isAbandoned, releaseConfirmation, takeConfirmation } from "./confirmations-store.js";

/** What the window's page sends to approve: the PIN's hash and salt and the key share it keeps. Never stored. */
export interface PinShares {
  pin_hash: string;
  pin_salt: string;
  key_share_user: string;
}

/** The outcome of an approve, as the window's page and the result message carry it. */
export interface ApproveOutcome {
  status: "approved" | "failed";
  tx_hash?: string;
  write_id?: string;
  error?: { code: string; message: string };
}

/** Codes that leave a confirmation pending: the player may try the PIN again (the PIN lockout still counts). */
const RETRYABLE = new Set(["pin_invalid", "pin_locked", "rate_limited", "service_unavailable", "chain_unavailable"]);

/** The idempotency key of a confirmation's chain call: one write per confirmation, whoever approves it and however often. */
function confirmationWriteKey(id: string): string {
  return `wallet-confirmation:${id}`;
}

/**
 * Runs the chain call a confirmation asks for, with the same chain-service calls as the JSON endpoints:
 * `verifyPin` with `approve_purchases`, `transferToken` of XOTN from the player's wallet, and
 * `exchangeSlotOwner` inside `withTransferHold` (the listing lock). The idempotency key is the
 * confirmation's id, so the write happens at most once whatever happens to this request.
 */
async function runRequest(services: Services, row: ConfirmationRow, shares: PinShares): Promise<{ tx_hash: string | null } | { write_id: string }> {
  const chain = chainOf(services);
  const userUuid = Number(row.user_id);
  const write = { idempotencyKey: confirmationWriteKey(row.id) };
  const request: WalletConfirmationRequest = row.params;
  const pending = (answer: object) => (isPendingWrite(answer) ? { write_id: answer.write_id } : null);
  return runAsVerifiedUser(userUuid, async () => {
    if (request.kind === "approve_purchases") {
      const answer = await chain.verifyPin(
        { user_uuid: userUuid, ...shares, operation: { kind: "approve_purchases", cuid: request.cuid, amount: request.amount } },
        write,
      );
      return pending(answer) ?? { tx_hash: (answer as { tx_hash: string | null }).tx_hash };
    }
    if (request.kind === "token_transfer") {
      const from = await chain.walletAddressFor(userUuid);
      if (from === null) throw new SlotgateServerError("wallet_not_found");
      const answer = await chain.transferToken(
        userUuid,
        { from_address: from, to_address: request.to_address, amount: request.amount, contract_address: chain.addresses.xotn, ...shares },
        write,
      );
      return pending(answer) ?? { tx_hash: (answer as { transaction_hash: string }).transaction_hash };
    }
    const exchange = {
      state: row.id,
      cu_id: request.cu_id,
      from_uuid: row.user_id,
      to_uuid: request.to_uuid,
      meta_idx: request.meta_idx,
      ...shares,
    };
    const answer = await withTransferHold(services, { userId: row.user_id, cuid: request.cu_id }, () => chain.exchangeSlotOwner(exchange, write));
    return pending(answer) ?? { tx_hash: (answer as { tx_hash: string }).tx_hash };
  });
}

/**
 * Approves confirmation `id` for the player whose window sent the PIN shares: takes it (single use,
 * 409 `confirmation_closed` when it is not pending or has expired), runs its chain call and records the
 * outcome. A wrong PIN (or a locked one, a busy service) puts it back to pending and is thrown, so the
 * page can say so; any other refusal closes it as `failed`.
 *
 * @example
 * ```ts
 * const outcome = await approveConfirmation(services, id, { pin_hash, pin_salt, key_share_user });
 * ```
 */
export async function approveConfirmation(services: Services, id: string, shares: PinShares): Promise<ApproveOutcome> {
  const row = await takeConfirmation(services.db, id);
  if (!row) throw new SlotgateServerError("confirmation_closed");
  try {
    const done = await runRequest(services, row, shares);
    const outcome: ApproveOutcome =
      "write_id" in done ? { status: "approved", write_id: done.write_id } : { status: "approved", ...(done.tx_hash ? { tx_hash: done.tx_hash } : {}) };
    await closeConfirmation(services.db, id, { status: "approved", txHash: outcome.tx_hash ?? null, writeId: outcome.write_id ?? null });
    return outcome;
  } catch (error) {
    const known = asServerError(error);
    if (!known) {
      await releaseConfirmation(services.db, id);
      throw error;
    }
    if (RETRYABLE.has(known.code)) {
      await releaseConfirmation(services.db, id);
      throw known;
    }
    const failure = { code: known.code, message: known.message };
    await closeConfirmation(services.db, id, { status: "failed", error: failure });
    return { status: "failed", error: failure };
  }
}

/**
 * Settles a confirmation left `signing` by an approve whose process died (its lease over) from what the chain
 * service recorded under the confirmation's idempotency key: the write's outcome (`approved` with its
 * transaction or, still landing, its write id; `failed` with its error), or back to `pending` when no write
 * was made (it then reads `expired` once past its expiry, and may be approved again before). Nothing changes
 * when an approve took it again meanwhile. Answers the row as it now stands.
 *
 * @example
 * ```ts
 * const current = await settleAbandonedApprove(services, row); // before answering the confirmation's state
 * ```
 */
export async function settleAbandonedApprove(services: Services, row: ConfirmationRow): Promise<ConfirmationRow> {
  if (!isAbandoned(row)) return row;
  const write = await chainOf(services).lookupWriteByKey({ user_uuid: Number(row.user_id) }, confirmationWriteKey(row.id));
  const abandoned = { abandoned: true };
  if (write === null) await releaseConfirmation(services.db, row.id, abandoned);
  else if (write.status === "failed") {
    const error = write.error ?? { code: "chain_reverted", message: "The blockchain rejected the transaction." };
    await closeConfirmation(services.db, row.id, { status: "failed", error }, abandoned);
  } else {
    const txHash = write.result?.["tx_hash"] ?? write.result?.["transaction_hash"];
    await closeConfirmation(services.db, row.id, { status: "approved", ...(typeof txHash === "string" ? { txHash } : { writeId: write.write_id }) }, abandoned);
  }
  return (await findConfirmation(services.db, row.id)) ?? row;
}
