import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SlotgateBackend } from "@slotgate/backend-sdk";
import { type Database, openDatabase } from "@slotgate/storage";
import express, { type Express, type NextFunction, type Request, type Response, json } from "express";
import type { MarketplaceConfig } from "./config.js";
import { MarketError, sendError } from "./errors.js";
import { marketRoutes } from "./routes/market-routes.js";
import { sessionRoutes } from "./routes/session-routes.js";
import { SessionStore } from "./sessions.js";
import { SlotgateApi } from "./slotgate-api.js";
import { migrateMarketplace } from "./storage/migrations.js";
import { WEBHOOK_PATH, loginStatusWebhook } from "./webhooks/login-status-webhook.js";

/** Path of the backend-SDK callback; a redirect URI of the marketplace's client. */
export const CALLBACK_PATH = "/api/slotgate/callback";
/** Path of the popup's redirect page; a redirect URI of the marketplace's client. */
export const POPUP_REDIRECT_PATH = "/slotgate-callback.html";

/** A running marketplace's parts. */
export interface Marketplace {
  app: Express;
  db: Database;
  /** Development defaults in use (the embedded database), to warn about at start-up. */
  warnings: string[];
  /** Closes the SDK and the database. */
  close(): Promise<void>;
}

/** Options of {@link createMarketplace}. */
export interface CreateMarketplaceOptions {
  /** An open database to use instead of the configured one (tests). @default opened from the configuration */
  db?: Database;
  /** The webhook receiver's clock (milliseconds). @default Date.now */
  now?: () => number;
}

/**
 * Opens the marketplace's database (PGlite in `{dataDir}/db`, or `DATABASE_URL`), applies its
 * migrations, and builds the Express app: the static pages, the backend-SDK
 * callback, the webhook receiver and the JSON API.
 *
 * @example
 * ```ts
 * const market = await createMarketplace(loadMarketplaceConfig(process.env));
 * market.app.listen(3100);
 * ```
 */
export async function createMarketplace(config: MarketplaceConfig, options: CreateMarketplaceOptions = {}): Promise<Marketplace> {
  const warnings: string[] = [];
  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: join(config.dataDir, "db") }));
  if (!options.db && !config.databaseUrl) warnings.push(`embedded database in ${join(config.dataDir, "db")} (set DATABASE_URL for PostgreSQL)`);
  try {
    await migrateMarketplace(db);
  } catch (error) {
    if (!options.db) await db.close();
    throw error;
  }

  const slotgate = new SlotgateBackend({
    authServerUrl: config.slotgateUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri: config.publicUrl + CALLBACK_PATH,
  });
  const api = new SlotgateApi({
    slotgateUrl: config.slotgateUrl,
    marketplaceSecret: config.marketplaceSecret,
    backend: slotgate,
    client: { clientId: config.clientId, clientSecret: config.clientSecret },
  });
  const walletRedirectUri = config.publicUrl + POPUP_REDIRECT_PATH;
  const sessions = new SessionStore();

  const app = express();
  app.disable("x-powered-by");
  app.use((_req, res, next) => {
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "no-referrer");
    next();
  });
  // Both take their bodies as they come: before any JSON parser.
  app.all(CALLBACK_PATH, slotgate.handleCallback);
  app.post(
    WEBHOOK_PATH,
    ...loginStatusWebhook({
      db,
      secret: config.marketplaceSecret,
      games: config.games,
      toleranceSeconds: config.webhookToleranceSeconds,
      ...(options.now ? { now: options.now } : {}),
    }),
  );

  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  app.get("/api/config", (_req, res) => {
    res.json({
      slotgateUrl: config.slotgateUrl,
      clientId: config.clientId,
      redirectUri: walletRedirectUri,
      games: [...config.games.keys()],
    });
  });
  // State changes take JSON only: a cross-site form cannot send it without a preflight (with the SameSite cookie: no CSRF).
  app.use("/api", (req, _res, next) => {
    if (req.method === "POST" && !req.is("application/json")) return next(new MarketError("unsupported_media_type", 415, "Send the body as application/json."));
    next();
  });
  app.use("/api", json({ limit: "16kb" }));
  app.use("/api", sessionRoutes({ slotgate, sessions, db, games: config.games }));
  app.use("/api", marketRoutes({ db, api, walletRedirectUri, sessions, games: config.games }));
  app.use("/api", (_req, res) => {
    res.status(404).json({ error: "not_found", message: "Unknown marketplace API route." });
  });

  const root = fileURLToPath(new URL("../", import.meta.url));
  app.use(express.static(join(root, "dist/public"), { index: false }));
  app.use(express.static(join(root, "public")));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: unknown }).status;
    if (!(err instanceof MarketError) && typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).json({ error: "invalid_request", message: "The request body is not valid JSON or is too large." });
      return;
    }
    sendError(res, err);
  });

  return {
    app,
    db,
    warnings,
    async close() {
      await slotgate.shutdown();
      if (!options.db) await db.close();
    },
  };
}
