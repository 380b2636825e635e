import { MaxUint256, type Provider, Wallet, parseEther } from "ethers";
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
    addresses = deployed;
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
    provider = connectRpc(chain.rpcUrl);
    operatorWallet = new Wallet(chain.operatorKey, provider);
    paymasterSigner = new Wallet(chain.paymasterSignerKey, provider);
    bundlerWallet = new Wallet(chain.bundlerKey, provider);
    addresses = chain.addresses;
    scope = "rpc";
  }

  let chainId: bigint;
  try {
    chainId = (await provider.getNetwork()).chainId;
  } catch (cause) {
    throw new ChainServiceError("chain_unavailable", undefined, { cause });
  }
  const operator = senderFor(operatorWallet, scope);
  const contracts = connectContracts(addresses, operatorWallet);

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
    ...(devChain ? { devChain } : {}),
  };
}
