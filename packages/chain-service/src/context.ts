import { callerKeySet } from "./evidence/caller-assertion.js";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { type JsonRpcProvider, Wallet, formatEther, getAddress, parseEther } from "ethers";
import { type SlotgateAddresses, type SlotgateContracts, connectContracts } from "@slotgate/contracts";
import { connectRpc } from "./chain/rpc.js";
import { checkRecordsAgainstChain } from "./chain/records-check.js";
import { readWalletLock } from "./chain/wallet-lock.js";
import type { ChainServiceConfig, ChainServiceLogger, ChainServiceWarning } from "./config.js";
import { presentAnswer } from "./content-tokens/providers.js";
import { ChainServiceError } from "./errors.js";
import { DEFAULT_PIN_PBKDF2_SALT } from "./keys/share-pin.js";
import { type RecoveryVault, parseKey, recoveryVaultOf } from "./keys/recovery-vault.js";
import { resealStoredSecrets } from "./keys/reseal-at-rest.js";
import { SecretSealer } from "./keys/sealed-secrets.js";
import { sponsorshipRules } from "./operations/sponsorship-policy.js";
import { SponsoredOperations } from "./operations/sponsored.js";
import { queueMissingRegistrations } from "./slots/slots.js";
import { migrateChainService } from "./storage/migrations.js";
import { WriteWaits } from "./writes/engine.js";
import type { ServiceContext } from "./service-context.js";
import { ExternalOperationWriter } from "./writes/external-writer.js";
import type { LeasedLoop } from "./writes/leased-loop.js";
import { OperationPlanner } from "./writes/operation-planner.js";
import { MAX_SPEND_BATCH_LIMIT, OperatorPlanner, SPEND_BATCH_LIMIT } from "./writes/operator-planner.js";
import { SignerWriter } from "./writes/signer-writer.js";
import { WritePurge, writeRetentionOf } from "./writes/purge.js";

const silent = () => undefined;
const NO_LOG: ChainServiceLogger = { debug: silent, info: silent, warn: silent, error: silent };

/**
 * @internal Connects the chain over JSON-RPC, checks the deployment and the records, and starts the
 * writers: one per platform key (operator, bundler) and, with an external bundler, one that hands
 * operations to it.
 */
/** The configured spend batch limit, checked: a whole number from 1 to {@link MAX_SPEND_BATCH_LIMIT}. */
function spendBatchLimitOf(config: ChainServiceConfig): number {
  const limit = config.spendBatchLimit ?? SPEND_BATCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SPEND_BATCH_LIMIT) {
    throw new ChainServiceError("invalid_request", `spendBatchLimit must be a whole number from 1 to ${MAX_SPEND_BATCH_LIMIT}`);
  }
  return limit;
}

export async function createContext(config: ChainServiceConfig): Promise<ServiceContext> {
  const warn = config.warn ?? ((warning: ChainServiceWarning) => console.warn(warning.message));
  const kek = parseKey(config.keyEncryptionKey, "keyEncryptionKey");
  const vault = recoveryVaultOf(config.recoveryKey, kek);
  spendBatchLimitOf(config);
  writeRetentionOf(config.writeRetentionSeconds);
  const chain = config.chain;
  await migrateChainService(config.db);

  const rpc = connectRpc(chain.rpcUrl, chain.requestTimeoutMs, chain.batchRequests);
  const wallet = (key: string, what: string) => {
    try {
      return new Wallet(key, rpc);
    } catch (cause) {
      rpc.destroy();
      throw new ChainServiceError("invalid_request", `${what} is not a valid private key`, { cause });
    }
  };
  const operatorWallet = wallet(chain.operatorKey, "operatorKey");
  const spendRecorderWallet = wallet(chain.spendRecorderKey, "spendRecorderKey");
  const paymasterSigner = wallet(chain.paymasterSignerKey, "paymasterSignerKey");
  const bundlerWallet = wallet(chain.bundlerKey, "bundlerKey");
  const { xotn, exchange, entryPoint, factory, paymaster } = chain.addresses;
  const addresses = { xotn, exchange, entryPoint, factory, paymaster };
  const development = chain.development === true;
  if (development) warn({ code: "development_chain", message: "a development chain with well-known development keys is in use" });
  let ctx: ServiceContext | undefined;
  try {
    ctx = await wire(config, { provider: rpc, operatorWallet, spendRecorderWallet, paymasterSigner, bundlerWallet, addresses, kek, vault, warn, development });
    await checkRecordsAgainstChain(ctx, warn);
    const resealed = await resealStoredSecrets(config.db, ctx);
    if (resealed.mnemonics + resealed.shares + resealed.providerKeys > 0) {
      warn({
        code: "secrets_resealed",
        message: `stored secrets written before authenticated sealing were sealed again, bound to their records: ${resealed.mnemonics} mnemonics (under the recovery key), ${resealed.shares} server shares, ${resealed.providerKeys} provider keys`,
      });
    }
    const registrations = await queueMissingRegistrations(ctx);
    if (registrations > 0) ctx.log.info("slot registrations enqueued", { count: registrations });
    for (const writer of ctx.writers) writer.start();
    ctx.purge.start();
    return ctx;
  } catch (error) {
    if (ctx) await ctx.close();
    else rpc.destroy();
    throw error;
  }
}

