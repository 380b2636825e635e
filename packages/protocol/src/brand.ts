/**
 * Brand identifiers that cross the wire or land in a user's browser storage.
 *
 * @example
 * ```ts
 * import { BRAND } from "@slotgate/protocol";
 * window.addEventListener("message", (e) => {
 *   if (e.data?.from === BRAND.messageSource) handle(e.data);
 * });
 * ```
 */
export const BRAND = {
  /** Product name. */
  name: "Slotgate",
  /** `from` field of the popup's postMessage. */
  messageSource: "slotgate",
  /** `from` field of the legacy (v1) postMessage sent in dual-broadcast mode. */
  legacyMessageSource: "gameauth",
  /** Prefix of every browser storage key the client SDK writes. */
  storagePrefix: "slotgate_",
  /** Prefix of the v1 storage keys that the v3 SDK migrates once. */
  legacyStoragePrefix: "gameauth_",
  /** Name of the BroadcastChannel used when `window.opener` is severed (COOP). */
  broadcastChannel: "slotgate_login",
  /** Name of the BroadcastChannel the wallet window posts its outcome on (beside postMessage). */
  walletBroadcastChannel: "slotgate_wallet",
} as const;
