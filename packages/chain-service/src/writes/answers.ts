import type { SlotgateContracts } from "@slotgate/contracts";
import { type Log, getAddress } from "ethers";
import { ChainServiceError } from "../errors.js";

/** How the answer of an operator call is read from its receipt. */
export type CallAnswer =
  /** `{ success, tx_hash, ...fields }`. */
  | { kind: "transaction"; fields?: Record<string, string | number | boolean> }
  /** `user_buy_content_token`: the `ContentTokenPurchased` event. */
  | { kind: "purchase" }
  /** `release_used_balance`: the `UsedBalanceReleased` event (0 when nothing was due). */
  | { kind: "release" }
  /** `init_permission_provider`: `{ success, tx_hash, key_issued }`, plus the client's key the first time the registration that issued it is answered. */
  | { kind: "provider"; client_id: string; issues_key: boolean };

/** The facts of a landed transaction an answer is built from. */
export interface LandedTransaction {
  hash: string;
  logs: readonly Pick<Log, "address" | "topics" | "data">[];
}

function eventArgs(contracts: SlotgateContracts, landed: LandedTransaction, name: string) {
  const exchange = getAddress(String(contracts.exchange.target));
  for (const log of landed.logs) {
    if (getAddress(log.address) !== exchange) continue;
    const parsed = contracts.exchange.interface.parseLog({ topics: [...log.topics], data: log.data });
    if (parsed?.name === name) return parsed.args;
  }
  return undefined;
}

/** What a spend answers: `increase_used_content_token`'s fields. */
export interface SpendOfAnswer {
  cuid: string;
  slot: string;
  amount: string;
}

/**
 * @internal The answers of the spends a landed transaction recorded (one `increase_used` or an
 * `increase_used_batch`), in the order given, from its `UsedBalanceIncreased` events: each spend's balance
 * and `used_balances` right after it, without another read from the node. Null for a spend the
 * transaction has no event for.
 */
export function spendAnswers(contracts: SlotgateContracts, spends: readonly SpendOfAnswer[], landed: LandedTransaction): Array<Record<string, unknown> | null> {
  const exchange = getAddress(String(contracts.exchange.target));
  const events = landed.logs
    .filter((log) => getAddress(log.address) === exchange)
    .map((log) => contracts.exchange.interface.parseLog({ topics: [...log.topics], data: log.data }))
    .filter((parsed) => parsed?.name === "UsedBalanceIncreased")
    .map((parsed) => ({ args: parsed!.args, used: false }));
  return spends.map((spend) => {
    const slot = getAddress(spend.slot);
    const event = events.find(
      (e) => !e.used && getAddress(String(e.args.slot)) === slot && e.args.cuid === spend.cuid && BigInt(e.args.amount).toString() === spend.amount,
    );
    if (!event) return null;
    event.used = true;
    return {
      success: true,
      tx_hash: landed.hash,
      slot,
      cuid: spend.cuid,
      amount: spend.amount,
      balance: BigInt(event.args.balance).toString(),
      used_balances: BigInt(event.args.usedBalance).toString(),
    };
  });
}

/**
 * @internal The endpoint's answer for a landed operator call: what a retry with the same idempotency
 * key, or `GET /v1/chain/writes/{id}`, answers again. Secrets are never part of it (a provider's key is
 * added when the answer is shown, see {@link ANSWER_SECRET_FIELD}).
 */
export function callAnswer(contracts: SlotgateContracts, answer: CallAnswer, landed: LandedTransaction): Record<string, unknown> {
  switch (answer.kind) {
    case "transaction":
      return { success: true, tx_hash: landed.hash, ...answer.fields };
    case "purchase": {
      const args = eventArgs(contracts, landed, "ContentTokenPurchased");
      if (!args) throw new ChainServiceError("internal_error", "the purchase emitted no ContentTokenPurchased event");
      return {
        success: true,
        tx_hash: landed.hash,
        token_amount: BigInt(args.tokenAmount).toString(),
        xotn_paid: BigInt(args.xotnPaid).toString(),
        platform_fee: BigInt(args.platformFee).toString(),
        provider_received: BigInt(args.providerReceived).toString(),
      };
    }
    case "release": {
      const args = eventArgs(contracts, landed, "UsedBalanceReleased");
      return { success: true, released_amount: args ? BigInt(args.releasedAmount).toString() : "0", tx_hash: landed.hash };
    }
    case "provider":
      return { success: true, tx_hash: landed.hash, key_issued: answer.issues_key, ...(answer.issues_key ? { [ANSWER_SECRET_FIELD]: answer.client_id } : {}) };
  }
}

/**
 * @internal A stored answer that shows a secret when it is answered names it here instead of holding
 * it: `init_permission_provider`'s first registration keeps the client id whose AES key and IV its
 * first answer shows (claimed and opened from the provider record, once: see `presentAnswer`).
 */
export const ANSWER_SECRET_FIELD = "issues_key_of";

/** How the answer of a sponsored UserOperation is shaped (one operation, several endpoints). */
export type OperationShape =
  /** `POST /v1/pin/verify`: {@link WalletOperationResponse}. */
  | "wallet_operation"
  /** `POST /v1/token/transfer`: `{ success, transaction_hash }`. */
  | "transfer"
  /** `exchange_token_owner`: `{ success, tx_hash, meta_idx, new_owner, tr_cnt }`. */
  | "slot_exchange"
  /** Internal operations (recovery, development funding): `{ success, tx_hash, user_op_hash, deployed_wallet }`. */
  | "operation";

/**
 * @internal The endpoint's answer for a landed UserOperation, from the fields known when it was
 * signed (`known`) and what landed.
 */
export function operationAnswer(
  shape: OperationShape,
  known: Record<string, string | number | boolean | null>,
  landed: { txHash: string; userOpHash: string; deployedWallet: boolean },
): Record<string, unknown> {
  switch (shape) {
    case "transfer":
      return { success: true, transaction_hash: landed.txHash };
    case "slot_exchange":
      return { success: true, tx_hash: landed.txHash, meta_idx: known.meta_idx, new_owner: known.new_owner, tr_cnt: known.tr_cnt };
    case "wallet_operation":
      return {
        success: true,
        address: known.address,
        tx_hash: landed.txHash,
        user_op_hash: landed.userOpHash,
        deployed_wallet: landed.deployedWallet,
        ...(known.new_owner ? { new_owner: known.new_owner } : {}),
      };
    case "operation":
      return { success: true, tx_hash: landed.txHash, user_op_hash: landed.userOpHash, deployed_wallet: landed.deployedWallet };
  }
}
