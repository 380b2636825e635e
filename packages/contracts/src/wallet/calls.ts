import { Interface } from "ethers";
import { ContractsError } from "../errors.js";
import { contentTokenExchangeAbi } from "../generated/contentTokenExchange.js";
import { slotgateAccountAbi } from "../generated/slotgateAccount.js";
import { xotnAbi } from "../generated/xotn.js";
import type { WalletCall } from "../sponsorship/user-operation.js";

// The calls a Slotgate wallet makes, as `calls` of prepareSponsoredUserOperation.

const exchangeInterface = new Interface(contentTokenExchangeAbi);
const erc20Interface = new Interface(xotnAbi);
const accountInterface = new Interface(slotgateAccountAbi);

function positive(value: bigint, what: string): bigint {
  if (typeof value !== "bigint" || value <= 0n) throw new ContractsError("invalid_argument", `${what} must be a positive bigint`);
  return value;
}

/**
 * ERC-20 `transfer(to, amount)` on `token` (XOTN or any ERC-20), paid from the calling wallet (spec 4.5).
 *
 * @param token - the token contract
 * @param to - the recipient
 * @param amount - token wei
 * @returns the wallet call
 *
 * @example
 * ```ts
 * const call = erc20TransferCall(addresses.xotn, recipient, 10n ** 18n);
 * ```
 */
export function erc20TransferCall(token: string, to: string, amount: bigint): WalletCall {
  return { to: token, data: erc20Interface.encodeFunctionData("transfer", [to, amount]) };
}

/**
 * ERC-20 `approve(spender, amount)` on `token`, e.g. the slot wallet letting the exchange pull XOTN
 * (for its own purchases, or within the per-cuid consent of {@link approvePurchasesCall}).
 *
 * @param token - the token contract
 * @param spender - who may spend
 * @param amount - token wei (`MaxUint256` for unlimited)
 * @returns the wallet call
 *
 * @example
 * ```ts
 * const call = erc20ApproveCall(addresses.xotn, addresses.exchange, MaxUint256);
 * ```
 */
export function erc20ApproveCall(token: string, spender: string, amount: bigint): WalletCall {
  return { to: token, data: erc20Interface.encodeFunctionData("approve", [spender, amount]) };
}

/**
 * The exchange's `buy_content_token(slot, cuid, amount)`, paid by the calling wallet, which must have
 * approved the exchange for `amount` XOTN first ({@link buyContentTokenCalls} makes both calls).
 *
 * @param exchange - exchange address
 * @param slot - slot wallet credited with content tokens
 * @param cuid - registered cuid
 * @param amount - XOTN wei to pay
 * @returns the wallet call
 *
 * @example
 * ```ts
 * const call = buyContentTokenCall(addresses.exchange, slotWallet, "game-1", 10n ** 18n);
 * ```
 */
export function buyContentTokenCall(exchange: string, slot: string, cuid: string, amount: bigint): WalletCall {
  return { to: exchange, data: exchangeInterface.encodeFunctionData("buy_content_token", [slot, cuid, amount]) };
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
 * The two calls a wallet makes to buy content tokens (spec 4.7 `user_buy_content_token`):
 * `XOTN.approve(exchange, amount)` then `exchange.buy_content_token(slot, cuid, amount)`. Pass them as
 * `calls` of {@link prepareSponsoredUserOperation}; they run atomically in one `executeBatch`.
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
  return [erc20ApproveCall(input.xotn, input.exchange, amount), buyContentTokenCall(input.exchange, input.slot, input.cuid, amount)];
}

/**
 * The call a slot wallet makes to consent that the platform's operator buys content tokens of `cuid`
 * for it, paid from its own XOTN, up to `amount` XOTN wei (`approve_purchases(cuid, amount)`; 0
 * withdraws the consent). The consent is per cuid: no other provider can spend it. The wallet must
 * also approve the exchange on XOTN ({@link erc20ApproveCall}); the exchange only ever pulls from a
 * slot for the slot's own purchase or within this consent.
 *
 * @param exchange - exchange address
 * @param cuid - the registered cuid the consent is for
 * @param amount - XOTN wei the operator may spend on this cuid
 * @returns the wallet call
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner, salt: C_SALT, calls: [
 *   erc20ApproveCall(addresses.xotn, addresses.exchange, MaxUint256),
 *   approvePurchasesCall(addresses.exchange, "game-1", 10n ** 18n),
 * ] });
 * ```
 */
export function approvePurchasesCall(exchange: string, cuid: string, amount: bigint): WalletCall {
  if (typeof amount !== "bigint" || amount < 0n) throw new ContractsError("invalid_argument", "amount must be a non-negative bigint");
  return { to: exchange, data: exchangeInterface.encodeFunctionData("approve_purchases", [cuid, amount]) };
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

/** Input of {@link slotSaleCalls}. */
export interface SlotSaleCallsInput {
  /** Exchange address. */
  exchange: string;
  /** XOTN address (the slot wallet's approval of the exchange is zeroed). */
  xotn: string;
  /** The slot's cuid. */
  cuid: string;
  /** The slot number within the cuid. */
  slot: bigint;
  /** The slot wallet: the UserOperation's sender. */
  slotWallet: string;
  /** The buyer's user wallet (W_SALT), the registry's new owner. */
  buyerWallet: string;
  /** The buyer's owner EOA, the slot wallet's new owner key. */
  buyerOwner: string;
}

/**
 * The calls a slot wallet makes to sell itself (one UserOperation, `executeBatch`, all or none):
 * the registry's owner becomes the buyer's user wallet (`change_slot_owner`, counted in `trCnt`; it also
 * ends every purchase consent the seller gave), the wallet's XOTN approval of the exchange is zeroed,
 * and the slot wallet's owner key becomes the buyer's owner EOA (`changeOwner` on itself). The address,
 * the balance and the used balances stay; the seller's key no longer validates for the wallet, and
 * nothing the seller set stays behind (docs/decisions/marketplace.md).
 *
 * @param input - the exchange and XOTN, the slot (`cuid`, `slot` number, its `slotWallet`) and the
 *   buyer's user wallet and owner EOA
 * @returns the three wallet calls, for `calls` of a UserOperation whose sender is `slotWallet`
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner: sellerOwner, sender: slotWallet,
 *   calls: slotSaleCalls({ exchange: addresses.exchange, xotn: addresses.xotn, cuid: "game-1", slot: 3n, slotWallet, buyerWallet, buyerOwner }) });
 * ```
 */
export function slotSaleCalls(input: SlotSaleCallsInput): WalletCall[] {
  return [
    changeSlotOwnerCall(input.exchange, input.cuid, input.slot, input.buyerWallet),
    erc20ApproveCall(input.xotn, input.exchange, 0n),
    { to: input.slotWallet, data: accountInterface.encodeFunctionData("changeOwner", [input.buyerOwner]) },
  ];
}

/**
 * The callData of a UserOperation that rotates the wallet's owner key (spec 4.10 recovery):
 * `changeOwner(newOwner)`, called on the wallet by the EntryPoint after the old owner's signature was
 * checked (no `execute` around it).
 *
 * @param newOwner - the new owner EOA
 * @returns `{ callData }`, usable as `calls` of {@link prepareSponsoredUserOperation}
 *
 * @example
 * ```ts
 * await sendSponsoredUserOperation({ ...context, owner: oldOwner, sender: userWallet, calls: changeOwnerCallData(newOwner.address) });
 * ```
 */
export function changeOwnerCallData(newOwner: string): { callData: string } {
  return { callData: accountInterface.encodeFunctionData("changeOwner", [newOwner]) };
}
