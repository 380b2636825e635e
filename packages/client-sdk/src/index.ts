/**
 * `@slotgate/client-sdk`: the Slotgate browser SDK. Popup login over postMessage (with a
 * BroadcastChannel fallback when a Cross-Origin-Opener-Policy severs `window.opener`), full-page redirect
 * login with PKCE S256, login-state events, the stored session, logout. No runtime dependencies.
 *
 * @example
 * ```ts
 * import { Slotgate } from "@slotgate/client-sdk";
 * const slotgate = new Slotgate({ slotgateUrl, clientId, redirectUri });
 * button.onclick = async () => console.log((await slotgate.login()).jwt);
 * ```
 *
 * @packageDocumentation
 */
export {
  Slotgate,
  type LoginOptions,
  type LoginResult,
  type LogoutOptions,
  type RedirectLoginOptions,
  type RefreshOptions,
} from "./slotgate.js";
export type { SlotgateEvent } from "./session/events.js";
export type { SlotgateOptions } from "./options.js";
export { SlotgateError, type SlotgateErrorCode } from "./errors.js";
export { handleLoginCallback, type HandleLoginCallbackOptions } from "./callback.js";
/**
 * The version of this package.
 *
 * @example
 * ```ts
 * console.log(`@slotgate/client-sdk ${VERSION}`);
 * ```
 */
export const VERSION = "3.0.0";
