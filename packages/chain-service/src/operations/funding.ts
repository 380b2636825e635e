import { MaxUint256 } from "ethers";
import { C_SALT, approvePurchasesCall, erc20ApproveCall } from "@slotgate/contracts";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { openStoredMnemonic } from "../keys/stored-mnemonic.js";
import { findCuidOwner } from "../storage/providers.js";
import { requireOwnCuid } from "../content-tokens/slots.js";
import { findKeys, findWallet } from "../storage/wallets.js";
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
  const amount = BigInt(args.xotn);
  settledAnswer(
    await platformWrite(ctx, platformIdentity("devFundSlot", [args]), {
      to: ctx.addresses.xotn,
      data: ctx.contracts.xotn.interface.encodeFunctionData("transfer", [wallet.contentAddress, amount]),
      answer: { kind: "transaction" },
    }),
  );
  const keys = await findKeys(ctx.db, wallet.userUuid);
  if (!keys) throw new ChainServiceError("internal_error", "the wallet's key records are missing");
  const [consent, allowance] = await Promise.all([
    ctx.contracts.exchange.purchase_allowance(wallet.contentAddress, args.cuid),
    ctx.contracts.xotn.allowance(wallet.contentAddress, ctx.addresses.exchange),
  ]);
  settledAnswer(
    await ctx.sponsored.send({
      sender: wallet.contentAddress,
      deployment: { initialOwner: wallet.initialOwner, salt: C_SALT },
      calls: [
        ...(allowance < MaxUint256 / 2n ? [erc20ApproveCall(ctx.addresses.xotn, ctx.addresses.exchange, MaxUint256)] : []),
        approvePurchasesCall(ctx.addresses.exchange, args.cuid, consent + amount),
      ],
      ownerKey: async () => ownerKeyFromMnemonic(await openStoredMnemonic(ctx, keys.mnemonic)).privateKey,
      identity: platformIdentity("devFundSlot.approve", [args]),
      budget: { userUuid: wallet.userUuid, cuid: args.cuid },
      answer: { shape: "operation" },
    }),
  );
  return { address: wallet.contentAddress };
}

/** @internal Platform operator: sends `xotn` wei of XOTN from the operator to a user's slot wallet (default) or user wallet. */
export async function fundWallet(
  ctx: ServiceContext,
  args: { user_uuid: number; xotn: string; wallet?: "slot" | "user" | undefined },
): Promise<{ tx_hash: string; address: string } | PendingWrite> {
  const wallet = await findWallet(ctx.db, args.user_uuid);
  if (!wallet) throw new ChainServiceError("wallet_not_found");
  const to = args.wallet === "user" ? wallet.address : wallet.contentAddress;
  return platformWrite<{ tx_hash: string; address: string }>(ctx, platformIdentity("fundWallet", [args]), {
    to: ctx.addresses.xotn,
    data: ctx.contracts.xotn.interface.encodeFunctionData("transfer", [to, BigInt(args.xotn)]),
    answer: { kind: "transaction", fields: { address: to } },
  });
}
