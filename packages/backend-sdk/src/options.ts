import { SlotgateBackendError } from "./errors.js";
import type { Logger } from "./logger.js";
import type { PendingStore } from "./slot-info/pending-store.js";

/** A `fetch` implementation (the global one by default). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A sleep used between status-sync attempts; resolves after `ms` or rejects when `signal` aborts. */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Constructor options of {@link SlotgateBackend}. The first four are the specification's (4.13). */
export interface SlotgateBackendOptions {
  /** Base URL of the Slotgate service (or of a delegation server for {@link SlotgateBackend.verifyAgentToken}), e.g. `https://auth.example`. */
  authServerUrl: string;
  /** Your client application's id. */
  clientId: string;
  /** Your client application's secret. Kept in a private field; never logged, printed or put in an error. */
  clientSecret: string;
  /** The registered callback URI: the POST (and GET) route where you mount {@link SlotgateBackend.handleCallback}. */
  redirectUri: string;
  /**
   * `fetch` used for every request, resolved at call time.
   * @default globalThis.fetch
   */
  fetch?: FetchLike;
  /**
   * Where ignored callbacks and failed status syncs are reported.
   * @default consoleLogger
   */
  logger?: Logger;
  /**
   * Shared pending store so the callback may reach any instance or serverless function and still
   * complete the `getSlotInfo` call waiting in another (e.g. `RedisPendingStore` from
   * `@slotgate/backend-sdk/redis`). Every instance that serves the callback route and every one that
   * calls `getSlotInfo` must use the same store (same Redis, same `keyPrefix`).
   * @default undefined (pending state lives in this instance only, as in the specification)
   */
  pendingStore?: PendingStore;
  /** Status-sync retry policy (spec 4.6, 8). */
  statusSync?: StatusSyncOptions;
}

/** Retry policy of the status-sync calls. */
export interface StatusSyncOptions {
  /**
   * Attempts per call, including the first.
   * @default 3
   */
  attempts?: number;
  /**
   * Delay before the second attempt; each later delay doubles.
   * @default 250
   */
  baseDelayMs?: number;
  /**
   * Sleep between attempts (inject a fake in tests).
   * @default a `setTimeout` based sleep that honours the signal
   */
  sleep?: SleepFn;
}

/** The validated, normalised configuration (the secret is kept apart). */
export interface ResolvedConfig {
  authServerUrl: string;
  clientId: string;
  redirectUri: string;
}

export function invalid(detail: string): SlotgateBackendError {
  return new SlotgateBackendError("invalid_options", { detail });
}

export function httpUrl(value: unknown, name: string): URL {
  if (typeof value !== "string" || value.trim() === "") throw invalid(`${name} must be a non-empty string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name} must be an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid(`${name} must be an http: or https: URL`);
  if (url.username || url.password) throw invalid(`${name} must not contain credentials`);
  if (url.hash) throw invalid(`${name} must not contain a #fragment`);
  return url;
}

/**
 * Validates the client credentials and `fetch` every client of the SDK takes; the errors name the option,
 * never its value.
 *
 * @example
 * ```ts
 * const { clientId, clientSecret } = clientCredentials(options); // throws invalid_options
 * ```
 */
export function clientCredentials(options: { clientId: unknown; clientSecret: unknown; fetch?: unknown }): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = options;
  if (typeof clientId !== "string" || clientId.trim() === "" || clientId.length > 128) {
    throw invalid("clientId must be a non-empty string of at most 128 characters");
  }
  if (typeof clientSecret !== "string" || clientSecret.trim() === "" || clientSecret.length > 512) {
    throw invalid("clientSecret must be a non-empty string of at most 512 characters");
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw invalid("fetch must be a function");
  return { clientId, clientSecret };
}

/** Validates the constructor options; error messages name the option, never its value. */
export function resolveConfig(options: SlotgateBackendOptions): ResolvedConfig & { clientSecret: string } {
  if (options === null || typeof options !== "object") throw invalid("options must be an object");
  const base = httpUrl(options.authServerUrl, "authServerUrl");
  if (base.search) throw invalid("authServerUrl must not contain a query string");
  httpUrl(options.redirectUri, "redirectUri");
  const { clientId, clientSecret } = clientCredentials(options);
  if (options.logger !== undefined) {
    const l = options.logger;
    if (!l || typeof l.debug !== "function" || typeof l.warn !== "function" || typeof l.error !== "function") {
      throw invalid("logger must have debug, warn and error methods");
    }
  }
  const s = options.statusSync;
  if (s !== undefined) {
    if (s.attempts !== undefined && (!Number.isInteger(s.attempts) || s.attempts < 1 || s.attempts > 10)) {
      throw invalid("statusSync.attempts must be an integer from 1 to 10");
    }
    if (s.baseDelayMs !== undefined && (!Number.isFinite(s.baseDelayMs) || s.baseDelayMs < 0)) {
      throw invalid("statusSync.baseDelayMs must be a finite number >= 0");
    }
    if (s.sleep !== undefined && typeof s.sleep !== "function") throw invalid("statusSync.sleep must be a function");
  }
  return {
    // The redirect URI is sent exactly as given: the service compares it character for character.
    authServerUrl: base.href.replace(/\/+$/, ""),
    clientId,
    clientSecret,
    redirectUri: options.redirectUri,
  };
}
