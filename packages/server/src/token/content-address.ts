import type { Services } from "../app/services.js";
import { runAsVerifiedUser } from "../chain/caller-assertions.js";
import type { ClientRow } from "../storage/clients.js";

/**
 * What a blockchain client's answers (the token response, spec 2.2, and slot info, spec 2.3) say about
 * the user's slot: `content_address` and `tr_cnt`, plus `cu_id` and `meta_idx` when a slot backs them.
 */
export interface ContentSlot {
  /** The wallet that holds the user's content tokens for this client (see {@link contentSlotOf}). */
  content_address: string;
  /** Ownership transfers of that slot, read from the chain (0 while unregistered, and without a slot). */
  tr_cnt: number;
  /** The slot's cuid: the first cuid the client registered. Absent when the client registered none. */
  cu_id?: string;
  /** The slot's number within `cu_id`. Absent when the client registered no cuid. */
  meta_idx?: number;
}

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
export async function cuidOfClient(services: Services, clientId: string): Promise<string | null> {
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
 * token response and slot info (docs/decisions/marketplace.md, issue 16):
 * - a client that registered a cuid: the user's ACTIVE slot of that cuid (its slot wallet and its
 *   chain `tr_cnt`), opened (records only; its `buy_slot` is a queued platform write) when the user has
 *   no active slot of the cuid yet;
 * - a blockchain client without a cuid: the user's C_SALT wallet (spec 2.6), provisioned on first need, `tr_cnt` 0;
 * - not a blockchain client, or the server runs without a chain (`CHAIN=off`): undefined, no address is made up.
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
  if (cuid === null) return { content_address: (await chain.provisionWallet(userUuid)).content_address, tr_cnt: 0 };
  // The code (or refresh token, or device code) just proved the user: the slot is looked up for them.
  const slot = await runAsVerifiedUser(userUuid, () => chain.activeSlot(userUuid, cuid, { create: true }));
  if (!slot) throw new Error(`activeSlot(create) answered no slot for user ${userUuid} and cuid ${cuid}`);
  return { content_address: slot.slot, tr_cnt: slot.tr_cnt, cu_id: slot.cuid, meta_idx: slot.meta_idx };
}
