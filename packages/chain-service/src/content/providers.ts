import { randomBytes } from "node:crypto";
import { getAddress } from "ethers";
import type {
  InitPermissionProviderRequest,
  InitPermissionProviderResponse,
  TestEncryptionRequest,
  TestEncryptionResponse,
} from "@slotgate/protocol";
import { encryptHex } from "@slotgate/protocol/crypto";
import { initPermissionProviderSchema, testEncryptionSchema } from "@slotgate/protocol/schemas";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { openBytes, sealBytes } from "../keys/envelope.js";
import { wipe } from "../keys/wipe.js";
import { ensureProvider, findCuidOwner, findProvider, insertCuid, setReplayProtection } from "../storage/providers.js";
import { parseInput } from "../validate.js";
import { operatorCall } from "./operator-call.js";

/**
 * @internal `init_permission_provider`: the platform registers the cuid on the exchange, then the
 * provider's AES key and IV are created on its first registration (answered once) and reused after.
 */
export async function initPermissionProvider(
  ctx: ServiceContext,
  request: InitPermissionProviderRequest,
): Promise<InitPermissionProviderResponse> {
  const input = parseInput(initPermissionProviderSchema, request);
  if ((await findCuidOwner(ctx.db, input.cuid)) !== null) throw new ChainServiceError("cuid_taken");
  const onChain = await ctx.contracts.exchange.get_provider(input.cuid);
  if (onChain.registered) throw new ChainServiceError("cuid_taken");
  const receipt = await operatorCall(
    ctx,
    ctx.addresses.exchange,
    ctx.contracts.exchange.interface.encodeFunctionData("init_permission_provider", [
      input.client_id,
      input.cuid,
      input.release_per,
      getAddress(input.owner_addr),
    ]),
  );
  const key = randomBytes(32);
  try {
    const { provider, created } = await ensureProvider(ctx.db, {
      clientId: input.client_id,
      aesKeyEnc: sealBytes(key, ctx.kek),
      aesIv: randomBytes(16).toString("hex"),
      replayProtection: false,
    });
    await insertCuid(ctx.db, input.cuid, input.client_id, receipt.hash);
    if (!created) return { success: true, tx_hash: receipt.hash };
    return { success: true, tx_hash: receipt.hash, aes_key: key.toString("hex"), aes_iv: provider.aesIv };
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
export async function testEncryption(ctx: ServiceContext, request: TestEncryptionRequest): Promise<TestEncryptionResponse> {
  const input = parseInput(testEncryptionSchema, request);
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
