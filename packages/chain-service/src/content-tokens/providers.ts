import { randomBytes } from "node:crypto";
import { getAddress } from "ethers";
import type {
  InitPermissionProviderRequest,
  InitPermissionProviderResponse,
  ProviderKeyRotation,
  ProviderStatus,
  TestEncryptionRequest,
  TestEncryptionResponse,
} from "@slotgate/protocol";
import { encryptHex } from "@slotgate/protocol/crypto";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { openBytes, sealBytes } from "../keys/envelope.js";
import { wipe } from "../keys/wipe.js";
import { ensureProvider, findCuidOwner, findProvider, forgetUnissuedProvider, listCuids, replaceProviderKey, setReplayProtection } from "../storage/providers.js";
import { ANSWER_SECRET_FIELD } from "../writes/answers.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import { platformWrite } from "../writes/platform-write.js";

/**
 * @internal `init_permission_provider`: the platform registers the cuid on the exchange (a durable
 * write; the cuid's record is kept when it lands). The client's AES key and IV are created with its
 * first registration and shown by that registration's answer only (they are read from the sealed
 * provider record when the answer is shown, never stored in it); later registrations reuse them. A
 * first registration that fails forgets the unissued key.
 */
export async function initPermissionProvider(
  ctx: ServiceContext,
  input: InitPermissionProviderRequest,
  identity: WriteIdentity,
): Promise<InitPermissionProviderResponse | PendingWrite> {
  if ((await findCuidOwner(ctx.db, input.cuid)) !== null) throw new ChainServiceError("cuid_taken");
  const onChain = await ctx.contracts.exchange.get_provider(input.cuid);
  if (onChain.registered) throw new ChainServiceError("cuid_taken");
  const key = randomBytes(32);
  let created: boolean;
  try {
    ({ created } = await ensureProvider(ctx.db, {
      clientId: input.client_id,
      aesKeyEnc: sealBytes(key, ctx.kek),
      aesIv: randomBytes(16).toString("hex"),
      replayProtection: false,
    }));
  } finally {
    wipe(key);
  }
  const unissued = created ? [{ kind: "forget_unissued_provider" as const, client_id: input.client_id }] : [];
  try {
    return await platformWrite<InitPermissionProviderResponse & Record<string, unknown>>(ctx, identity, {
      to: ctx.addresses.exchange,
      data: ctx.contracts.exchange.interface.encodeFunctionData("init_permission_provider", [
        input.client_id,
        input.cuid,
        input.release_per,
        getAddress(input.owner_addr),
      ]),
      answer: { kind: "provider", client_id: input.client_id, issues_key: created },
      effects: {
        confirmed: [{ kind: "insert_cuid", cuid: input.cuid, client_id: input.client_id, release_per: input.release_per, owner_addr: getAddress(input.owner_addr) }],
        failed: unissued,
      },
    });
  } catch (error) {
    // Refused before anything was recorded (the estimate reverted): the key was never issued.
    if (created) await forgetUnissuedProvider(ctx.db, input.client_id);
    throw error;
  }
}

/**
 * @internal Shows a stored answer: a first registration's answer names the client whose AES key and IV
 * it issued; they are opened from the provider record here.
 */
export async function presentAnswer(ctx: Pick<ServiceContext, "db" | "kek">, result: Record<string, unknown>): Promise<Record<string, unknown>> {
  const clientId = result[ANSWER_SECRET_FIELD];
  if (typeof clientId !== "string") return result;
  const { [ANSWER_SECRET_FIELD]: _, ...rest } = result;
  const provider = await findProvider(ctx.db, clientId);
  if (!provider) return rest;
  const key = openBytes(provider.aesKeyEnc, ctx.kek);
  try {
    return { ...rest, aes_key: key.toString("hex"), aes_iv: provider.aesIv };
  } finally {
    wipe(key);
  }
}

/** @internal The provider's AES key (caller wipes) and IV, or `provider_not_registered`. */
export async function providerKey(ctx: ServiceContext, clientId: string) {
  const provider = await findProvider(ctx.db, clientId);
  if (!provider) throw new ChainServiceError("provider_not_registered", "this client has no provider registration (init_permission_provider first)");
  return { provider, key: openBytes(provider.aesKeyEnc, ctx.kek) };
}

/** @internal `test_encryption`: the provider's key and IV applied to `test_string`. */
export async function testEncryption(ctx: ServiceContext, input: TestEncryptionRequest): Promise<TestEncryptionResponse> {
  const { provider, key } = await providerKey(ctx, input.client_id);
  try {
    return { success: true, encrypted_string: encryptHex(input.test_string, key.toString("hex"), provider.aesIv) };
  } finally {
    wipe(key);
  }
}

/** @internal Switches the opt-in spend replay protection of a provider. */
export async function setSpendReplayProtection(ctx: ServiceContext, clientId: string, enabled: boolean): Promise<void> {
  if (!(await setReplayProtection(ctx.db, clientId, enabled))) throw new ChainServiceError("provider_not_registered");
}

/**
 * @internal A client's provider side: whether it has a key, its replay protection, the key's rotation
 * state and its cuids with their release share and flag (a client without a record answers
 * `registered: false` and no cuids).
 */
export async function providerStatus(ctx: ServiceContext, clientId: string): Promise<ProviderStatus> {
  const provider = await findProvider(ctx.db, clientId);
  const cuids = provider ? await listCuids(ctx.db, clientId) : [];
  const previous = provider?.previous && provider.previous.validUntil.getTime() > ctx.now().getTime() ? provider.previous.validUntil.toISOString() : null;
  return {
    success: true,
    client_id: clientId,
    registered: provider !== null,
    replay_protection: provider?.replayProtection ?? false,
    key_rotated_at: provider?.keyRotatedAt ? provider.keyRotatedAt.toISOString() : null,
    previous_key_valid_until: previous,
    cuids: cuids.map((c) => ({ cuid: c.cuid, release_per: c.releasePer, release_enabled: c.releaseEnabled, owner_addr: c.ownerAddr, tx_hash: c.txHash })),
  };
}

/**
 * @internal Rotates a provider's AES key and IV: the new ones are answered once (sealed in the record,
 * never stored in clear); spend messages under the previous ones are still accepted for
 * `overlapSeconds`, then refused (`invalid_encrypted_message`). A rotation inside the window ends the
 * older key at once. `provider_not_registered` without a provider record.
 */
export async function rotateProviderKey(ctx: ServiceContext, clientId: string, overlapSeconds: number): Promise<ProviderKeyRotation> {
  const now = ctx.now();
  const until = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
  const key = randomBytes(32);
  const iv = randomBytes(16).toString("hex");
  try {
    const replaced = await replaceProviderKey(ctx.db, clientId, { aesKeyEnc: sealBytes(key, ctx.kek), aesIv: iv }, until, now);
    if (!replaced) throw new ChainServiceError("provider_not_registered", "this client has no provider registration (init_permission_provider first)");
    return { success: true, client_id: clientId, aes_key: key.toString("hex"), aes_iv: iv, previous_key_valid_until: until ? until.toISOString() : null };
  } finally {
    wipe(key);
  }
}
