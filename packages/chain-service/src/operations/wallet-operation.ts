import { MaxUint256, ZeroAddress, getAddress } from "ethers";
import { isPendingWrite } from "@slotgate/protocol";
import type { PinOperation } from "@slotgate/protocol";
import {
  C_SALT,
  W_SALT,
  type WalletCall,
  approvePurchasesCall,
  buyContentTokenCall,
  erc20ApproveCall,
  erc20TransferCall,
  slotSaleCalls,
} from "@slotgate/contracts";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { wipe } from "../keys/wipe.js";
import { type PinCredentials, type UnlockedOwnerKey, unlockOwnerKey } from "../pin/credentials.js";
import { type WalletRecord, clearBackupPinOnly, findWallet } from "../storage/wallets.js";
import { requireSponsoredToken } from "./sponsorship-policy.js";
import { findCuidOwner } from "../storage/providers.js";
import { activeSlotRecord } from "../slots/slots.js";
import { type SlotRecord, findSlot, findSlotByWallet } from "../storage/slots.js";
import { chainOwner } from "../wallets/owner.js";
import { requireCleanSlotWallet } from "../chain/wallet-lock.js";
import type { OperationShape } from "../writes/answers.js";
import type { WriteEffect, WriteEffects } from "../writes/effects.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import type { WriteRecord } from "../storage/writes.js";

/**
 * @internal What a PIN-gated request asks the wallet to do: one of the wire's `PinOperation`s
 * (`POST /v1/pin/verify`), an ERC-20 transfer (`POST /v1/token/transfer`, spec 4.5) or a slot
 * exchange (spec 4.9). Each kind but `verify_only` becomes one sponsored UserOperation.
 */
export type WalletOperation =
  | PinOperation
  | { kind: "erc20_transfer"; from_address: string; to_address: string; amount: string; contract_address: string }
  | { kind: "exchange_slot_owner"; cuid: string; meta_idx: number; to_uuid: number };

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
  /**
   * `POST /v1/pin/verify` of a wallet whose client still holds a backup sealed under the PIN alone:
   * the backup words re-sealed under share_pin and key_share_user (`readMnemonicBackup`). Present once;
   * the client replaces its stored backup with it and discards the old one. Never stored with the
   * write: a retry of the request, or its lookup, does not show it again.
   */
  mnemonic?: string;
}

/** How a wallet operation's answer and bookkeeping differ by endpoint. */
export interface WalletOperationOptions {
  /** @default "wallet_operation" */
  shape?: OperationShape;
  /** Bookkeeping when it lands or fails, besides the operation's own. */
  effects?: WriteEffects;
  /** Re-seal a PIN-only backup and answer it as `mnemonic` (only `POST /v1/pin/verify` answers it). @default false */
  resealBackup?: boolean;
}

/**
 * @internal A PIN-gated wallet operation (spec 4.10 rule 6), step by step (a request sent again with its
 * idempotency key was answered at the surface, before any of them):
 * 1. plan the wallet call, checked against the records and the chain;
 * 2. check it against the chain: nonces, code, fees, the simulation of the call (`sponsored.check`);
 * 3. take the wallet's turn in this process;
 * 4. unlock the owner key with the PIN shares (`unlockOwnerKey`: the lockout, the shares, the key);
 * 5. sign and record it in one database transaction with the wallet's nonce and the sponsorship budgets
 *    (`sponsored.record`: no call to the node), the key wiped;
 * 6. wait for the write's outcome.
 * Every call to the node comes before the database transaction and the row locks it takes.
 */
export async function runWalletOperation(
  ctx: ServiceContext,
  credentials: PinCredentials,
  operation: WalletOperation,
  identity: WriteIdentity,
  options: WalletOperationOptions = {},
): Promise<Record<string, unknown> | PendingWrite> {
  const { wallet, plan } = await planOperation(ctx, credentials.user_uuid, operation);
  const unlock = { resealBackup: options.resealBackup === true };
  if (plan === null) {
    const { key, backup } = await unlockOwnerKey(ctx, credentials, unlock);
    wipe(key);
    await afterBackup(ctx, wallet.userUuid, backup);
    return { success: true, address: wallet.address, tx_hash: null, user_op_hash: null, deployed_wallet: false, ...withBackup(backup) };
  }
  const checked = await ctx.sponsored.check({
    ...plan.from,
    calls: plan.calls,
    identity,
    budget: { userUuid: credentials.user_uuid, cuid: plan.cuid },
    answer: {
      shape: options.shape ?? "wallet_operation",
      known: { address: wallet.address, ...(plan.newOwner ? { new_owner: plan.newOwner } : {}), ...plan.known },
    },
    effects: {
      confirmed: [...(plan.effects ?? []), ...(options.effects?.confirmed ?? [])],
      failed: options.effects?.failed ?? [],
    },
  });
  const release = await ctx.sponsored.walletTurn(plan.from.sender);
  let unlocked: UnlockedOwnerKey | undefined;
  let record: WriteRecord;
  try {
    unlocked = await unlockOwnerKey(ctx, credentials, unlock);
    record = await ctx.sponsored.record(checked, unlocked.key);
  } finally {
    release();
    wipe(unlocked?.key);
  }
  const answer = await ctx.writes.outcome(record);
  // The re-sealed backup is answered by this request only, once it is known to be answered.
  if (isPendingWrite(answer) || unlocked.backup === undefined) return answer;
  await afterBackup(ctx, wallet.userUuid, unlocked.backup);
  return { ...answer, ...withBackup(unlocked.backup) };
}

