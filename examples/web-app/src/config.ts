/** Everything the demo back end needs, read once from the environment. */
export interface DemoConfig {
  /** `SLOTGATE_URL`: the Slotgate service. @default "http://127.0.0.1:8080" */
  slotgateUrl: string;
  /** `SLOTGATE_CLIENT_ID`: the demo client application (registered with both redirect URIs below). */
  clientId: string;
  /** `SLOTGATE_CLIENT_SECRET`: stays on this back end; never sent to the browser. */
  clientSecret: string;
  /** `PORT`: where this app listens. @default 3000 */
  port: number;
  /** `HOST`. @default "127.0.0.1" */
  host: string;
  /** `PUBLIC_URL`: this app's origin as the browser sees it. @default "http://{HOST}:{PORT}" */
  publicUrl: string;
  /** `DEMO_CUID`: the content id the demo buys and spends under. @default "slotgate-demo" */
  cuid: string;
  /** `SLOTGATE_AES_KEY` / `SLOTGATE_AES_IV`: the client's spend key (hex), from its first provider registration. */
  spendKey: { key: string; iv: string } | null;
  /** `MARKETPLACE_PUBLIC_URL`: the marketplace where logged-out players sell slots (the page links to it). @default null */
  marketplaceUrl: string | null;
}

/** Raised for a missing or malformed variable; the message names the variable, never its value. */
export class DemoConfigError extends Error {
  override name = "DemoConfigError";
}

function required(env: Record<string, string | undefined>, name: string): string {
  const value = env[name];
  if (!value || value.trim() === "") throw new DemoConfigError(`${name} is required (run the demo with \`npm start\` at the repository root, which sets it)`);
  return value.trim();
}

function marketplaceUrl(value: string | undefined): string | null {
  if (value === undefined || value.trim() === "") return null;
  if (!/^https?:\/\/[^\s]+$/.test(value.trim())) throw new DemoConfigError("MARKETPLACE_PUBLIC_URL must be an http(s) URL");
  return value.trim().replace(/\/+$/, "");
}

/**
 * Reads and validates the demo configuration.
 *
 * @example
 * ```ts
 * const config = loadDemoConfig(process.env);
 * ```
 */
export function loadDemoConfig(env: Record<string, string | undefined>): DemoConfig {
  const port = Number(env["PORT"] ?? "3000");
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new DemoConfigError("PORT must be an integer between 0 and 65535");
  const host = env["HOST"] ?? "127.0.0.1";
  const slotgateUrl = (env["SLOTGATE_URL"] ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
  if (!/^https?:\/\//.test(slotgateUrl)) throw new DemoConfigError("SLOTGATE_URL must be an http(s) URL");
  const key = env["SLOTGATE_AES_KEY"];
  const iv = env["SLOTGATE_AES_IV"];
  if ((key && !/^[0-9a-fA-F]{64}$/.test(key)) || (iv && !/^[0-9a-fA-F]{32}$/.test(iv))) {
    throw new DemoConfigError("SLOTGATE_AES_KEY must be 64 hex characters and SLOTGATE_AES_IV 32 hex characters");
  }
  const cuid = env["DEMO_CUID"] ?? "slotgate-demo";
  if (!/^[\w.-]{1,64}$/.test(cuid)) throw new DemoConfigError("DEMO_CUID must be 1-64 letters, digits, '.', '_' or '-'");
  return {
    slotgateUrl,
    clientId: required(env, "SLOTGATE_CLIENT_ID"),
    clientSecret: required(env, "SLOTGATE_CLIENT_SECRET"),
    port,
    host,
    publicUrl: (env["PUBLIC_URL"] ?? `http://${host}:${port}`).replace(/\/+$/, ""),
    cuid,
    spendKey: key && iv ? { key, iv } : null,
    marketplaceUrl: marketplaceUrl(env["MARKETPLACE_PUBLIC_URL"]),
  };
}
