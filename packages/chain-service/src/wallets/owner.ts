import { getAddress } from "ethers";
import { connectAccount } from "@slotgate/contracts";
import type { ServiceContext } from "../service-context.js";

/**
 * @internal The owner EOA a wallet answers to on chain: `owner()` once deployed, else the owner its
 * address was computed from (`initialOwner`, which its deploying initCode installs).
 */
export async function chainOwner(ctx: ServiceContext, wallet: string, initialOwner: string): Promise<string> {
  const code = await ctx.provider.getCode(wallet);
  if (code === "0x") return getAddress(initialOwner);
  return getAddress(await connectAccount(wallet, ctx.provider).owner());
}