async function wire(
  config: ChainServiceConfig,
  parts: {
    provider: JsonRpcProvider;
    operatorWallet: Wallet;
    spendRecorderWallet: Wallet;
    paymasterSigner: Wallet;
    bundlerWallet: Wallet;
    addresses: SlotgateAddresses;
    kek: Buffer;
    vault: RecoveryVault;
    warn: (warning: ChainServiceWarning) => void;
    development: boolean;
  },
): Promise<ServiceContext> {
  const { provider, operatorWallet, spendRecorderWallet, paymasterSigner, bundlerWallet, addresses, kek, vault, warn, development } = parts;
  const db = config.db;
  let chainId: bigint;
  try {
    chainId = (await provider.getNetwork()).chainId;
  } catch (cause) {
    throw new ChainServiceError("chain_unavailable", undefined, { cause });
  }
  const contracts = connectContracts(addresses, operatorWallet);
  await checkDeployment(
    provider,
    addresses,
    contracts,
    { operator: operatorWallet.address, spendRecorder: spendRecorderWallet.address, paymasterSigner: paymasterSigner.address },
    warn,
  );
  const walletLock = await readWalletLock(provider, addresses).catch((cause: unknown) => {
    throw new ChainServiceError("chain_unavailable", "could not read the deployment's wallet implementation", { cause });
  });
  if (walletLock.missing !== null) {
    warn({
      code: "slot_sales_refused",
      message: `slot sales are refused (slot_wallet_unsafe): this deployment was made before slot wallets were locked (${walletLock.missing}); deploy this version's contracts for a new deployment (docs/decisions/marketplace.md)`,
    });
  }
  const sponsorship = sponsorshipRules(config.sponsorship, addresses.xotn);
  const sealer = new SecretSealer(kek);

  const holder = config.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const writers = new Map<string, LeasedLoop>();
  const writes = new WriteWaits({
    db,
    waitMs: config.writeWaitMs ?? 30_000,
    kick: (record) => writers.get(record.signer)?.kick(),
    present: (record) => presentAnswer({ db, sealer }, record),
  });
  const onSettled = (ids: readonly string[]) => writes.notify(ids);

  // The operator's writes, and the spend recorder's spends (batched per cuid): one writer per key, one
  // writer in all when the spend recorder's key is the operator's too.
  for (const wallet of [operatorWallet, spendRecorderWallet]) {
    if (writers.has(wallet.address)) continue;
    const planner = new OperatorPlanner({
      db,
      provider,
      contracts,
      exchange: addresses.exchange,
      from: wallet.address,
      spendBatchLimit: spendBatchLimitOf(config),
    });
    writers.set(wallet.address, new SignerWriter({ db, holder, provider, wallet, chainId, onSettled, planner }));
  }

  const bundlerConfig = config.bundler ?? { kind: "built-in" as const };
  const bundleSizes = new Map<number, number>();
  const operations = new OperationPlanner({
    onBundle: (size) => bundleSizes.set(size, (bundleSizes.get(size) ?? 0) + 1),
    db,
    provider,
    entryPoint: addresses.entryPoint,
    bundler: bundlerWallet.address,
    maxBatch: bundlerConfig.kind === "built-in" ? (bundlerConfig.maxBatchSize ?? 24) : 1,
  });
  const bundler =
    bundlerConfig.kind === "built-in"
      ? new SignerWriter({ db, holder, provider, wallet: bundlerWallet, chainId, onSettled, planner: operations })
      : new ExternalOperationWriter({
          db,
          holder,
          provider,
          url: bundlerConfig.url,
          entryPoint: addresses.entryPoint,
          planner: operations,
          onSettled,
          ...(bundlerConfig.pollIntervalMs === undefined ? {} : { idleMs: bundlerConfig.pollIntervalMs }),
          ...(bundlerConfig.fetch === undefined ? {} : { fetch: bundlerConfig.fetch }),
        });
  if (writers.has(bundler.address)) {
    throw new ChainServiceError(
      "invalid_request",
      "bundlerKey must differ from operatorKey and spendRecorderKey: each key's transactions are sent by one writer",
    );
  }
  writers.set(bundler.address, bundler);

  const budgets = config.sponsorship ?? {};
  const now = config.now ?? (() => new Date());
  const sponsored = new SponsoredOperations({
    db,
    provider,
    addresses,
    chainId,
    paymasterSigner,
    signer: bundler.address,
    writes,
    validForSeconds: config.sponsorshipSeconds ?? 300,
    budgets: { userWeiPerDay: budgets.userWeiPerDay ?? 10n ** 18n, cuidWeiPerDay: budgets.cuidWeiPerDay ?? 50n * 10n ** 18n },
    sponsorship,
    now,
  });

  const loops = [...writers.values()];
  const log = config.log ?? NO_LOG;
  const purge = new WritePurge({ db, retentionSeconds: writeRetentionOf(config.writeRetentionSeconds), now, log });
  return {
    db,
    kek,
    sealer,
    vault,
    provider,
    chainId,
    addresses,
    contracts,
    signers: { operator: operatorWallet.address, spendRecorder: spendRecorderWallet.address, bundler: bundler.address },
    writes,
    writers: loops,
    holder,
    sponsored,
    sponsorship,
    pin: {
      salt: config.pinPbkdf2Salt ?? DEFAULT_PIN_PBKDF2_SALT,
      iterations: config.pinPbkdf2Iterations ?? 100_000,
      lockout: { maxFailures: 5, lockSeconds: 900, ...config.pinLockout },
    },
    spendMaxAgeSeconds: config.spendMaxAgeSeconds ?? 300,
    now,
    purge,
    close: async () => {
      await Promise.all([...loops.map((loop) => loop.stop()), purge.stop()]);
      provider.destroy();
    },
    development,
    log,
    callerKeys: callerKeySet(config.callerKeys),
    walletLock,
    bundleSizes,
  };
}

