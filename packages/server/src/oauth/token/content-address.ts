import type { Services } from "../../platform/app/services.js";
import { runAsVerifiedUser } from "../../chain-api/chain/caller-assertions.js";
import type { ClientRow } from "../clients/clients-store.js";
import type { ContentSlot } from "@slotgate/chain-service";

/** client_id → its first registered cuid. A registration is permanent, so a found cuid is kept. */
const cuidByClient = new WeakMap<Services, Map<string, string>>();

/**
 * The first cuid `clientId` registered (`init_permission_provider`, oldest first), or null when it
 * registered none (asked again next time: a client may register one later).
 *
 * @example
 * ```ts
 * const cuid = await cuidOfClient(services, client.client_id); // "my-game" | null
 * ```
 */
async function cuidOfClient(services: Services, clientId: string): Promise<string | null> {
  const chain = services.chain?.service;
  if (!chain) return null;
  const known = cuidByClient.get(services) ?? new Map<string, string>();
  cuidByClient.set(services, known);
  const cached = known.get(clientId);
  if (cached !== undefined) return cached;
  const first = (await chain.providerStatus(clientId)).cuids[0]?.cuid ?? null;
  if (first !== null) known.set(clientId, first);
  return first;
}

/**
 * The user's slot for a blockchain client, the ONE answer of `content_address` (and `tr_cnt`) for the
 * token response and slot info (docs/decisions/marketplace.md, issues 16 and 28): the chain service's
 * `contentSlot` for the client's first registered cuid (the user's active slot of it, opened when
 * none), or without a cuid (the user's C_SALT wallet while it is theirs, after its sale their W_SALT
 * wallet). It never names a wallet the user no longer owns, and `tr_cnt` is read from the chain.
 * Not a blockchain client, or the server runs without a chain (`CHAIN=off`): undefined, no address is made up.
 *
 * @example
 * ```ts
 * const slot = await contentSlotOf(services, result.userId, client);
 * if (slot) answer.content_address = slot.content_address;
 * ```
 */
export async function contentSlotOf(services: Services, userId: string, client: Pick<ClientRow, "blockchain" | "client_id">): Promise<ContentSlot | undefined> {
  if (!client.blockchain || !services.chain) return undefined;
  const chain = services.chain.service;
  const userUuid = Number(userId);
  const cuid = await cuidOfClient(services, client.client_id);
  // The code (or refresh token, or device code) just proved the user: the slot is looked up for them.
  return runAsVerifiedUser(userUuid, () => (cuid === null ? chain.contentSlot(userUuid) : chain.contentSlot(userUuid, cuid)));
}
