import { getAddress } from "ethers";
import { C_SALT, W_SALT, type WalletCall, encodeExecute, encodeExecuteBatch } from "@slotgate/contracts";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { wipe } from "../keys/wipe.js";
import { type PinCredentials, unlockOwnerKey } from "../pin/credentials.js";
import { findWallet } from "../storage/wallets.js";
import { buyContentToken, changeSlotOwner, erc20Approve, erc20Transfer } from "./wallet-calls.js";
import { findCuidOwner, rememberSlotCuid } from "../storage/providers.js";
import { specificError } from "../content/operator-call.js";

/**
 * What a PIN-gated request asks the wallet to do. Each kind becomes one sponsored UserOperation.
 *
 * - `verify_only`: check the PIN and the shares, sign nothing.
 * - `erc20_transfer`: ERC-20 `transfer` from the user's wallet or slot wallet (spec 4.5).
 * - `approve_purchases`: the slot wallet lets the platform's purchase agent (the operator) pull up
 *   to `amount` XOTN for `user_buy_content_token` purchases.
 * - `exchange_slot_owner`: the user wallet gives slot `meta_idx` of `cuid` to another user's wallet (spec 4.9).
 * - `buy_content_token`: the slot wallet buys content tokens itself, one operation with
 *   `executeBatch([XOTN.approve(exchange, amount), exchange.buy_content_token(slot, cuid, amount)])`.
 */
export type WalletOperation =
  | { kind: "verify_only" }
  | { kind: "erc20_transfer"; from_address: string; to_address: string; amount: string; contract_address: string }
  | { kind: "approve_purchases"; amount: string }
  | { kind: "exchange_slot_owner"; cuid: string; meta_idx: number; to_uuid: number }
  | { kind: "buy_content_token"; cuid: string; amount: string };

/** Answer of {@link ChainService.verifyPin}. */
export interface WalletOperationResponse {
  success: true;
  /** The user's wallet address. */
  address: string;
  /** The `handleOps` transaction, null for `verify_only`. */
  tx_hash: string | null;
  /** The EntryPoint operation hash, null for `verify_only`. */
  user_op_hash: string | null;
  /** True when this operation deployed the wallet it ran from (its first operation). */
  deployed_wallet: boolean;
  /** For `exchange_slot_owner`: the new owner's wallet. */
  new_owner?: string;
}

const UINT = /^(0|[1-9][0-9]{0,77})$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function amountOf(value: unknown, what = "amount"): bigint {
  if (typeof value !== "string" || !UINT.test(value) || value === "0") {
    throw new ChainServiceError("invalid_request", `${what} must be a positive integer string`);
  }
  return BigInt(value);
}

function addressOf(value: unknown, what: string): string {
  if (typeof value !== "string" || !ADDRESS.test(value)) throw new ChainServiceError("invalid_request", `${what} must be an address`);
  return getAddress(value);
}

/**
 * @internal `POST /v1/pin/verify` with an operation (spec 4.10 rule 6): restore the owner key in memory,
 * sign the sponsored UserOperation, wipe the key, submit.
 */
export async function runWalletOperation(
  ctx: ServiceContext,
  credentials: PinCredentials,
  operation: WalletOperation,
): Promise<WalletOperationResponse> {
  const plan = await planOperation(ctx, credentials.user_uuid, operation);
  const { key, wallet } = await unlockOwnerKey(ctx, credentials);
  if (plan === null) {
    wipe(key);
    return { success: true, address: wallet.address, tx_hash: null, user_op_hash: null, deployed_wallet: false };
  }
  const fromSlot = plan.from === "slot";
  const result = await ctx.sponsored
    .send({
      sender: fromSlot ? wallet.contentAddress : wallet.address,
      deployment: { initialOwner: wallet.initialOwner, salt: fromSlot ? C_SALT : W_SALT },
      callData: plan.calls.length === 1 ? encodeExecute(plan.calls[0] as WalletCall) : encodeExecuteBatch(plan.calls),
      ownerKey: key,
    })
    .catch((error: unknown) => {
      throw specificError(error);
    });
  if (plan.afterwards) await plan.afterwards(wallet.contentAddress);
  return {
    success: true,
    address: wallet.address,
    tx_hash: result.transactionHash,
    user_op_hash: result.userOpHash,
    deployed_wallet: result.deployedWallet,
    ...(plan.newOwner ? { new_owner: plan.newOwner } : {}),
  };
}

interface Plan {
  from: "user" | "slot";
  calls: WalletCall[];
  newOwner?: string;
  /** Bookkeeping after the operation landed. */
  afterwards?: (slot: string) => Promise<void>;
}

const CUID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

function cuidOf(value: unknown): string {
  if (typeof value !== "string" || !CUID.test(value)) throw new ChainServiceError("invalid_request", "cuid is invalid");
  return value;
}

/** Validates the operation and turns it into the wallet call, before the PIN is checked. */
async function planOperation(ctx: ServiceContext, userUuid: number, operation: WalletOperation): Promise<Plan | null> {
  const wallet = await findWallet(ctx.db, userUuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  switch (operation?.kind) {
    case "verify_only":
      return null;
    case "erc20_transfer": {
      const from = addressOf(operation.from_address, "from_address");
      const to = addressOf(operation.to_address, "to_address");
      const token = addressOf(operation.contract_address, "contract_address");
      const amount = amountOf(operation.amount);
      const side = from === getAddress(wallet.address) ? "user" : from === getAddress(wallet.contentAddress) ? "slot" : null;
      if (side === null) throw new ChainServiceError("not_owner", "from_address is not one of this user's wallets");
      return { from: side, calls: [erc20Transfer(token, to, amount)] };
    }
    case "approve_purchases":
      return { from: "slot", calls: [erc20Approve(ctx.addresses.xotn, ctx.operator.address, amountOf(operation.amount))] };
    case "buy_content_token": {
      const cuid = cuidOf(operation.cuid);
      const amount = amountOf(operation.amount);
      if ((await findCuidOwner(ctx.db, cuid)) === null) throw new ChainServiceError("provider_not_registered");
      return {
        from: "slot",
        calls: [
          erc20Approve(ctx.addresses.xotn, ctx.addresses.exchange, amount),
          buyContentToken(ctx.addresses.exchange, wallet.contentAddress, cuid, amount),
        ],
        afterwards: (slot) => rememberSlotCuid(ctx.db, slot, cuid),
      };
    }
    case "exchange_slot_owner": {
      if (!Number.isSafeInteger(operation.meta_idx) || operation.meta_idx < 0) {
        throw new ChainServiceError("invalid_request", "meta_idx must be a non-negative integer");
      }
      if (!Number.isSafeInteger(operation.to_uuid) || operation.to_uuid <= 0) {
        throw new ChainServiceError("invalid_request", "to_uuid must be a positive integer");
      }
      const target = await findWallet(ctx.db, operation.to_uuid);
      if (!target) throw new ChainServiceError("wallet_not_found", "the new owner has no wallet; they must register a PIN first");
      const slot = BigInt(operation.meta_idx);
      const owner = getAddress(await ctx.contracts.exchange.slot_owner(cuidOf(operation.cuid), slot));
      if (owner !== getAddress(wallet.address)) throw new ChainServiceError("not_owner", "from_uuid does not own this slot");
      return {
        from: "user",
        calls: [changeSlotOwner(ctx.addresses.exchange, operation.cuid, slot, target.address)],
        newOwner: target.address,
      };
    }
    default:
      throw new ChainServiceError("invalid_request", "operation.kind must be verify_only, erc20_transfer, approve_purchases, buy_content_token or exchange_slot_owner");
  }
}
