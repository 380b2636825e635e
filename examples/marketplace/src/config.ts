import { resolve } from "node:path";

/** Everything the marketplace needs, read once from the environment at start-up. */
export interface MarketplaceConfig {
  /** `SLOTGATE_URL`: the Slotgate service. @default "http://127.0.0.1:8080" */
  slotgateUrl: string;
  /** `SLOTGATE_CLIENT_ID`: the marketplace's own web client (redirect URIs: the popup page and the backend callback). */
  clientId: string;
  /** `SLOTGATE_CLIENT_SECRET`: stays on this back end. */
  clientSecret: string;
  /** `MARKETPLACE_SECRET`: the service's webhook HMAC key and the bearer key of `listing_allowed` (the service's own value). */
  marketplaceSecret: string;
  /** `PORT`. @default 3100 */
  port: number;
  /** `HOST`. @default "127.0.0.1" */
  host: string;
  /** `PUBLIC_URL`: this app's origin as the browser sees it. @default "http://{HOST}:{PORT}" */
  publicUrl: string;
  /** `MARKETPLACE_DATA_DIR`: the embedded database (`db/`). @default ".marketplace-data" */
  dataDir: string;
  /** `DATABASE_URL`: PostgreSQL instead of the embedded database. @default null */
  databaseUrl: string | null;
  /** The games whose slots are traded: cuid → the client_id that registered it (`GAME_CUID` + `GAME_CLIENT_ID`). */
  games: ReadonlyMap<string, string>;
  /** `WEBHOOK_TOLERANCE_SECONDS`: accepted age of a webhook signature. @default 300 */
  webhookToleranceSeconds: number;
}

/** A missing or malformed variable; the message names the variable, never its value. */
export class MarketplaceConfigError extends Error {
  override name = "MarketplaceConfigError";
}

const CUID = /^[\w.-]{1,64}$/;

function required(env: Record<string, string | undefined>, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new MarketplaceConfigError(`${name} is required (run the marketplace with \`npm start\` at the repository root, which sets it)`);
  return value;
}

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const value = Number(env[name] ?? String(fallback));
  if (!Number.isInteger(value) || value < min || value > max) throw new MarketplaceConfigError(`${name} must be an integer between ${min} and ${max}`);
  return value;
}

/**
 * Reads and validates the marketplace configuration.
 *
 * @example
 * ```ts
 * const config = loadMarketplaceConfig(process.env);
 * ```
 */
export function loadMarketplaceConfig(env: Record<string, string | undefined>): MarketplaceConfig {
  const port = integer(env, "PORT", 3100, 0, 65535);
  const host = env["HOST"] ?? "127.0.0.1";
  const slotgateUrl = (env["SLOTGATE_URL"] ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
  if (!/^https?:\/\//.test(slotgateUrl)) throw new MarketplaceConfigError("SLOTGATE_URL must be an http(s) URL");
  const marketplaceSecret = required(env, "MARKETPLACE_SECRET");
  if (marketplaceSecret.length < 32) throw new MarketplaceConfigError("MARKETPLACE_SECRET must be at least 32 characters (the service's own value)");
  const clientId = required(env, "SLOTGATE_CLIENT_ID");
  const clientSecret = required(env, "SLOTGATE_CLIENT_SECRET");
  const cuid = required(env, "GAME_CUID");
  if (!CUID.test(cuid)) throw new MarketplaceConfigError("GAME_CUID must be 1-64 letters, digits, '.', '_' or '-'");
  return {
    slotgateUrl,
    clientId,
    clientSecret,
    marketplaceSecret,
    port,
    host,
    publicUrl: (env["PUBLIC_URL"] ?? `http://${host}:${port}`).replace(/\/+$/, ""),
    dataDir: resolve(env["MARKETPLACE_DATA_DIR"] ?? ".marketplace-data"),
    databaseUrl: env["DATABASE_URL"]?.trim() || null,
    games: new Map([[cuid, required(env, "GAME_CLIENT_ID")]]),
    webhookToleranceSeconds: integer(env, "WEBHOOK_TOLERANCE_SECONDS", 300, 1, 86_400),
  };
}

/**
 * The cuids a client registered, from the configured games (the client a `logged_in` event names).
 *
 * @example
 * ```ts
 * cuidsOf(config.games, "sg_game"); // ["slotgate-demo"]
 * ```
 */
export function cuidsOf(games: ReadonlyMap<string, string>, clientId: string): string[] {
  return [...games].filter(([, client]) => client === clientId).map(([cuid]) => cuid);
}
