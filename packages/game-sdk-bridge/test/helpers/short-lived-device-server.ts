import { type ReferenceServer, startReferenceServer } from "@slotgate/server/testing";

/** How long the device codes of {@link startShortLivedDeviceServer}'s server live, in seconds. */
export const SHORT_DEVICE_CODE_SECONDS = 2;

/** A reference server whose device codes expire quickly, and the public device client registered on it. */
export interface ShortLivedDeviceServer {
  readonly server: ReferenceServer;
  /** A client registered with the device grant (`urn:ietf:params:oauth:grant-type:device_code`). */
  readonly clientId: string;
}

/**
 * Starts a reference server of its own whose device codes live {@link SHORT_DEVICE_CODE_SECONDS} s (polling interval
 * 1 s), with one device client, so a test can leave a code unused and see its expiry (`expired_token` from the
 * server, `code_expired` from a login) without waiting the default 600 s. A server of its own because suites also
 * assert the default lifetime on their main server. Embedded database, no chain. The CLI's e2e suite and the shared
 * engine suite (engines/test-support) both use it.
 *
 * @param name - Names the registered client (`<name> console`).
 */
export async function startShortLivedDeviceServer(name: string): Promise<ShortLivedDeviceServer> {
  let clientId = "";
  const server = await startReferenceServer({
    chain: "off",
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT: "off",
      SLOTGATE_SEED_DEMO: "false",
      DEVICE_CODE_LIFETIME_SECONDS: String(SHORT_DEVICE_CODE_SECONDS),
      DEVICE_POLL_INTERVAL_SECONDS: "1",
    },
    before(run) {
      const created = run([
        "client",
        "create",
        "--name",
        `${name} console`,
        "--redirect-uri",
        "https://game.example/unused",
        "--download-url",
        "https://game.example/dl",
        "--web-url",
        "https://game.example",
        "--platform",
        "game",
        "--grant-type",
        "urn:ietf:params:oauth:grant-type:device_code",
      ]) as Record<string, unknown>;
      clientId = String(created["client_id"]);
    },
  });
  return { server, clientId };
}
