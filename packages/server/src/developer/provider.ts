import type { ChainService, WriteOptions } from "@slotgate/chain-service";
import type { InitPermissionProviderResponse, PendingWriteResponse as PendingWrite, ProviderKeyRotation, ProviderStatus } from "@slotgate/protocol";
import { isPendingWrite } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";
import { insertClientAudit } from "../oauth/clients/clients-store.js";
import { type Actor, ownedClient } from "./manage.js";

/** What the provider side needs: the database (ownership, audit), the chain service and the key-rotation overlap. */
export interface ProviderDeps {
  db: Queryable;
  chain: ChainService;
  /** `PROVIDER_KEY_OVERLAP_SECONDS`. */
  keyOverlapSeconds: number;
}

/** The client's provider side (key state, replay protection, cuids with release share and flag). */
export async function providerOf(deps: ProviderDeps, actor: Actor, clientId: string): Promise<ProviderStatus> {
  await ownedClient(deps, actor, clientId);
  return deps.chain.providerStatus(clientId);
}

/**
 * Registers a cuid for the client (`init_permission_provider`, a chain write that keeps `write`'s
 * idempotency key); the client's first registration answers its AES key and IV, once (a retry or a
 * lookup of it answers `key_issued: true` without them).
 */
export async function registerCuid(
  deps: ProviderDeps,
  actor: Actor,
  clientId: string,
  request: { cuid: string; release_per: number; owner_addr: string },
  write: WriteOptions,
): Promise<InitPermissionProviderResponse | PendingWrite> {
  await ownedClient(deps, actor, clientId);
  const answer = await deps.chain.initPermissionProvider({ client_id: clientId, ...request }, write);
  await insertClientAudit(deps.db, clientId, actor.label, "provider.cuid_registered", {
    ...request,
    ...(isPendingWrite(answer)
      ? { write_id: answer.write_id }
      : { tx_hash: answer.tx_hash, key_issued: answer.key_issued, key_shown: answer.aes_key !== undefined }),
  });
  return answer;
}

/** Turns the spend replay protection on or off. */
export async function setReplayProtection(deps: ProviderDeps, actor: Actor, clientId: string, enabled: boolean): Promise<ProviderStatus> {
  await ownedClient(deps, actor, clientId);
  await deps.chain.setSpendReplayProtection(clientId, enabled);
  await insertClientAudit(deps.db, clientId, actor.label, "provider.replay_protection", { enabled });
  return deps.chain.providerStatus(clientId);
}

/** New AES key and IV (answered once); the previous ones decrypt for `keyOverlapSeconds` more. */
export async function rotateProviderKey(deps: ProviderDeps, actor: Actor, clientId: string): Promise<ProviderKeyRotation> {
  await ownedClient(deps, actor, clientId);
  const rotation = await deps.chain.rotateProviderKey(clientId, deps.keyOverlapSeconds);
  await insertClientAudit(deps.db, clientId, actor.label, "provider.key_rotated", { previous_key_valid_until: rotation.previous_key_valid_until });
  return rotation;
}
