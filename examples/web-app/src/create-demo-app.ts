import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ContentTokenClient, SlotgateBackend } from "@slotgate/backend-sdk";
import express, { type Express } from "express";
import type { DemoConfig } from "./config.js";
import { sessionRoutes } from "./routes/session-routes.js";
import { slotRoutes } from "./routes/slot-routes.js";
import { walletRoutes } from "./routes/wallet-routes.js";
import { tokenRoutes } from "./routes/token-routes.js";
import { SessionStore } from "./sessions.js";

/** Path of the backend-SDK callback on this app; registered as a redirect URI of the client. */
export const CALLBACK_PATH = "/api/slotgate/callback";
/**
 * Path of the popup's redirect page (client SDK `handleLoginCallback`); registered as a redirect URI.
 * (`http://127.0.0.1:<port>/callback` would work too: for a web client it is an ordinary redirect URI.)
 */
export const POPUP_REDIRECT_PATH = "/slotgate-callback.html";

/** The demo app and the SDK objects it owns (call `slotgate.shutdown()` when closing). */
export interface DemoApp {
  app: Express;
  slotgate: SlotgateBackend;
}

/**
 * Builds the demo's Express app: static front end, the backend-SDK callback, and the JSON routes
 * the front end calls for each step of the journey.
 *
 * @example
 * ```ts
 * const { app, slotgate } = createDemoApp(loadDemoConfig(process.env));
 * app.listen(3000);
 * ```
 */
export function createDemoApp(config: DemoConfig): DemoApp {
  const slotgate = new SlotgateBackend({
    authServerUrl: config.slotgateUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri: config.publicUrl + CALLBACK_PATH,
  });
  const tokens = new ContentTokenClient({ authServerUrl: config.slotgateUrl, clientId: config.clientId, clientSecret: config.clientSecret });
  const sessions = new SessionStore();

  const app = express();
  app.disable("x-powered-by");
  app.use((_req, res, next) => {
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "no-referrer");
    next();
  });

  // The service POSTs here (no body, code and state in the query): mount before any body parser.
  app.all(CALLBACK_PATH, slotgate.handleCallback);

  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  // Public settings only: the client id is public, the secret and the AES key stay here.
  app.get("/api/config", (_req, res) => {
    res.json({
      slotgateUrl: config.slotgateUrl,
      clientId: config.clientId,
      redirectUri: config.publicUrl + POPUP_REDIRECT_PATH,
      cuid: config.cuid,
      spendKeyConfigured: config.spendKey !== null,
      marketplaceUrl: config.marketplaceUrl,
    });
  });
  app.use("/api/tokens", tokenRoutes(config, tokens, sessions));
  app.use("/api/wallet", walletRoutes(config, config.publicUrl + POPUP_REDIRECT_PATH, sessions));
  app.use("/api/slots", slotRoutes(config, slotgate, sessions));
  app.use("/api", sessionRoutes(slotgate, sessions));
  app.use("/api", (_req, res) => {
    res.status(404).json({ error: "not_found", message: "Unknown demo API route." });
  });

  // This file runs from src/ (tests) or dist/ (built): the package root is one level up either way.
  const root = fileURLToPath(new URL("../", import.meta.url));
  const pub = join(root, "public");
  const built = join(root, "dist/public");
  app.use(express.static(built, { index: false }));
  app.use(express.static(pub));
  return { app, slotgate };
}
