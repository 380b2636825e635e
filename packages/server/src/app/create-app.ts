import express, { type Express } from "express";
import { authorizeRoutes } from "../authorize/routes.js";
import type { ChainHandle } from "../chain/start-chain.js";
import { chainInfoRoutes } from "../chain/routes.js";
import { contentTokenRoutes } from "../content-tokens/routes.js";
import { devOperatorRoutes } from "../dev-operator/routes.js";
import { pinRoutes } from "../pin/routes.js";
import { slotExchangeRoutes } from "../slot-exchange/routes.js";
import { slotRoutes } from "../slots/routes.js";
import { transferRoutes } from "../transfer/routes.js";
import type { ServerConfig } from "../config/config.js";
import { createLogger, type Logger } from "../config/logger.js";
import { ClientSecrets } from "../clients/client-secrets.js";
import { devCenterRoutes } from "../dev-center/routes.js";
import { deviceRoutes } from "../device/routes.js";
import { discoveryRoutes } from "../discovery/routes.js";
import { errorHandler, notFound } from "../http/error-handler.js";
import { securityHeaders } from "../http/security-headers.js";
import type { KeyStore } from "../keys/key-store.js";
import { RevocationList } from "../keys/revocation-list.js";
import { TokenService } from "../keys/tokens.js";
import { metaCallbackHandler } from "../oauth-meta/callback-delivery.js";
import { oauthMetaRoutes } from "../oauth-meta/routes.js";
import { OutboxSeal } from "../outbox/seal.js";
import { OutboxWorker } from "../outbox/worker.js";
import { marketplaceHandler } from "../status/marketplace-webhook.js";
import { statusRoutes } from "../status/routes.js";
import type { Database } from "@slotgate/storage";
import { purgeExpiredCodes } from "../storage/codes.js";
import { purgeDevices } from "../storage/device-authorizations.js";
import { purgeFamilies } from "../storage/refresh-tokens.js";
import { purgeFinished } from "../storage/outbox.js";
import { CodeBatcher } from "../token/code-batcher.js";
import { tokenRoutes } from "../token/routes.js";
import { createMailer, type Mailer } from "../mail/mailer.js";
import { MailboxChallenges } from "../mailbox-proof/challenges.js";
import { IdentityProviders } from "../identity-providers/upstream.js";
import { Passkeys } from "../passkeys/webauthn.js";
import { purgeExpiredFlows } from "../storage/sign-in-flows.js";
import { purgeExpiredChallenges } from "../storage/mailbox-challenges.js";
import { purgeSignInAttempts } from "../storage/sign-in-attempts.js";
import { DEFAULT_SCRYPT, type ScryptParams } from "../users/passwords.js";
import { ClientCache } from "../clients/client-cache.js";
import type { Services } from "./services.js";
import { Redis } from "ioredis";
import { requestIds } from "../http/request-id.js";
import { metricsHandler, ServerMetrics } from "../observability/metrics.js";
import { callerAssertions } from "../chain/caller-assertions.js";

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
   * service_unavailable and answers carry no `content_address`.
   */
  chain?: ChainHandle | null;
  /** @default a JSON-lines logger at config.logLevel */
  log?: Logger;
  /** Password hashing cost. @default N=2^15, r=8, p=1 */
  scrypt?: ScryptParams;
  /** Outgoing mail. @default SMTP at config.mail.smtpUrl, else the development mailbox in config.dataDir */
  mailer?: Mailer;
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
 * // appPrototypes(): requests born with the app's prototypes (Express then swaps none; much faster under load)
 * const prototypes = appPrototypes();
 * prototypes.adopt(app);
 * createServer({ IncomingMessage: prototypes.IncomingMessage, ServerResponse: prototypes.ServerResponse }, app).listen(8080, "127.0.0.1");
 * ```
 */
export async function createApp(options: CreateAppOptions): Promise<SlotgateApp> {
  const { config, db, keys } = options;
  const issuer = (options.issuer ?? config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, "");
  if (!config.clientSecretPepper) throw new Error("config.clientSecretPepper is required");
  const log = options.log ?? createLogger(config.logLevel);
  const revocations = new RevocationList(db, log);
  const chain = options.chain ?? null;
  const metrics = new ServerMetrics(db, chain, log);
  const outboxSeal = new OutboxSeal(config.clientSecretPepper);
  const outbox = new OutboxWorker(
    db,
    [marketplaceHandler({ url: config.marketplaceUrl, secret: config.marketplaceSecret, retryBaseMs: config.marketplaceRetryBaseMs }), metaCallbackHandler({ seal: outboxSeal })],
    log,
    config.outboxPollMs,
    (topic, outcome) => metrics.observeDelivery(topic, outcome),
  );
  // Rate-limit counters shared by every instance; commands wait (offline queue) while it connects.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true }) : null;
  redis?.on("error", (error: Error) => log.warn("redis connection error", { error: error.message }));
  const mailer = options.mailer ?? createMailer(config.mail, config.dataDir);
  const services: Services = {
    config,
    issuer,
    db,
    keys,
    assertCaller: callerAssertions(keys),
    tokens: new TokenService(keys, issuer, revocations),
    revocations,
    secrets: new ClientSecrets(config.clientSecretPepper),
    clients: new ClientCache(db),
    codes: new CodeBatcher(db),
    chain,
    outbox,
    outboxSeal,
    log,
    scrypt: options.scrypt ?? DEFAULT_SCRYPT,
    mailer,
    mailbox: new MailboxChallenges(db, mailer, config.clientSecretPepper, log),
    identityProviders: new IdentityProviders(config.identityProviders, log),
    passkeys: new Passkeys(db, issuer, config.passkeyRpId),
    metrics,
    redis,
  };

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.set("etag", false);
  if (config.metricsToken) app.get("/metrics", metricsHandler(metrics, config.metricsToken));
  // Without METRICS_TOKEN nobody can read the HTTP series: they are not recorded (hot-path cost).
  app.use(requestIds(log, config.metricsToken ? metrics : null));
  app.use(securityHeaders(issuer.startsWith("https:")));
  // Hot paths first: every router a request passes costs a little. The token router (one route)
  // before the status router (seven): a code exchange then skips the status routes' path tests.
  app.use(tokenRoutes(services));
  app.use(statusRoutes(services));
  app.use(authorizeRoutes(services));
  app.use(deviceRoutes(services));
  app.use(oauthMetaRoutes(services));
  app.use(devCenterRoutes(services));
  app.use(pinRoutes(services));
  app.use(transferRoutes(services));
  app.use(contentTokenRoutes(services));
  app.use(slotExchangeRoutes(services));
  app.use(slotRoutes(services));
  app.use(chainInfoRoutes(services));
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
        void purgeFamilies(db).catch(() => undefined);
        void purgeDevices(db).catch(() => undefined);
        void purgeExpiredChallenges(db).catch(() => undefined);
        void purgeExpiredFlows(db).catch(() => undefined);
        void purgeSignInAttempts(db).catch(() => undefined);
      }, 3_600_000);
      purge.unref();
    },
    async stop() {
      if (purge) clearInterval(purge);
      revocations.stop();
      await outbox.stop();
      if (!options.mailer) mailer.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
