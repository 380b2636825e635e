import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "@slotgate/storage";
import { loadMarketplaceConfig } from "../../src/config.js";
import { type Marketplace, createMarketplace } from "../../src/create-marketplace.js";

export const MARKETPLACE_SECRET = "test-marketplace-secret-0123456789abcdef";

/** A marketplace listening on 127.0.0.1 with a fresh data dir (seal key) and the given database. */
export interface RunningMarketplace extends Marketplace {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the marketplace app on 127.0.0.1 (`port` 0: any free port).
 *
 * @example
 * ```ts
 * const market = await startMarketplace({ env: { SLOTGATE_URL: service.url, GAME_CLIENT_ID: "sg_game" } });
 * ```
 */
export async function startMarketplace(
  options: { env?: Record<string, string>; db?: Database; port?: number; now?: () => number } = {},
): Promise<RunningMarketplace> {
  const dataDir = mkdtempSync(join(tmpdir(), "marketplace-test-"));
  const port = options.port ?? 0;
  const config = loadMarketplaceConfig({
    SLOTGATE_URL: "http://127.0.0.1:9",
    SLOTGATE_CLIENT_ID: "sg_market",
    SLOTGATE_CLIENT_SECRET: "market-client-secret",
    MARKETPLACE_SECRET,
    MARKETPLACE_DATA_DIR: dataDir,
    GAME_CUID: "test-game",
    GAME_CLIENT_ID: "sg_game",
    PORT: String(port),
    ...(port ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...options.env,
  });
  const db = options.db ?? (await openDatabase({}));
  const market = await createMarketplace(config, { db, ...(options.now ? { now: options.now } : {}) });
  const server = await new Promise<Server>((ok) => {
    const s = market.app.listen(port, "127.0.0.1", () => ok(s));
  });
  return {
    ...market,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dataDir,
    async stop() {
      await new Promise((ok) => server.close(ok));
      await market.close();
      if (!options.db) await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
