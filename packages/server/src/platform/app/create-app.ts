import { walletConfirmationRoutes } from "../../wallet-window/api-routes.js";
import { walletWindowRoutes } from "../../wallet-window/window-routes.js";
import express, { type Express } from "express";
import { authorizeRoutes } from "../../oauth/authorize/routes.js";
import type { ChainHandle } from "../../chain-api/chain/start-chain.js";
import { chainInfoRoutes } from "../../chain-api/chain/routes.js";
import { contentTokenRoutes } from "../../chain-api/content-tokens/routes.js";
import { devOperatorRoutes } from "../../chain-api/dev-operator/routes.js";
import { pinRoutes } from "../../chain-api/pin/routes.js";
import { slotExchangeRoutes } from "../../chain-api/slot-exchange/routes.js";
import { slotRoutes } from "../../chain-api/slots/routes.js";
import { transferRoutes } from "../../chain-api/transfer/routes.js";
import type { ServerConfig } from "../config/config.js";
import { createLogger, type Logger } from "../config/logger.js";
import { ClientSecrets } from "../../oauth/clients/client-auth.js";
import { devCenterRoutes } from "../../developer/routes.js";
import { deviceRoutes } from "../../oauth/device/routes.js";
import { discoveryRoutes } from "../../oauth/discovery/routes.js";
import { errorHandler, notFound } from "../http/error-handler.js";
import { securityHeaders } from "../http/security-headers.js";
import type { KeyStore } from "../../oauth/keys/key-store.js";
import { RevocationList } from "../../oauth/keys/revocation-list.js";
import { TokenService } from "../../oauth/keys/tokens.js";
import { metaCallbackHandler } from "../../oauth/backend-flow/callback-delivery.js";
import { oauthMetaRoutes } from "../../oauth/backend-flow/routes.js";
import { OutboxSeal } from "../../status/outbox/seal.js";
import { OutboxWorker } from "../../status/outbox/worker.js";
import { marketplaceHandler } from "../../status/marketplace-webhook.js";
import { statusRoutes } from "../../status/routes.js";
import type { Database } from "@slotgate/storage";
import { purgeDevices } from "../../oauth/device/device-authorizations-store.js";
import { purgeFamilies } from "../../oauth/token/refresh-tokens-store.js";
import { purgeFinished } from "../../status/outbox/outbox-store.js";
import { AuthorizationCodes, purgeExpiredCodes } from "../../oauth/token/authorization-code.js";
import { tokenRoutes } from "../../oauth/token/routes.js";
import { createMailer, type Mailer } from "../../identity/mail/mailer.js";
import { MailboxChallenges } from "../../identity/mailbox-proof/challenges.js";
import { IdentityProviders } from "../../identity/identity-providers/upstream.js";
import { Passkeys } from "../../identity/passkeys/webauthn.js";
import { purgeExpiredFlows } from "../../oauth/authorize/sign-in-flows-store.js";
import { purgeOldConfirmations } from "../../wallet-window/confirmations-store.js";
import { purgeExpiredChallenges } from "../../identity/mailbox-proof/mailbox-challenges-store.js";
import { purgeSignInAttempts } from "../../identity/users/sign-in-attempts-store.js";
import { DEFAULT_SCRYPT, type ScryptParams } from "../../identity/users/passwords.js";
import { ClientCache } from "../../oauth/clients/client-auth.js";
import type { Services } from "./services.js";
import { Redis } from "ioredis";
import { requestIds } from "../http/request-id.js";
import { metricsHandler, ServerMetrics } from "../observability/metrics.js";
import { callerAssertions } from "../../chain-api/chain/caller-assertions.js";

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
    [
      marketplaceHandler({ url: config.marketplaceUrl, secret: config.marketplaceSecret, retryBaseMs: config.marketplaceRetryBaseMs }),
      metaCallbackHandler({ seal: outboxSeal }),
    ],
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
    codes: new AuthorizationCodes(db),
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
  const routers = [tokenRoutes, statusRoutes, authorizeRoutes, deviceRoutes, oauthMetaRoutes, devCenterRoutes, pinRoutes, transferRoutes, contentTokenRoutes];
  routers.push(
    slotExchangeRoutes,
    slotRoutes,
    walletConfirmationRoutes,
    walletWindowRoutes,
    chainInfoRoutes,
    ...(services.chain?.devOperator ? [devOperatorRoutes] : []),
    discoveryRoutes,
  );
  for (const routes of routers) app.use(routes(services));
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
        void purgeOldConfirmations(db).catch(() => undefined);
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