/** Once the answer carries the re-sealed backup, the wallet's backup is no longer PIN-only. */
async function afterBackup(ctx: ServiceContext, userUuid: number, backup: string | undefined): Promise<void> {
  if (backup !== undefined) await clearBackupPinOnly(ctx.db, userUuid);
}

const withBackup = (backup: string | undefined) => (backup === undefined ? {} : { mnemonic: backup });

/** The wallet a UserOperation runs from: its address and what deploys it on its first operation. */
interface Sender {
  sender: string;
  deployment: { initialOwner: string; salt: bigint };
}

const userSender = (wallet: WalletRecord): Sender => ({ sender: wallet.address, deployment: { initialOwner: wallet.initialOwner, salt: W_SALT } });
const slotSender = (slot: SlotRecord): Sender => ({ sender: getAddress(slot.wallet), deployment: { initialOwner: slot.openingOwner, salt: slot.salt } });

/**
 * The user's slot wallet at `address`: a slot the user owns per the records, or the user's C_SALT
 * wallet while it backs no slot yet; null otherwise (a slot sold away is no longer the user's).
 */
async function ownSlotSender(ctx: ServiceContext, wallet: WalletRecord, address: string): Promise<Sender | null> {
  const slot = await findSlotByWallet(ctx.db, address);
  if (slot) return slot.userUuid === wallet.userUuid ? slotSender(slot) : null;
  if (getAddress(address) !== getAddress(wallet.contentAddress)) return null;
  return { sender: getAddress(wallet.contentAddress), deployment: { initialOwner: wallet.initialOwner, salt: C_SALT } };
}

/** The active slot of `cuid` (opened when the user has none), where purchases land. */
async function activeSlotSender(ctx: ServiceContext, wallet: WalletRecord, cuid: string): Promise<Sender> {
  return slotSender((await activeSlotRecord(ctx, wallet.userUuid, cuid, true)) as SlotRecord);
}

interface Plan {
  from: Sender;
  calls: WalletCall[];
  /** The cuid the operation serves (its sponsorship counts against the cuid's budget too). */
  cuid?: string;
  newOwner?: string;
  /** More fields of the answer known now. */
  known?: Record<string, string | number>;
  /** Bookkeeping once the operation landed. */
  effects?: WriteEffect[];
}

/**
 * The slot's XOTN approval of the exchange when it is short of `needed`: unlimited, once. The exchange
 * pulls XOTN from a slot only for the slot's own `buy_content_token` or within the per-cuid consent of
 * `approve_purchases`, so the approval itself grants nobody anything.
 */
async function exchangeApproval(ctx: ServiceContext, slot: string, needed: bigint): Promise<WalletCall[]> {
  const allowance = await ctx.contracts.xotn.allowance(slot, ctx.addresses.exchange);
  return allowance >= needed ? [] : [erc20ApproveCall(ctx.addresses.xotn, ctx.addresses.exchange, MaxUint256)];
}

