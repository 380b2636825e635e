import { MaxUint256, type Provider, Wallet, formatEther, getAddress, parseEther } from "ethers";
import { type SlotgateAddresses, type SlotgateContracts, connectContracts, deploy } from "@slotgate/contracts";
import { BuiltInBundler } from "./bundler/built-in.js";
import { ExternalBundler } from "./bundler/external.js";
import { WalletNonces } from "./bundler/nonces.js";
import type { UserOperationSubmitter } from "./bundler/submitter.js";
import { startInProcessChain } from "./chain/in-process.js";
import { connectRpc } from "./chain/rpc.js";
import { SerialTxSender } from "./chain/tx-queue.js";
import type { ChainServiceConfig } from "./config.js";
import { ChainServiceError } from "./errors.js";
import { DEFAULT_PIN_PBKDF2_SALT } from "./keys/share-pin.js";
import { SponsoredOperations } from "./operations/sponsored.js";
import type { SqlDatabase } from "./storage/database.js";
import { migrate } from "./storage/migrations.js";
import type { PinLockoutPolicy } from "./storage/pin-attempts.js";

/** @internal Everything the feature modules share. */
export interface ServiceContext {
  db: SqlDatabase;
  kek: Buffer;
  provider: Provider;
  chainId: bigint;
  addresses: SlotgateAddresses;
  /** Contracts bound to the operator signer. */
  contracts: SlotgateContracts;
  operator: SerialTxSender;
  sponsored: SponsoredOperations;
  submitter: UserOperationSubmitter;
  pin: { salt: string; iterations: number; lockout: PinLockoutPolicy };
  spendMaxAgeSeconds: number;
  now: () => Date;
  /** Releases the chain connection (RPC mode). */
  closeChain: () => void;
  /** Development-chain helpers (time travel), only for the in-process chain. */
  devChain?: { increaseTime(seconds: number): Promise<void> };
}

const senders = new Map<string, SerialTxSender>();

/** One serial sender per EOA per process, so two services on one chain never collide on nonces. */
function senderFor(wallet: Wallet, scope: string): SerialTxSender {
  const key = `${scope}:${wallet.address}`;
  let sender = senders.get(key);
  if (sender === undefined) {
    sender = new SerialTxSender(wallet);
    senders.set(key, sender);
  }
  return sender;
}

function parseKek(value: string | Uint8Array): Buffer {
  const kek = typeof value === "string" ? Buffer.from(/^[0-9a-fA-F]{64}$/.test(value) ? value : "", "hex") : Buffer.from(value);
  if (kek.length !== 32) {
    throw new ChainServiceError("invalid_request", "keyEncryptionKey must be 32 bytes (64 hex characters)");
  }
  return kek;
}

/** @internal Boots the chain connection, deploys in-process, wires the bundler. */
export async function createContext(config: ChainServiceConfig): Promise<ServiceContext> {
  const warn = config.warn ?? ((message: string) => console.warn(message));
  const kek = parseKek(config.keyEncryptionKey);
  await migrate(config.db);
  const chain = config.chain ?? { kind: "in-process" as const };

  let provider: Provider;
  let operatorWallet: Wallet;
  let paymasterSigner: Wallet;
  let bundlerWallet: Wallet;
  let addresses: SlotgateAddresses;
  let scope: string;
  let devChain: ServiceContext["devChain"];
  if (chain.kind === "in-process") {
    const local = await startInProcessChain();
    provider = local.provider;
    operatorWallet = new Wallet(local.devKey(0), provider);
    paymasterSigner = new Wallet(local.devKey(1), provider);
    bundlerWallet = new Wallet(local.devKey(2), provider);
    scope = "in-process";
    // Deploy through the shared serial sender so parallel services do not race on the deployer's nonce.
    const deployed = await deploy(operatorWallet, {
      paymasterSigner: paymasterSigner.address,
      paymasterDeposit: chain.paymasterDeposit ?? parseEther("100"),
    });
    senders.delete(`${scope}:${operatorWallet.address}`);
    addresses = {
      xotn: deployed.xotn,
      exchange: deployed.exchange,
      entryPoint: deployed.entryPoint,
      factory: deployed.factory,
      paymaster: deployed.paymaster,
    };
    devChain = {
      async increaseTime(seconds) {
        await local.eip1193.request({ method: "evm_increaseTime", params: [seconds] });
        await local.eip1193.request({ method: "evm_mine", params: [] });
      },
    };
    warn(
      "[chain-service] development defaults: in-process Hardhat chain with freshly deployed contracts and well-known development keys; configure chain.kind = \"rpc\" for production",
    );
  } else {
    const rpc = connectRpc(chain.rpcUrl);
    provider = rpc;
    const wallet = (key: string, what: string) => {
      try {
        return new Wallet(key, provider);
      } catch (cause) {
        rpc.destroy();
        throw new ChainServiceError("invalid_request", `${what} is not a valid private key`, { cause });
      }
    };
    operatorWallet = wallet(chain.operatorKey, "operatorKey");
    paymasterSigner = wallet(chain.paymasterSignerKey, "paymasterSignerKey");
    bundlerWallet = wallet(chain.bundlerKey, "bundlerKey");
    const { xotn, exchange, entryPoint, factory, paymaster } = chain.addresses;
    addresses = { xotn, exchange, entryPoint, factory, paymaster };
    scope = "rpc";
  }

  const closeChain = () => {
    if (chain.kind === "rpc") (provider as ReturnType<typeof connectRpc>).destroy();
  };
  try {
    return await wire(config, { provider, operatorWallet, paymasterSigner, bundlerWallet, addresses, scope, kek, warn, closeChain, devChain });
  } catch (error) {
    closeChain();
    throw error;
  }
}

