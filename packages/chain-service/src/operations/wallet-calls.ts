import { Interface } from "ethers";
import { type WalletCall, contentTokenExchangeAbi, slotgateAccountAbi, xotnAbi } from "@slotgate/contracts";

const erc20 = new Interface(xotnAbi);
const exchange = new Interface(contentTokenExchangeAbi);
const account = new Interface(slotgateAccountAbi);

/** ERC-20 `transfer(to, amount)` on `token`. */
export function erc20Transfer(token: string, to: string, amount: bigint): WalletCall {
  return { to: token, data: erc20.encodeFunctionData("transfer", [to, amount]) };
}

/** ERC-20 `approve(spender, amount)` on `token`. */
export function erc20Approve(token: string, spender: string, amount: bigint): WalletCall {
  return { to: token, data: erc20.encodeFunctionData("approve", [spender, amount]) };
}

/** Exchange `change_slot_owner(cuid, slot, newOwner)`, called by the current owner's wallet (spec 4.9). */
export function changeSlotOwner(exchangeAddress: string, cuid: string, slot: bigint, newOwner: string): WalletCall {
  return { to: exchangeAddress, data: exchange.encodeFunctionData("change_slot_owner", [cuid, slot, newOwner]) };
}

/** The wallet's own `changeOwner(newOwner)` (spec 4.10 recovery), executed by the wallet itself. */
export function changeOwner(wallet: string, newOwner: string): WalletCall {
  return { to: wallet, data: account.encodeFunctionData("changeOwner", [newOwner]) };
}

/** Exchange `buy_content_token(slot, cuid, amount)`, paid by the calling wallet. */
export function buyContentToken(exchangeAddress: string, slot: string, cuid: string, amount: bigint): WalletCall {
  return { to: exchangeAddress, data: exchange.encodeFunctionData("buy_content_token", [slot, cuid, amount]) };
}
