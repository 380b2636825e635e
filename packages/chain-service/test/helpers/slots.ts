import { randomBytes } from "node:crypto";
import { Wallet } from "ethers";
import type { ServiceContext } from "../../src/service-context.js";
import { registrationIdentity } from "../../src/slots/slots.js";
import { type LandedService, landedAnswer, newUserId, pinOf } from "./setup.js";

/** A registered cuid of a fresh client: its cuid, client id and AES key and IV. */
export async function newCuid(service: LandedService): Promise<{ cuid: string; clientId: string; key: string; iv: string }> {
  const clientId = `sg_${randomBytes(8).toString("hex")}`;
  const cuid = `slots-${randomBytes(4).toString("hex")}`;
  const provider = await service.initPermissionProvider({ client_id: clientId, cuid, release_per: 0, owner_addr: Wallet.createRandom().address });
  return { cuid, clientId, key: provider.aes_key!, iv: provider.aes_iv! };
}

/** A user with a registered PIN: its id, PIN, key share, user wallet and sealed backup of the words. */
export async function userWithPin(service: LandedService, pin = "246810") {
  const uuid = newUserId();
  const credentials = pinOf(pin);
  const registered = (await service.registerPin({ user_uuid: uuid, ...credentials })).data[0]!;
  return { uuid, pin: credentials, share: registered.key_share_user, wallet: registered.address, backup: registered.mnemonic };
}

/** Waits for a slot's `buy_slot` registration (a durable write its opening enqueued) to land. */
export async function registration(ctx: ServiceContext, cuid: string, metaIdx: number) {
  const write = await ctx.writes.earlier(registrationIdentity(cuid, metaIdx));
  if (write === null) throw new Error(`slot ${cuid}/${metaIdx} has no registration write`);
  return landedAnswer(await ctx.writes.outcome(write));
}