async function wire(
  config: ChainServiceConfig,
  parts: {
    provider: Provider;
    operatorWallet: Wallet;
    paymasterSigner: Wallet;
    bundlerWallet: Wallet;
    addresses: SlotgateAddresses;
    scope: string;
    kek: Buffer;
    warn: (message: string) => void;
    closeChain: () => void;
    devChain: ServiceContext["devChain"];
  },
): Promise<ServiceContext> {
  const { provider, operatorWallet, paymasterSigner, bundlerWallet, addresses, scope, kek, warn, closeChain, devChain } = parts;
  let chainId: bigint;
  try {
    chainId = (await provider.getNetwork()).chainId;
  } catch (cause) {
    throw new ChainServiceError("chain_unavailable", undefined, { cause });
  }
  const operator = senderFor(operatorWallet, scope);
  const contracts = connectContracts(addresses, operatorWallet);
  await checkDeployment(provider, addresses, contracts, { operator: operatorWallet.address, paymasterSigner: paymasterSigner.address }, warn);

  // The operator buys content tokens on the slot's behalf (see docs/decisions/chain-service.md).
  const allowance = await contracts.xotn.allowance(operator.address, addresses.exchange);
  if (allowance < MaxUint256 / 2n) {
    await operator.sendAndWait({
      to: addresses.xotn,
      data: contracts.xotn.interface.encodeFunctionData("approve", [addresses.exchange, MaxUint256]),
    });
  }

  const nonces = new WalletNonces(provider, addresses.entryPoint, addresses.paymaster);
  const bundlerConfig = config.bundler ?? { kind: "built-in" as const };
  const submitter: UserOperationSubmitter =
    bundlerConfig.kind === "built-in"
      ? new BuiltInBundler({
          entryPoint: addresses.entryPoint,
          chainId,
          sender: senderFor(bundlerWallet, scope),
          ...(bundlerConfig.batchIntervalMs === undefined ? {} : { batchIntervalMs: bundlerConfig.batchIntervalMs }),
          ...(bundlerConfig.maxBatchSize === undefined ? {} : { maxBatchSize: bundlerConfig.maxBatchSize }),
          onSenderReset: (sender) => nonces.reset(sender),
        })
      : new ExternalBundler({
          url: bundlerConfig.url,
          entryPoint: addresses.entryPoint,
          chainId,
          ...(bundlerConfig.pollIntervalMs === undefined ? {} : { pollIntervalMs: bundlerConfig.pollIntervalMs }),
          ...(bundlerConfig.fetch === undefined ? {} : { fetch: bundlerConfig.fetch }),
        });

  const sponsored = new SponsoredOperations({
    provider,
    addresses,
    chainId,
    paymasterSigner,
    nonces,
    submitter,
    validForSeconds: config.sponsorshipSeconds ?? 300,
  });

  return {
    db: config.db,
    kek,
    provider,
    chainId,
    addresses,
    contracts,
    operator,
    sponsored,
    submitter,
    pin: {
      salt: config.pinPbkdf2Salt ?? DEFAULT_PIN_PBKDF2_SALT,
      iterations: config.pinPbkdf2Iterations ?? 100_000,
      lockout: { maxFailures: 5, lockSeconds: 900, ...config.pinLockout },
    },
    spendMaxAgeSeconds: config.spendMaxAgeSeconds ?? 300,
    now: config.now ?? (() => new Date()),
    closeChain,
    ...(devChain ? { devChain } : {}),
  };
}

/** Start-up checks of a configured deployment: fails fast with a message naming what is wrong. */
async function checkDeployment(
  provider: Provider,
  addresses: SlotgateAddresses,
  contracts: SlotgateContracts,
  keys: { operator: string; paymasterSigner: string },
  warn: (message: string) => void,
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
    if (getAddress(await contracts.exchange.owner()) !== getAddress(keys.operator)) {
      throw new ChainServiceError("chain_unavailable", "the operator key is not the owner of the exchange");
    }
    const deposit = await contracts.entryPoint.balanceOf(addresses.paymaster);
    if (deposit < parseEther("0.1")) {
      warn(`[chain-service] the paymaster's EntryPoint deposit is low (${formatEther(deposit)} ETH): sponsored operations will fail when it runs out`);
    }
  } catch (cause) {
    if (cause instanceof ChainServiceError) throw cause;
    throw new ChainServiceError("chain_unavailable", "could not check the deployment", { cause });
  }
}
