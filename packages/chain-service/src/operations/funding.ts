import { MaxUint256, getAddress } from "ethers";
import { approvePurchasesCall, erc20ApproveCall } from "@slotgate/contracts";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { openStoredMnemonic } from "../keys/stored-mnemonic.js";
import { findCuidOwner } from "../storage/providers.js";
import { requireOwnCuid } from "../content-tokens/slots.js";
import { activeSlotRecord } from "../slots/slots.js";
import { type SlotRecord, findSlotByWallet, slotsOf } from "../storage/slots.js";
import { type WalletRecord, findKeys, findWallet } from "../storage/wallets.js";
import { provisionWallet } from "../wallets/provision.js";
import { type PendingWrite, settledAnswer } from "../writes/engine.js";
import { platformIdentity, platformWrite } from "../writes/platform-write.js";

/**
 * @internal Development and conformance only (a development chain): makes `user_uuid`'s slot wallet ready
 * to buy `xotn` wei of `cuid` content tokens, and nothing more. The cuid must be the calling client's.
 * Provisions the wallet when the user has none (a later PIN registration claims it), sends `xotn` wei
 * of XOTN from the operator, and raises the slot's consent for that cuid by `xotn` (`approve_purchases`,
 * plus the slot's XOTN approval of the exchange the first time) with an operation signed by the
 * stored owner key: the same consent a user gives with a PIN-signed `approve_purchases`, for that
 * provider only. Refused on a real chain: there only the user's PIN signs.
 */
export async function devFundSlot(
  ctx: ServiceContext,
  args: { user_uuid: number; xotn: string; cuid: string; client_id: string },
): Promise<{ address: string }> {
  if (!ctx.development) {
    throw new ChainServiceError("service_unavailable", "devFundSlot is only available on a development chain");
  }
  requireOwnCuid(args.client_id, args.cuid, await findCuidOwner(ctx.db, args.cuid));
  const wallet = await provisionWallet(ctx, args.user_uuid);
  // The user's ACTIVE slot of the cuid (opened when there is none) is where purchases land.
  const slot = (await activeSlotRecord(ctx, wallet.userUuid, args.cuid, true)) as SlotRecord;
  const slotWallet = getAddress(slot.wallet);
  const amount = BigInt(args.xotn);
  settledAnswer(
    await platformWrite(ctx, platformIdentity("devFundSlot", [args]), {
      to: ctx.addresses.xotn,
      data: ctx.contracts.xotn.interface.encodeFunctionData("transfer", [slotWallet, amount]),
      answer: { kind: "transaction" },
    }),
  );
  const keys = await findKeys(ctx.db, wallet.userUuid);
  if (!keys) throw new ChainServiceError("internal_error", "the wallet's key records are missing");
  const [consent, allowance] = await Promise.all([
    ctx.contracts.exchange.purchase_allowance(slotWallet, args.cuid),
    ctx.contracts.xotn.allowance(slotWallet, ctx.addresses.exchange),
  ]);
  settledAnswer(
    await ctx.sponsored.send(
      {
        sender: slotWallet,
        deployment: { initialOwner: slot.openingOwner, salt: slot.salt },
        calls: [
          ...(allowance < MaxUint256 / 2n ? [erc20ApproveCall(ctx.addresses.xotn, ctx.addresses.exchange, MaxUint256)] : []),
          approvePurchasesCall(ctx.addresses.exchange, args.cuid, consent + amount),
        ],
        identity: platformIdentity("devFundSlot.approve", [args]),
        budget: { userUuid: wallet.userUuid, cuid: args.cuid },
        answer: { shape: "operation" },
      },
      ownerKeyFromMnemonic(await openStoredMnemonic(ctx, keys.mnemonic)).privateKey,
    ),
  );
  return { address: slotWallet };
}

/** @internal Platform operator: sends `xotn` wei of XOTN from the operator to a user's slot wallet (default) or user wallet. */
export async function fundWallet(
  ctx: ServiceContext,
  args: { user_uuid: number; xotn: string; wallet?: "slot" | "user" | undefined },
): Promise<{ tx_hash: string; address: string } | PendingWrite> {
  const wallet = await findWallet(ctx.db, args.user_uuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  const to = args.wallet === "user" ? wallet.address : await defaultSlotWallet(ctx, wallet);
  return platformWrite<{ tx_hash: string; address: string }>(ctx, platformIdentity("fundWallet", [args]), {
    to: ctx.addresses.xotn,
    data: ctx.contracts.xotn.interface.encodeFunctionData("transfer", [to, BigInt(args.xotn)]),
    answer: { kind: "transaction", fields: { address: to } },
  });
}

/**
 * The slot wallet `fundWallet` sends to when no cuid is named: the user's C_SALT wallet while no other
 * user owns it, else the user's first active slot, else the first slot the user owns.
 */
async function defaultSlotWallet(ctx: ServiceContext, wallet: WalletRecord): Promise<string> {
  const cSalt = await findSlotByWallet(ctx.db, wallet.contentAddress);
  if (!cSalt || cSalt.userUuid === wallet.userUuid) return getAddress(wallet.contentAddress);
  const own = await slotsOf(ctx.db, wallet.userUuid);
  const slot = own.find((s) => s.active) ?? own[0];
  if (!slot) throw new ChainServiceError("slot_not_found", "this user owns no slot wallet (their first one was sold); open a slot first");
  return getAddress(slot.wallet);
}
