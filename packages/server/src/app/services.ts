import type { ChainHandle } from "../chain/start-chain.js";
import type { ServerConfig } from "../config/config.js";
import type { Logger } from "../config/logger.js";
import type { ClientSecrets } from "../dev-center/client-secrets.js";
import type { KeyStore } from "../keys/key-store.js";
import type { RevocationList } from "../keys/revocation-list.js";
import type { TokenService } from "../keys/tokens.js";
import type { OutboxWorker } from "../outbox/worker.js";
import type { Database } from "../storage/database.js";
import type { ScryptParams } from "../users/passwords.js";
import type { WalletDirectory } from "../wallet/wallet-directory.js";
import type { CodeBatcher } from "../token/code-batcher.js";
import type { ClientCache } from "./client-cache.js";

/** Everything a route handler needs, built once by `createApp`. */
export interface Services {
  config: ServerConfig;
  /** Base URL and token issuer, no trailing slash. */
  issuer: string;
  db: Database;
  keys: KeyStore;
  tokens: TokenService;
  revocations: RevocationList;
  secrets: ClientSecrets;
  clients: ClientCache;
  codes: CodeBatcher;
  wallets: WalletDirectory;
  /** The chain service, or null when the server runs with `CHAIN=off`. */
  chain: ChainHandle | null;
  outbox: OutboxWorker;
  log: Logger;
  scrypt: ScryptParams;
}
