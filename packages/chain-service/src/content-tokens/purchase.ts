import { parseEther } from "ethers";
import type { UserBuyContentTokenRequest, UserBuyContentTokenResponse } from "@slotgate/protocol";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { findCuidOwner } from "../storage/providers.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import { platformWrite } from "../writes/platform-write.js";
import { purchaseSlotOf, requireOwnCuid } from "./slots.js";

/** `"1.5"` is ether, `"1500"` is wei. */
function xotnWei(amount: string): bigint {
  return amount.includes(".") ? parseEther(amount) : BigInt(amount);
}

/**
 * @internal `user_buy_content_token`, one atomic transaction: the operator calls
 * `buy_for(slot, cuid, amount)`, in which the exchange checks the consent the slot gave for this cuid
 * (`approve_purchases`, a PIN-signed operation of the user), reduces it, and pulls the XOTN straight
 * from the slot: 15% treasury, 85% provider, tokens 1:1 to the slot. The caller must own the cuid, so a
 * provider can only spend what a user made available to its own cuid; nothing is ever held by the
 * operator in between. It is a durable write: a retry with its idempotency key answers the first
 * outcome, and it lands once whichever instance sends it.
 */
export async function buyContentToken(
  ctx: ServiceContext,
  input: UserBuyContentTokenRequest,
  identity: WriteIdentity,
): Promise<UserBuyContentTokenResponse | PendingWrite> {
  requireOwnCuid(input.client_id, input.cuid, await findCuidOwner(ctx.db, input.cuid));
  // Checked before anything is recorded: a refused purchase opens no slot.
  const target = await purchaseSlotOf(ctx, input.user_dbkey, input.cuid);
  const amount = xotnWei(input.amount);
  const { xotn, exchange } = ctx.contracts;
  const noConsent = () =>
    new ChainServiceError(
      "insufficient_allowance",
      "The user has not consented to purchases of this much XOTN for this cuid (POST /v1/pin/verify with approve_purchases and the cuid).",
    );
  if (target.wallet === null) throw noConsent();
  const [consent, allowance, balance] = await Promise.all([
    exchange.purchase_allowance(target.wallet, input.cuid),
    xotn.allowance(target.wallet, ctx.addresses.exchange),
    xotn.balanceOf(target.wallet),
  ]);
  if (consent < amount || allowance < amount) throw noConsent();
  if (balance < amount) throw new ChainServiceError("insufficient_balance", "The slot wallet holds less XOTN than the amount.");
  const slot = target.open ? await target.open() : target.wallet;
  return platformWrite<UserBuyContentTokenResponse & Record<string, unknown>>(ctx, identity, {
    to: ctx.addresses.exchange,
    data: exchange.interface.encodeFunctionData("buy_for", [slot, input.cuid, amount]),
    answer: { kind: "purchase" },
    effects: { confirmed: [{ kind: "remember_slot_cuid", slot, cuid: input.cuid }] },
  });
}