/** Turns the (parsed) operation into the wallet call, checking what the chain and the records say, before the PIN is checked. */
async function planOperation(ctx: ServiceContext, userUuid: number, operation: WalletOperation): Promise<{ wallet: WalletRecord; plan: Plan | null }> {
  const wallet = await findWallet(ctx.db, userUuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  return { wallet, plan: await planFor(ctx, wallet, operation) };
}

async function planFor(ctx: ServiceContext, wallet: WalletRecord, operation: WalletOperation): Promise<Plan | null> {
  switch (operation.kind) {
    case "verify_only":
      return null;
    case "erc20_transfer": {
      const from = getAddress(operation.from_address);
      const to = getAddress(operation.to_address);
      const token = getAddress(operation.contract_address);
      const amount = BigInt(operation.amount);
      const side = from === getAddress(wallet.address) ? userSender(wallet) : await ownSlotSender(ctx, wallet, from);
      if (side === null) throw new ChainServiceError("not_owner", "from_address is not one of this user's wallets");
      requireSponsoredToken(ctx.sponsorship, token);
      return { from: side, calls: [erc20TransferCall(token, to, amount)] };
    }
    case "approve_purchases": {
      if ((await findCuidOwner(ctx.db, operation.cuid)) === null) throw new ChainServiceError("provider_not_registered");
      const slot = await activeSlotSender(ctx, wallet, operation.cuid);
      return {
        from: slot,
        cuid: operation.cuid,
        calls: [
          ...(await exchangeApproval(ctx, slot.sender, MaxUint256 / 2n)),
          approvePurchasesCall(ctx.addresses.exchange, operation.cuid, BigInt(operation.amount)),
        ],
      };
    }
    case "revoke_purchases": {
      // The consent lives on the slot wallet that gave it: the user's active slot of the cuid (none: nothing to revoke).
      const active = await activeSlotRecord(ctx, wallet.userUuid, operation.cuid, false);
      if (!active) throw new ChainServiceError("slot_not_found", `no active slot of cuid ${operation.cuid}: there is no consent to revoke`);
      const slot = slotSender(active);
      return { from: slot, cuid: operation.cuid, calls: [approvePurchasesCall(ctx.addresses.exchange, operation.cuid, 0n)] };
    }
    case "buy_content_token": {
      const { cuid } = operation;
      const amount = BigInt(operation.amount);
      if ((await findCuidOwner(ctx.db, cuid)) === null) throw new ChainServiceError("provider_not_registered");
      const slot = await activeSlotSender(ctx, wallet, cuid);
      return {
        from: slot,
        cuid,
        calls: [...(await exchangeApproval(ctx, slot.sender, amount)), buyContentTokenCall(ctx.addresses.exchange, slot.sender, cuid, amount)],
        effects: [{ kind: "remember_slot_cuid", slot: slot.sender, cuid }],
      };
    }
    case "exchange_slot_owner": {
      // A sale hands the slot wallet over: one operation FROM THE SLOT WALLET (executeBatch) sets the
      // registry's owner to the buyer's user wallet (which ends the seller's consents), zeroes the
      // wallet's XOTN approval of the exchange and sets the slot wallet's owner key to the buyer's.
      const target = await findWallet(ctx.db, operation.to_uuid);
      if (!target) throw new ChainServiceError("wallet_not_found", "the new owner has no wallet; they must register a PIN first");
      const slot = await findSlot(ctx.db, operation.cuid, operation.meta_idx);
      if (!slot) throw new ChainServiceError("slot_not_found", `no slot ${operation.meta_idx} of cuid ${operation.cuid} was opened`);
      if (slot.userUuid !== wallet.userUuid) throw new ChainServiceError("not_owner", "from_uuid does not own this slot");
      const index = BigInt(operation.meta_idx);
      const [info, keyOwner] = await Promise.all([ctx.contracts.exchange.slot_info(operation.cuid, index), chainOwner(ctx, slot.wallet, slot.openingOwner)]);
      if (getAddress(info.owner) === ZeroAddress) {
        throw new ChainServiceError("service_unavailable", "the slot's registration on chain has not landed yet; send the request again shortly");
      }
      if (
        getAddress(info.owner) !== getAddress(wallet.address) ||
        getAddress(info.wallet) !== getAddress(slot.wallet) ||
        keyOwner !== getAddress(wallet.ownerEoa)
      ) {
        throw new ChainServiceError("not_owner", "from_uuid does not own this slot on chain");
      }
      // Nothing the seller set may outlive the sale: the wallet's code must be the factory's, as a slot wallet.
      await requireCleanSlotWallet(ctx, getAddress(slot.wallet));
      return {
        from: slotSender(slot),
        cuid: operation.cuid,
        calls: slotSaleCalls({
          exchange: ctx.addresses.exchange,
          xotn: ctx.addresses.xotn,
          cuid: operation.cuid,
          slot: index,
          slotWallet: getAddress(slot.wallet),
          buyerWallet: target.address,
          buyerOwner: target.ownerEoa,
        }),
        newOwner: target.address,
        // change_slot_owner is the only writer of trCnt, and the seller's key moves with the sale: no
        // other sale of this slot can land before this one, so the count after it is known now.
        known: { meta_idx: operation.meta_idx, tr_cnt: Number(info.trCnt) + 1 },
        effects: [{ kind: "move_slot", cuid: operation.cuid, meta_idx: operation.meta_idx, from_uuid: wallet.userUuid, to_uuid: target.userUuid }],
      };
    }
  }
}
