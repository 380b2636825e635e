import { GameSdkBridgeError } from "./errors.js";

/**
 * Platform address used when no `SlotgateUrl` is given.
 * @example
 * ```ts
 * import { DEFAULT_SLOTGATE_URL } from "@slotgate/game-sdk-bridge";
 * console.log(DEFAULT_SLOTGATE_URL); // "https://auth.slotgate.io"
 * ```
 */
export const DEFAULT_SLOTGATE_URL = "https://auth.slotgate.io";

/**
 * How long {@link login} waits for the browser redirect, in milliseconds (spec 8: client login timeout).
 * @example
 * ```ts
 * import { DEFAULT_LOGIN_TIMEOUT_MS, login } from "@slotgate/game-sdk-bridge";
 * await login(config, { timeoutMs: 2 * DEFAULT_LOGIN_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_LOGIN_TIMEOUT_MS = 120_000;

/** The only host the loopback listener binds to and the redirect URI may name (RFC 8252 section 8.3). */
export const LOOPBACK_HOST = "127.0.0.1";

/** The only path the loopback redirect URI may use. */
export const CALLBACK_PATH = "/callback";

/**
 * Login config with the engine SDK's PascalCase names (spec 4.14), as a Unity
 * or C# caller writes them.
 */
export interface LoginConfigPascal {
  /** The client application's public id. */
  ClientId: string;
  /**
   * Registered loopback redirect URI: `http://127.0.0.1/callback` for a public client (no port: the
   * operating system picks one, and Slotgate accepts any port, RFC 8252 section 7.3), or
   * `http://127.0.0.1:<port>/callback` to listen on that fixed port.
   * Port `0` (or no port) means "use `LoopbackPort`, or an ephemeral port".
   */
  RedirectUri: string;
  /**
   * Base address of the Slotgate service (`https`, or `http` on a loopback host for development).
   * @default "https://auth.slotgate.io"
   */
  SlotgateUrl?: string;
  /**
   * Port to listen on. Must agree with the port in `RedirectUri` when that names one.
   * @default the port of `RedirectUri`, else an ephemeral port
   */
  LoopbackPort?: number;
}

/** The same login config with camelCase names, for JavaScript callers. */
export interface LoginConfigCamel {
  /** The client application's public id. */
  clientId: string;
  /** See {@link LoginConfigPascal.RedirectUri}. */
  redirectUri: string;
  /**
   * See {@link LoginConfigPascal.SlotgateUrl}.
   * @default "https://auth.slotgate.io"
   */
  slotgateUrl?: string;
  /** See {@link LoginConfigPascal.LoopbackPort}. */
  loopbackPort?: number;
}

/**
 * Config of {@link login}: PascalCase (engine style) or camelCase names.
 * There is deliberately no client secret field: a secret must never ship in a
 * game build (spec 4.14, 5.4), and a config carrying one is refused.
 *
 * @example
 * ```ts
 * import type { LoginConfig } from "@slotgate/game-sdk-bridge";
 *
 * const anyPort: LoginConfig = { ClientId: "my-game", RedirectUri: "http://127.0.0.1/callback" };
 * const fixedPort: LoginConfig = { ClientId: "my-game", RedirectUri: "http://127.0.0.1:53682/callback" };
 * const fromJs: LoginConfig = { clientId: "my-game", redirectUri: "http://127.0.0.1:0/callback", loopbackPort: 53682 };
 * ```
 */
export type LoginConfig = LoginConfigPascal | LoginConfigCamel;

/** A validated config. */
export interface ResolvedLoginConfig {
  clientId: string;
  /** Base URL with a trailing slash, so relative paths keep any base path. */
  slotgateUrl: URL;
  /** Port to bind; `0` asks the operating system for an ephemeral port. */
  port: number;
}

const SECRET_KEYS = ["ClientSecret", "clientSecret", "client_secret", "Secret", "secret"];
const LOOPBACK_DEV_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

function invalid(message: string): GameSdkBridgeError {
  return new GameSdkBridgeError("invalid_config", message);
}

function pick(config: Record<string, unknown>, pascal: string, camel: string): unknown {
  const a = config[pascal];
  const b = config[camel];
  if (a !== undefined && b !== undefined && a !== b) {
    throw invalid(`${pascal} and ${camel} are both set to different values; set only one.`);
  }
  return a !== undefined ? a : b;
}

function readClientId(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw invalid("ClientId is required: pass the client application's public id.");
  }
  if (value.length > 256 || !/^[!-~]+$/.test(value)) {
    throw invalid("ClientId must be 1 to 256 printable ASCII characters without spaces.");
  }
  return value;
}

function readSlotgateUrl(value: unknown): URL {
  if (value === undefined || value === null || value === "") return new URL(`${DEFAULT_SLOTGATE_URL}/`);
  if (typeof value !== "string") throw invalid("SlotgateUrl must be a string such as https://auth.slotgate.io.");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("SlotgateUrl is not a valid absolute URL (expected e.g. https://auth.slotgate.io).");
  }
  if (url.username !== "" || url.password !== "") {
    throw invalid("SlotgateUrl must not contain a user name or password.");
  }
  if (url.search !== "" || url.hash !== "") {
    throw invalid("SlotgateUrl must not have a query or fragment.");
  }
  const devLoopback = url.protocol === "http:" && LOOPBACK_DEV_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !devLoopback) {
    throw invalid("SlotgateUrl must use https (plain http is allowed only for a local server on 127.0.0.1 or localhost).");
  }
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  return url;
}

