import { createHmac } from "node:crypto";
import express, { type Express } from "express";
import { walletDirectoryOf } from "@slotgate/chain-service";
import { authorizeRoutes } from "../authorize/routes.js";
import type { ChainHandle } from "../chain/start-chain.js";
import { contentTokenRoutes } from "../content-token/routes.js";
import { devOperatorRoutes } from "../dev-operator/routes.js";
import { pinRoutes } from "../pin/routes.js";
import { slotExchangeRoutes } from "../slot-exchange/routes.js";
import { transferRoutes } from "../transfer/routes.js";
import type { ServerConfig } from "../config/config.js";
import { createLogger, type Logger } from "../config/logger.js";
import { ClientSecrets } from "../dev-center/client-secrets.js";
import { devCenterRoutes } from "../dev-center/routes.js";
import { discoveryRoutes } from "../discovery/routes.js";
import { errorHandler, notFound } from "../http/error-handler.js";
import { securityHeaders } from "../http/security-headers.js";
import type { KeyStore } from "../keys/key-store.js";
import { RevocationList } from "../keys/revocation-list.js";
import { TokenService } from "../keys/tokens.js";
import { metaCallbackHandler } from "../oauth-meta/callback-delivery.js";
import { oauthMetaRoutes } from "../oauth-meta/routes.js";
import { OutboxWorker } from "../outbox/worker.js";
import { marketplaceHandler } from "../status/marketplace-webhook.js";
import { statusRoutes } from "../status/routes.js";
import type { Database } from "../storage/database.js";
import { purgeExpiredCodes } from "../storage/codes.js";
import { purgeFinished } from "../storage/outbox.js";
import { CodeBatcher } from "../token/code-batcher.js";
import { tokenRoutes } from "../token/routes.js";
import { DEFAULT_SCRYPT, type ScryptParams } from "../users/passwords.js";
import { DerivedWalletDirectory, type WalletDirectory } from "../wallet/wallet-directory.js";
import { ClientCache } from "./client-cache.js";
import type { Services } from "./services.js";

/** Inputs of {@link createApp}. */
export interface CreateAppOptions {
  /** Validated configuration; `clientSecretPepper` must be set (the bootstrap fills it on development defaults). */
  config: ServerConfig;
  /** Migrated database. */
  db: Database;
  /** Signing keys. */
  keys: KeyStore;
  /** Base URL and issuer, no trailing slash. @default config.publicUrl */
  issuer?: string;
  /**
   * The chain service (see `startChain`): wallet, PIN, transfer, slot-exchange and content-token
   * endpoints, and `content_address` from its wallet layer. Without it those endpoints answer 503
   * service_unavailable and `content_address` is derived (interim directory). `wallets` overrides the
   * wallet directory alone.
   */
  chain?: { handle?: ChainHandle | null; wallets?: WalletDirectory };
  /** @default a JSON-lines logger at config.logLevel */
  log?: Logger;
  /** Password hashing cost. @default N=2^15, r=8, p=1 */
  scrypt?: ScryptParams;
}

/** A built application: the Express app plus its background workers. */
export interface SlotgateApp {
  app: Express;
  services: Services;
  /** Starts the outbox worker and the revocation sync. */
  start(): Promise<void>;
  /** Stops the background workers (the database is the caller's to close). */
  stop(): Promise<void>;
}

/**
 * Builds the Slotgate HTTP application.
 *
 * @example
 * ```ts
 * const { app, start } = await createApp({ config, db, keys, issuer: "http://127.0.0.1:8080" });
 * await start();
 * app.listen(8080, "127.0.0.1");
 * ```
 */
export async function createApp(options: CreateAppOptions): Promise<SlotgateApp> {
  const { config, db, keys } = options;
  const issuer = (options.issuer ?? config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, "");
  if (!config.clientSecretPepper) throw new Error("config.clientSecretPepper is required");
  const log = options.log ?? createLogger(config.logLevel);
  const revocations = new RevocationList(db, log);
  const outbox = new OutboxWorker(db, [marketplaceHandler({ url: config.marketplaceUrl, secret: config.marketplaceSecret, retryBaseMs: config.marketplaceRetryBaseMs }), metaCallbackHandler()], log, config.outboxPollMs);
  const walletSecret = createHmac("sha256", config.clientSecretPepper).update("slotgate.interim-wallet-derivation").digest("hex");
  const services: Services = {
    config,
    issuer,
    db,
    keys,
    tokens: new TokenService(keys, issuer, revocations),
    revocations,
    secrets: new ClientSecrets(config.clientSecretPepper),
    clients: new ClientCache(db),
    codes: new CodeBatcher(db),
    wallets:
      options.chain?.wallets ??
      (options.chain?.handle ? walletDirectoryOf(options.chain.handle.service) : new DerivedWalletDirectory(walletSecret)),
    chain: options.chain?.handle ?? null,
    outbox,
    log,
    scrypt: options.scrypt ?? DEFAULT_SCRYPT,
  };

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.set("etag", false);
  app.use(securityHeaders(issuer.startsWith("https:")));
  // Hot paths first: every router a request passes costs a little.
  app.use(statusRoutes(services));
  app.use(tokenRoutes(services));
  app.use(authorizeRoutes(services));
  app.use(oauthMetaRoutes(services));
  app.use(devCenterRoutes(services));
  app.use(pinRoutes(services));
  app.use(transferRoutes(services));
  app.use(contentTokenRoutes(services));
  app.use(slotExchangeRoutes(services));
  if (services.chain?.devOperator) app.use(devOperatorRoutes(services));
  app.use(discoveryRoutes(services));
  app.use(notFound);
  app.use(errorHandler(log));

  let purge: NodeJS.Timeout | undefined;
  return {
    app,
    services,
    async start() {
      await revocations.start(config.revocationPollMs);
      outbox.start();
      purge = setInterval(() => {
        void purgeExpiredCodes(db).catch(() => undefined);
        void purgeFinished(db).catch(() => undefined);
      }, 3_600_000);
      purge.unref();
    },
    async stop() {
      if (purge) clearInterval(purge);
      revocations.stop();
      await outbox.stop();
    },
  };
}
