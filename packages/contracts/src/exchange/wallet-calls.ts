import { Interface } from "ethers";
import { ContractsError } from "../errors.js";
import { contentTokenExchangeAbi } from "../generated/contentTokenExchange.js";
import { slotgateAccountAbi } from "../generated/slotgateAccount.js";
import { xotnAbi } from "../generated/xotn.js";
import type { WalletCall } from "../sponsorship/user-operation.js";

const exchangeInterface = new Interface(contentTokenExchangeAbi);
const xotnInterface = new Interface(xotnAbi);
const accountInterface = new Interface(slotgateAccountAbi);

function positive(value: bigint, what: string): bigint {
  if (typeof value !== "bigint" || value <= 0n) throw new ContractsError("INVALID_ARGUMENT", `${what} must be a positive bigint`);
  return value;
}

/** Input of {@link buyContentTokenCalls}. */
export interface BuyContentTokenCallsInput {
  /** XOTN address. */
  xotn: string;
  /** Exchange address. */
  exchange: string;
  /** Slot wallet credited with content tokens (normally the C_SALT wallet). */
  slot: string;
  /** Registered cuid. */
  cuid: string;
  /** XOTN wei to pay. */
  amount: bigint;
}

/**
 * The two calls a user's wallet makes to buy content tokens (spec 4.7 `user_buy_content_token`):
 * `XOTN.approve(exchange, amount)` then `exchange.buy_content_token(slot, cuid, amount)`. Pass them as
 * `calls` of {@link sendSponsoredUserOperation}; they run atomically in one `executeBatch`.
 *
 * @param input - addresses, slot, cuid and amount
 * @returns the two wallet calls
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner, calls: buyContentTokenCalls({
 *   xotn: addresses.xotn, exchange: addresses.exchange, slot: slotWallet, cuid: "game-1", amount: 10n ** 18n,
 * }) });
 * ```
 */
export function buyContentTokenCalls(input: BuyContentTokenCallsInput): WalletCall[] {
  const amount = positive(input.amount, "amount");
  return [
    { to: input.xotn, data: xotnInterface.encodeFunctionData("approve", [input.exchange, amount]) },
    { to: input.exchange, data: exchangeInterface.encodeFunctionData("buy_content_token", [input.slot, input.cuid, amount]) },
  ];
}

/**
 * The call that records the calling wallet as the owner of an unowned slot: `buy_slot(wallet, slot, cuid)`.
 *
 * @param exchange - exchange address
 * @param wallet - the wallet making the call (it records itself)
 * @param slot - slot number within the cuid
 * @param cuid - registered cuid
 * @returns the wallet call
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner, calls: buySlotCall(addresses.exchange, userWallet, 7n, "game-1") });
 * ```
 */
export function buySlotCall(exchange: string, wallet: string, slot: bigint, cuid: string): WalletCall {
  return { to: exchange, data: exchangeInterface.encodeFunctionData("buy_slot", [wallet, slot, cuid]) };
}

/**
 * The call the current owner's wallet makes to hand a slot to another owner (spec 4.9):
 * `change_slot_owner(cuid, slot, newOwner)`.
 *
 * @param exchange - exchange address
 * @param cuid - the slot's cuid
 * @param slot - slot number
 * @param newOwner - the new owner's wallet
 * @returns the wallet call
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner: fromOwner, sender: fromWallet,
 *   calls: changeSlotOwnerCall(addresses.exchange, "game-1", 7n, toWallet) });
 * ```
 */
export function changeSlotOwnerCall(exchange: string, cuid: string, slot: bigint, newOwner: string): WalletCall {
  return { to: exchange, data: exchangeInterface.encodeFunctionData("change_slot_owner", [cuid, slot, newOwner]) };
}

/**
 * The callData of a UserOperation that rotates the wallet's owner key (spec 4.10 recovery):
 * `changeOwner(newOwner)`, executed by the EntryPoint after the old owner's signature was checked.
 *
 * @param newOwner - the new owner EOA
 * @returns `{ callData }`, usable as `calls` of {@link sendSponsoredUserOperation}
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner: oldOwner, sender: userWallet, calls: changeOwnerCallData(newOwner.address) });
 * ```
 */
export function changeOwnerCallData(newOwner: string): { callData: string } {
  return { callData: accountInterface.encodeFunctionData("changeOwner", [newOwner]) };
}
