import type { ClientApplication } from "@slotgate/protocol";
import { ENCRYPTION_TEST_VECTORS } from "@slotgate/protocol/test-vectors";

/** A seeded client application, with its secret (fixtures are test data, so the secret is known). */
export interface ClientFixture
  extends Pick<ClientApplication, "client_id" | "name" | "redirect_uris" | "download_url" | "web_url" | "platform" | "blockchain" | "grant_types"> {
  client_secret: string;
  /** The main registered redirect URI (first of `redirect_uris`). */
  redirect_uri: string;
}

/** Every seeded record of the simulated service. */
export interface MockFixtures {
  /** Seeded developer account (owner of every seeded client). Log in with `POST /v1/dev-user/login_devuser`. */
  developer: { uuid: string; email: string; password: string };
  /** Web app for the client SDK (popup / page flows), `blockchain: true`, redirect URI `https://app.example.test/callback`. Owns the `provider` registration. */
  webClient: ClientFixture;
  /** Backend app for the backend SDK; its redirect URI is the backend's POST callback route (option `backendRedirectUri`). `blockchain: true`; registered for refresh tokens. */
  backendClient: ClientFixture;
  /** Game / desktop app with the loopback redirect URI `http://127.0.0.1:<loopbackPort>/callback` (RFC 8252). `blockchain: false`; registered for the device grant. */
  gameClient: ClientFixture;
  /** Seeded end user who can log in on the authorize page. `user_id` is also the `user_dbkey` of its slot. */
  endUser: { user_id: string; email: string; password: string; nickname: string };
  /** Seeded content-token provider registration of `webClient`, cuid `demo-game`, with the known AES key and IV of the shared test vectors. Release is disabled (the default) until `operator.enableRelease`. */
  provider: { client_id: string; cuid: string; release_per: number; owner_addr: string; aes_key: string; aes_iv: string };
  /** The end user's slot wallet for `webClient`: slot 0 of `provider.cuid`, active, holding `xotn` wei of XOTN (already approved), no content tokens yet. */
  slot: { client_id: string; user_id: string; address: string; xotn: string };
}

/** Options that shape the fixtures. */
export interface FixtureOptions {
  /**
   * Registered redirect URI of `backendClient` (where the service POSTs the authorize callback).
   * @default "http://127.0.0.1:4000/slotgate/callback"
   */
  backendRedirectUri?: string;
  /**
   * Port of `gameClient`'s loopback redirect URI `http://127.0.0.1:<port>/callback`.
   * @default 53682
   */
  loopbackPort?: number;
}

const vector = ENCRYPTION_TEST_VECTORS[0]!;

/**
 * Builds the fixture set for the given options. {@link FIXTURES} is the default set.
 *
 * @example
 * ```ts
 * const fixtures = createFixtures({ backendRedirectUri: "http://127.0.0.1:3000/auth/callback" });
 * fixtures.backendClient.redirect_uri; // "http://127.0.0.1:3000/auth/callback"
 * ```
 */
export function createFixtures(options: FixtureOptions = {}): MockFixtures {
  const backendRedirectUri = options.backendRedirectUri ?? "http://127.0.0.1:4000/slotgate/callback";
  const loopbackUri = `http://127.0.0.1:${options.loopbackPort ?? 53682}/callback`;
  return {
    developer: {
      uuid: "00000000-0000-4000-8000-000000000001",
      email: "developer@slotgate.test",
      password: "developer-password",
    },
    webClient: {
      client_id: "sg_demo_client",
      client_secret: "sgs_demo_web_client_secret_0123456789abcdefABCDEF",
      name: "Demo Web App",
      redirect_uri: "https://app.example.test/callback",
      redirect_uris: ["https://app.example.test/callback"],
      download_url: "https://app.example.test/download",
      web_url: "https://app.example.test/",
      platform: "web",
      blockchain: true,
      grant_types: ["authorization_code"],
    },
    backendClient: {
      client_id: "sg_demo_backend",
      client_secret: "sgs_demo_backend_client_secret_0123456789abcdef",
      name: "Demo Backend",
      redirect_uri: backendRedirectUri,
      redirect_uris: [backendRedirectUri],
      download_url: "https://backend.example.test/download",
      web_url: "https://backend.example.test/",
      platform: "web",
      blockchain: true,
      grant_types: ["authorization_code", "refresh_token"],
    },
    gameClient: {
      client_id: "sg_demo_game",
      client_secret: "sgs_demo_game_client_secret_0123456789abcdefghij",
      name: "Demo Game",
      redirect_uri: loopbackUri,
      redirect_uris: [loopbackUri],
      download_url: "https://game.example.test/download",
      web_url: "https://game.example.test/",
      platform: "game",
      blockchain: false,
      grant_types: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
    },
    endUser: {
      user_id: "1001",
      email: "player@example.test",
      password: "player-password",
      nickname: "player",
    },
    provider: {
      client_id: "sg_demo_client",
      cuid: "demo-game",
      release_per: 50,
      owner_addr: "0x00000000000000000000000000000000000d3a40",
      aes_key: vector.key,
      aes_iv: vector.iv,
    },
    slot: {
      client_id: "sg_demo_client",
      user_id: "1001",
      address: "0x5107000000000000000000000000000000001001",
      xotn: "1000000000000000000000",
    },
  };
}

/**
 * The default fixtures that `createMockService()` seeds (for SDK tests to import).
 * `ENCRYPTION_TEST_VECTORS[0]` of `@slotgate/protocol/test-vectors` is a spend payload of exactly
 * `FIXTURES.webClient`, `FIXTURES.endUser` and `FIXTURES.provider`, under `FIXTURES.provider`'s key.
 *
 * @example
 * ```ts
 * import { FIXTURES } from "@slotgate/mock-service";
 * const { client_id, redirect_uri } = FIXTURES.webClient;
 * ```
 */
export const FIXTURES: MockFixtures = createFixtures();