function readPort(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 65535) {
    throw invalid(`${name} must be an integer from 0 to 65535 (0 means an ephemeral port).`);
  }
  return value;
}

const LOOPBACK_EXAMPLE = "http://127.0.0.1/callback";

function readRedirectPort(value: unknown): number | undefined {
  if (typeof value !== "string" || value === "") {
    throw invalid(`RedirectUri is required: the registered loopback URI ${LOOPBACK_EXAMPLE}.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`RedirectUri is not a valid URL; expected ${LOOPBACK_EXAMPLE}.`);
  }
  if (url.protocol !== "http:") {
    throw invalid(`RedirectUri must use http on the loopback interface (RFC 8252 section 7.3), e.g. ${LOOPBACK_EXAMPLE}.`);
  }
  if (url.hostname === "localhost" || url.hostname === "[::1]") {
    throw invalid(
      `RedirectUri must use the IP literal 127.0.0.1, not ${url.hostname}: "localhost" may resolve to ::1 (IPv6) while the ` +
        `listener is on 127.0.0.1, or be remapped by the hosts file or a firewall (RFC 8252 section 8.3). Use ${LOOPBACK_EXAMPLE} ` +
        "and register exactly that URI.",
    );
  }
  if (url.hostname !== LOOPBACK_HOST) {
    throw invalid(`RedirectUri must be a loopback URI on 127.0.0.1 (${LOOPBACK_EXAMPLE}); got host ${url.hostname}.`);
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw invalid(`RedirectUri must be exactly ${LOOPBACK_EXAMPLE}, without user info, query or fragment.`);
  }
  if (url.pathname !== CALLBACK_PATH) {
    throw invalid(`RedirectUri must use the path /callback (${LOOPBACK_EXAMPLE}); got ${url.pathname}.`);
  }
  // The URL parser drops a default port (80), so read the written port from the text.
  const written = /^http:\/\/127\.0\.0\.1:(\d+)\//i.exec(value)?.[1];
  if (written === undefined) return undefined;
  const port = Number(written);
  return port === 0 ? undefined : port;
}

/**
 * Config of {@link loginWithDeviceCode}: the device grant needs no redirect URI.
 *
 * @example
 * ```ts
 * const config: DeviceLoginConfig = { ClientId: "my-console-game", SlotgateUrl: "https://auth.slotgate.io" };
 * ```
 */
export type DeviceLoginConfig = Pick<LoginConfigPascal, "ClientId" | "SlotgateUrl"> | Pick<LoginConfigCamel, "clientId" | "slotgateUrl">;

function refuseSecret(record: Record<string, unknown>): void {
  if (SECRET_KEYS.some((key) => record[key] !== undefined)) {
    throw invalid(
      "A client secret was passed. It is never accepted: a game build is public, so the secret would leak. " +
        "Keep the client secret on your game backend only.",
    );
  }
}

/**
 * Validates a {@link DeviceLoginConfig}.
 * @throws {@link GameSdkBridgeError} with code `invalid_config`.
 * @internal
 */
export function resolveDeviceLoginConfig(config: unknown): { clientId: string; slotgateUrl: URL } {
  if (config === null || typeof config !== "object") {
    throw invalid("loginWithDeviceCode() needs a config object with ClientId.");
  }
  const record = config as Record<string, unknown>;
  refuseSecret(record);
  return { clientId: readClientId(pick(record, "ClientId", "clientId")), slotgateUrl: readSlotgateUrl(pick(record, "SlotgateUrl", "slotgateUrl")) };
}

/**
 * Validates a {@link LoginConfig} and decides the port.
 *
 * Port rule: when `RedirectUri` names a port, that port is used and
 * `LoopbackPort`, if given, must be the same; when it names port `0` or none,
 * `LoopbackPort` is used, or else an ephemeral port, and the actual port is put
 * into the redirect URI sent to Slotgate.
 *
 * @throws {@link GameSdkBridgeError} with code `invalid_config`.
 * @internal
 */
export function resolveLoginConfig(config: unknown): ResolvedLoginConfig {
  if (config === null || typeof config !== "object") {
    throw invalid("login() needs a config object with ClientId and RedirectUri.");
  }
  const record = config as Record<string, unknown>;
  refuseSecret(record);
  const clientId = readClientId(pick(record, "ClientId", "clientId"));
  const redirectPort = readRedirectPort(pick(record, "RedirectUri", "redirectUri"));
  const slotgateUrl = readSlotgateUrl(pick(record, "SlotgateUrl", "slotgateUrl"));
  const loopbackPort = readPort(pick(record, "LoopbackPort", "loopbackPort"), "LoopbackPort");
  if (redirectPort !== undefined && loopbackPort !== undefined && loopbackPort !== redirectPort) {
    throw invalid(`LoopbackPort (${loopbackPort}) differs from the port in RedirectUri (${redirectPort}); they must agree, or leave one out.`);
  }
  return { clientId, slotgateUrl, port: redirectPort ?? loopbackPort ?? 0 };
}
