import type { Services } from "../app/services.js";
import type { ClientRow } from "../storage/clients.js";

/**
 * The user's slot wallet (`content_address`, spec 2.2 and 2.6) for a blockchain client: the chain
 * service's wallet of the user, provisioned (not deployed) on first need. Undefined when the client
 * is not a blockchain client or the server runs without a chain (`CHAIN=off`): then there is no
 * address to give, and none is made up.
 *
 * @example
 * ```ts
 * const address = await contentAddressOf(services, result.userId, client);
 * if (address) answer.content_address = address;
 * ```
 */
export async function contentAddressOf(services: Services, userId: string, client: Pick<ClientRow, "blockchain">): Promise<string | undefined> {
  if (!client.blockchain || !services.chain) return undefined;
  return (await services.chain.service.provisionWallet(Number(userId))).content_address;
}
