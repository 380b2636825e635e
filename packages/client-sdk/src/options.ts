import { POPUP_HEIGHT, POPUP_WIDTH } from "./constants.js";
import { SlotgateError } from "./errors.js";

/**
 * Options of the {@link Slotgate} constructor (spec 4.12).
 *
 * @example
 * ```ts
 * const options: SlotgateOptions = {
 *   slotgateUrl: "https://auth.slotgate.example",
 *   clientId: "sg_0123456789abcdefghijklmn",
 *   redirectUri: "https://game.example/slotgate-callback.html",
 * };
 * ```
 */
export interface SlotgateOptions {
  /** Base URL of the Slotgate service: https, or http only for localhost / 127.0.0.1 / [::1]. */
  slotgateUrl: string;
  /** The client_id of your registered client application. */
  clientId: string;
  /**
   * A redirect URI registered for the client, character for character. The popup answers the page on this
   * URI's origin, so your app must run on it; under a severing Cross-Origin-Opener-Policy the popup lands on
   * this page, which must call {@link handleLoginCallback}.
   */
  redirectUri: string;
  /**
   * OAuth response type; only `code` exists.
   * @default "code"
   */
  responseType?: "code";
  /**
   * Popup width in CSS pixels.
   * @default 600
   */
  popupWidth?: number;
  /**
   * Popup height in CSS pixels.
   * @default 500
   */
  popupHeight?: number;
  /**
   * Keep the user signed in past the JWT's 7 days: {@link Slotgate.renew} runs by itself 5 minutes before the
   * stored JWT expires, and at construction when it has already expired (docs/decisions/client-sdk.md,
   * "Sessions that outlive a JWT").
   * @default false
   */
  autoRenew?: boolean;
  /**
   * The player's preferred languages for the sign-in popup, as OpenID Connect `ui_locales`: language tags
   * separated by spaces, in order (`"ja en"`). The service shows the first it ships (English, Japanese,
   * Korean, Arabic), else follows the browser.
   * @default the browser's languages
   */
  uiLocales?: string;
  /**
   * The fetch used by {@link Slotgate.logout} to revoke the token (tests, instrumentation).
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
}

/** Validated, normalised constructor options. @internal */
export interface ResolvedOptions {
  origin: string;
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  width: number;
  height: number;
  autoRenew: boolean;
  uiLocales?: string | undefined;
  fetch?: typeof fetch;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

function fail(message: string): never {
  throw new SlotgateError("invalid_options", message);
}

function parseUrl(value: unknown, name: string): URL {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {}
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) fail(`${name} must be an absolute http(s) URL`);
  if (url.username || url.password) fail(`${name} must not contain credentials`);
  return url;
}

function size(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 100 || (value as number) > 10_000) {
    fail(`${name} must be an integer between 100 and 10000`);
  }
  return value as number;
}

/** Validates the constructor options; throws `SlotgateError("invalid_options")` naming the field. @internal */
export function resolveOptions(options: SlotgateOptions): ResolvedOptions {
  if (typeof options !== "object" || options === null) fail("options must be an object");
  const service = parseUrl(options.slotgateUrl, "slotgateUrl");
  if (service.protocol === "http:" && !LOOPBACK.test(service.hostname)) {
    fail("slotgateUrl must use https (http is allowed only for localhost)");
  }
  if (service.search || service.hash) fail("slotgateUrl must not have a query or fragment");
  const { clientId } = options;
  if (typeof clientId !== "string" || !/^[\x21-\x7e]{1,256}$/.test(clientId)) {
    fail("clientId must be a non-empty string of printable characters");
  }
  const redirect = parseUrl(options.redirectUri, "redirectUri");
  if (redirect.hash) fail("redirectUri must not have a fragment");
  if (options.responseType !== undefined && options.responseType !== "code") fail('responseType must be "code"');
  if (options.fetch !== undefined && typeof options.fetch !== "function") fail("fetch must be a function");
  if (options.autoRenew !== undefined && typeof options.autoRenew !== "boolean") fail("autoRenew must be a boolean");
  const { uiLocales } = options;
  if (uiLocales !== undefined && (typeof uiLocales !== "string" || uiLocales.length > 256 || !/^[A-Za-z0-9-]+( [A-Za-z0-9-]+)*$/.test(uiLocales))) {
    fail('uiLocales must be language tags separated by single spaces, e.g. "ja en"');
  }
  return {
    origin: service.origin,
    baseUrl: service.href.replace(/\/+$/, ""),
    clientId,
    redirectUri: options.redirectUri,
    width: size(options.popupWidth, POPUP_WIDTH, "popupWidth"),
    height: size(options.popupHeight, POPUP_HEIGHT, "popupHeight"),
    autoRenew: options.autoRenew === true,
    uiLocales,
    fetch: options.fetch,
  };
}
