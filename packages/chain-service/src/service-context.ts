import type { SlotgateAddresses, SlotgateContracts } from "@slotgate/contracts";
import type { Database } from "@slotgate/storage";
import type { JsonRpcProvider } from "ethers";
import type { JWTVerifyGetKey } from "jose";
import type { WalletLock } from "./chain/wallet-lock.js";
import type { ChainServiceLogger } from "./config.js";
import type { RecoveryVault } from "./keys/recovery-vault.js";
import type { SecretSealer } from "./keys/sealed-secrets.js";
import type { SponsoredOperations } from "./operations/sponsored.js";
import type { SponsorshipRules } from "./operations/sponsorship-policy.js";
import type { PinLockoutPolicy } from "./storage/pin-attempts.js";
import type { WriteWaits } from "./writes/engine.js";
import type { LeasedLoop } from "./writes/leased-loop.js";
import type { WritePurge } from "./writes/purge.js";

/**
 * @internal Everything the feature modules share: a type only, so that the modules that use it and the
 * start-up that builds it (`context.ts`, `createContext`) never import each other.
 */
export interface ServiceContext {
  db: Database;
  /**
   * The raw key-encryption key: only to open records written before sealing was authenticated, at
   * start-up (`resealStoredSecrets`). Everything else goes through {@link ServiceContext.sealer}.
   */
  kek: Buffer;
  /** Seals and opens the server shares and the providers' AES keys (AES-256-GCM bound to each record). */
  sealer: SecretSealer;
  /** Seals the stored owner mnemonics (`_MN`, pending rotations): the recovery-only key. */
  vault: RecoveryVault;
  provider: JsonRpcProvider;
  chainId: bigint;
  addresses: SlotgateAddresses;
  /** Contracts bound to the operator signer (reads and call encoding; writes go through {@link ServiceContext.writes}). */
  contracts: SlotgateContracts;
  /** Who sends what: the queues (`cs_writes.signer`) of the platform's writes. */
  signers: {
    /** The operator's address: provider registrations, purchases, releases, funding. */
    operator: string;
    /** The address that records spending (`increase_used`). */
    spendRecorder: string;
    /** The queue of sponsored UserOperations: the bundler key's address, or the external bundler's id. */
    bundler: string;
  };
  /** Records durable writes and waits for their outcome. */
  writes: WriteWaits;
  /** The writer loops of this process (one per queue; only the lease holder of each sends). */
  writers: LeasedLoop[];
  /** This process's id in the signers' leases. */
  holder: string;
  sponsored: SponsoredOperations;
  /** What the paymaster sponsors. */
  sponsorship: SponsorshipRules;
  pin: { salt: string; iterations: number; lockout: PinLockoutPolicy };
  spendMaxAgeSeconds: number;
  now: () => Date;
  /** Deletes settled writes once their retention has passed (every instance, at start and hourly). */
  purge: WritePurge;
  /** Stops the writers (their leases are given up), the purge and the chain connection. */
  close: () => Promise<void>;
  /** A development chain (well-known keys): `devFundSlot` is served. */
  development: boolean;
  /** Structured log (no-op unless configured). */
  log: ChainServiceLogger;
  /** Bundles sent by the built-in bundler of this process, by size. */
  bundleSizes: Map<number, number>;
  /** The keys of the front service's caller assertions (null: none configured, user calls that need one are refused). */
  callerKeys: JWTVerifyGetKey | null;
  /** Whether the deployment's slot wallets can be sold (read at start; the contracts never change). */
  walletLock: WalletLock;
}
