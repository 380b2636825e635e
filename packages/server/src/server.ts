import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createApp, type SlotgateApp } from "./platform/app/create-app.js";
import { appPrototypes } from "./platform/http/app-prototypes.js";
import { type ChainHandle, logChainWarning, startChain } from "./chain-api/chain/start-chain.js";
import type { ServerConfig } from "./platform/config/config.js";
import { createLogger, type Logger } from "./platform/config/logger.js";
import { createKeyStore, type KeyStore, loadOrCreateKeyFile, type PrivateJwk } from "./oauth/keys/key-store.js";
import { type Database, openDatabase } from "@slotgate/storage";
import { migrateServer } from "./platform/migrations.js";
import type { ScryptParams } from "./identity/users/passwords.js";
import { callerAssertions } from "./chain-api/chain/caller-assertions.js";
import { ProductionRefusal, refuseDevelopmentDefaults } from "./platform/config/production.js";

/** Development defaults in use, each announced with a loud warning at start-up. */
export interface Resources {
  db: Database;
  keys: KeyStore;
  config: ServerConfig;
  warnings: string[];
}

function banner(log: Logger, warnings: string[]): void {
  for (const w of warnings) log.warn(`DEVELOPMENT DEFAULT: ${w}`);
}

/** Reads the pepper from the data dir, creating it on first use. */
function loadOrCreatePepper(dataDir: string): { pepper: string; generated: boolean } {
  const file = join(dataDir, "client-secret-pepper");
  if (existsSync(file)) return { pepper: readFileSync(file, "utf8").trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const pepper = randomBytes(32).toString("base64url");
  writeFileSync(file, pepper, { mode: 0o600 });
  return { pepper, generated: true };
}

/**
 * The server's database as configured: PostgreSQL at `DATABASE_URL`, else the embedded database in
 * `<SLOTGATE_DATA_DIR>/db` (locked for this process). Not migrated.
 *
 * @example
 * ```ts
 * const db = await openServerDatabase(loadConfig());
 * ```
 */
export function openServerDatabase(config: ServerConfig, options: { schema?: string | undefined; poolSize?: number } = {}): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl ?? undefined,
    dataDir: join(config.dataDir, "db"),
    schema: options.schema,
    poolSize: options.poolSize ?? config.databasePoolSize,
  });
}

/**
 * Opens the database (migrating it) and loads the signing keys and pepper, falling back to
 * development defaults in the data directory, with a warning for each one used.
 *
 * @example
 * ```ts
 * const { db, keys, config: filled, warnings } = await openResources(loadConfig());
 * ```
 */
export async function openResources(config: ServerConfig, options: { schema?: string } = {}): Promise<Resources> {
  const warnings: string[] = [];
  const db = await openServerDatabase(config, { schema: options.schema });
  if (db.kind === "pglite") warnings.push(`embedded database (PGlite) in ${join(config.dataDir, "db")}; set DATABASE_URL for production`);
  await migrateServer(db);
  let jwks: PrivateJwk[];
  if (config.signingKeys) jwks = config.signingKeys as PrivateJwk[];
  else {
    const loaded = await loadOrCreateKeyFile(config.dataDir);
    jwks = loaded.keys;
    warnings.push(`signing keys ${loaded.generated ? "generated" : "read"} in ${config.dataDir}; set SIGNING_KEYS for production`);
  }
  let filled = config;
  if (!config.clientSecretPepper) {
    const { pepper } = loadOrCreatePepper(config.dataDir);
    filled = { ...config, clientSecretPepper: pepper };
    warnings.push(`client-secret pepper kept in ${config.dataDir}; set CLIENT_SECRET_PEPPER for production`);
  }
  if (!config.mail.smtpUrl)
    warnings.push(
      `mail (one-time codes) goes to the development mailbox in ${join(config.dataDir, "mailbox")}, shown in the developer center; set SMTP_URL for production`,
    );
  if (!config.marketplaceUrl) warnings.push("MARKETPLACE_URL is not set: login-status webhooks wait in the outbox until it is");
  return { db, keys: await createKeyStore(jwks), config: filled, warnings };
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  server: Server;
  slotgate: SlotgateApp;
  /** Stops accepting connections, stops workers and closes the database. */
  close(): Promise<void>;
}

/**
 * Listens on `config.host:config.port` (0 picks a free port) and serves the app; the issuer is
 * `PUBLIC_URL` or the actual listening address.
 *
 * @example
 * ```ts
 * const running = await startServer(loadConfig({ PORT: "0" }));
 * console.log(running.url);
 * await running.close();
 * ```
 */
export async function startServer(
  config: ServerConfig,
  options: { log?: Logger; scrypt?: ScryptParams; resources?: Resources; schema?: string; chain?: ChainHandle | null } = {},
): Promise<RunningServer> {
  refuseDevelopmentDefaults(config, "server");
  const log = options.log ?? createLogger(config.logLevel);
  const res = options.resources ?? (await openResources(config, options.schema ? { schema: options.schema } : {}));
  banner(log, res.warnings);
  let chain: ChainHandle | null;
  try {
    chain =
      options.chain !== undefined
        ? options.chain
        : await startChain(res.config.chain, res.db, {
            dataDir: res.config.dataDir,
            warn: logChainWarning(log),
            log,
            callers: { assert: callerAssertions(res.keys), keys: res.keys.jwks() },
          });
  } catch (error) {
    if (!options.resources) await res.db.close();
    throw error;
  }
  if (chain?.devOperator && config.environment === "production") {
    await chain.close();
    if (!options.resources) await res.db.close();
    throw new ProductionRefusal([{ variable: "CHAIN_SERVICE_URL", problem: "names a chain service on a development chain (well-known keys, dev routes)" }]);
  }
  if (!chain) log.warn("CHAIN=off: wallet, PIN, transfer, slot-exchange and content-token endpoints answer 503 service_unavailable");
  // Requests and responses are born with the app's prototypes: Express's per-request prototype swap
  // then changes nothing (http/app-prototypes.ts says why that matters).
  const prototypes = appPrototypes();
  const server = createServer({ IncomingMessage: prototypes.IncomingMessage, ServerResponse: prototypes.ServerResponse });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  const url = res.config.publicUrl ?? `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${addr.port}`;
  const slotgate = await createApp({
    config: res.config,
    db: res.db,
    keys: res.keys,
    issuer: url,
    log,
    chain,
    ...(options.scrypt ? { scrypt: options.scrypt } : {}),
  });
  await slotgate.start();
  prototypes.adopt(slotgate.app);
  server.on("request", slotgate.app);
  log.info("listening", { url, database: res.db.kind, chain: chain?.mode ?? "off" });
  return {
    url,
    server,
    slotgate,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await slotgate.stop();
      if (chain && options.chain === undefined) await chain.close();
      await res.db.close();
    },
  };
}