/** Start-up checks of a configured deployment: fails fast with a message naming what is wrong. */
async function checkDeployment(
  provider: JsonRpcProvider,
  addresses: SlotgateAddresses,
  contracts: SlotgateContracts,
  keys: { operator: string; spendRecorder: string; paymasterSigner: string },
  warn: (warning: ChainServiceWarning) => void,
): Promise<void> {
  try {
    for (const [name, address] of Object.entries(addresses)) {
      if ((await provider.getCode(address)) === "0x") {
        throw new ChainServiceError("chain_unavailable", `no contract at the configured ${name} address`);
      }
    }
    if (getAddress(await contracts.paymaster.verifyingSigner()) !== getAddress(keys.paymasterSigner)) {
      throw new ChainServiceError("chain_unavailable", "the paymaster signer key is not the paymaster's verifyingSigner");
    }
    const [exchangeOperator, exchangeOwner, exchangeRecorder] = await Promise.all([
      contracts.exchange.operator(),
      contracts.exchange.owner(),
      contracts.exchange.spendRecorder(),
    ]);
    if (![exchangeOperator, exchangeOwner].map((address) => getAddress(address)).includes(getAddress(keys.operator))) {
      throw new ChainServiceError("chain_unavailable", "the operator key is neither the exchange's operator nor its owner");
    }
    if (getAddress(exchangeRecorder) !== getAddress(keys.spendRecorder)) {
      throw new ChainServiceError("chain_unavailable", "the spend-recorder key is not the exchange's spendRecorder");
    }
    const deposit = await contracts.entryPoint.balanceOf(addresses.paymaster);
    if (deposit < parseEther("0.1")) {
      warn({
        code: "low_paymaster_deposit",
        message: `the paymaster's EntryPoint deposit is low (${formatEther(deposit)} ETH): sponsored operations will fail when it runs out`,
      });
    }
  } catch (cause) {
    if (cause instanceof ChainServiceError) throw cause;
    throw new ChainServiceError("chain_unavailable", "could not check the deployment", { cause });
  }
}
