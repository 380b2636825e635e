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
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { SEALED_RECORD } from "../keys/sealed-secrets.js";
import { wipe } from "../keys/wipe.js";
import {
  claimIssuedKey,
  ensureProvider,
  findCuidOwner,
  findProvider,
  forgetUnissuedProvider,
  listCuids,
  type ProviderRecord,
  replaceProviderKey,
  setReplayProtection,
} from "../storage/providers.js";
import type { WriteRecord } from "../storage/writes.js";
import { ANSWER_SECRET_FIELD, type CallAnswer } from "../writes/answers.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import { platformWrite } from "../writes/platform-write.js";

/**
 * @internal `init_permission_provider`: the platform registers the cuid on the exchange (a durable
 * write; the cuid's record is kept when it lands). The client's AES key and IV are created with its
 * first registration and shown once, by that registration's first answer (see {@link presentAnswer};
 * they are read from the sealed provider record, never stored in the write); later registrations reuse
 * them and answer `key_issued: false`. A first registration that fails forgets the unissued key.
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
  const iv = randomBytes(16).toString("hex");
  let created: boolean;
  try {
    ({ created } = await ensureProvider(ctx.db, {
      clientId: input.client_id,
      aesKeyEnc: ctx.sealer.seal(key, SEALED_RECORD.providerKey(input.client_id, iv)),
      aesIv: iv,
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
        confirmed: [
          { kind: "insert_cuid", cuid: input.cuid, client_id: input.client_id, release_per: input.release_per, owner_addr: getAddress(input.owner_addr) },
        ],
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
 * @internal Shows a confirmed write's stored answer. A provider registration answers `key_issued`;
 * the registration that issued the client's AES key and IV shows them once: in the first answer given
 * for it (to the request, a retry under its Idempotency-Key or a write lookup, whichever comes first),
 * and only while they are still the client's key (a rotation before that shows its own key, once).
 * Every later answer says `key_issued: true` without them: a lost key is replaced by rotating it.
 */
export async function presentAnswer(
  ctx: Pick<ServiceContext, "db" | "sealer">,
  record: Pick<WriteRecord, "result" | "payload">,
): Promise<Record<string, unknown>> {
  const result = record.result ?? {};
  const clientId = result[ANSWER_SECRET_FIELD];
  if (typeof clientId !== "string") {
    // Registrations recorded before `key_issued` was part of the stored answer issued no key.
    const provider = (record.payload["answer"] as CallAnswer | undefined)?.kind === "provider";
    return provider && !("key_issued" in result) ? { ...result, key_issued: false } : result;
  }
  const { [ANSWER_SECRET_FIELD]: _, ...rest } = result;
  const shown = { ...rest, key_issued: true };
  const provider = await findProvider(ctx.db, clientId);
  if (!provider || provider.keyShownAt || provider.keyRotatedAt) return shown;
  // Opened before it is claimed: a key that fails its integrity check is refused with nothing changed.
  const key = openProviderKey(ctx, provider);
  try {
    return (await claimIssuedKey(ctx.db, clientId, provider.aesKeyEnc)) ? { ...shown, aes_key: key.toString("hex"), aes_iv: provider.aesIv } : shown;
  } finally {
    wipe(key);
  }
}

/** @internal A provider's current AES key (or, with `previous`, the one before its last rotation), opened; the caller wipes it. */
export function openProviderKey(ctx: Pick<ServiceContext, "sealer">, provider: ProviderRecord, previous = false): Buffer {
  const sealed = previous ? provider.previous : { aesKeyEnc: provider.aesKeyEnc, aesIv: provider.aesIv };
  if (!sealed) throw new ChainServiceError("internal_error", "the provider has no previous key");
  return ctx.sealer.open(sealed.aesKeyEnc, SEALED_RECORD.providerKey(provider.clientId, sealed.aesIv));
}

/** @internal The provider's AES key (caller wipes) and IV, or `provider_not_registered`. */
export async function providerKey(ctx: ServiceContext, clientId: string) {
  const provider = await findProvider(ctx.db, clientId);
  if (!provider) throw new ChainServiceError("provider_not_registered", "this client has no provider registration (init_permission_provider first)");
  return { provider, key: openProviderKey(ctx, provider) };
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
    const replaced = await replaceProviderKey(
      ctx.db,
      clientId,
      { aesKeyEnc: ctx.sealer.seal(key, SEALED_RECORD.providerKey(clientId, iv)), aesIv: iv },
      until,
      now,
    );
    if (!replaced) throw new ChainServiceError("provider_not_registered", "this client has no provider registration (init_permission_provider first)");
    return { success: true, client_id: clientId, aes_key: key.toString("hex"), aes_iv: iv, previous_key_valid_until: until ? until.toISOString() : null };
  } finally {
    wipe(key);
  }
}
