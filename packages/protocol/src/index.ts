/**
 * The Slotgate wire contract: request and response types of every endpoint,
 * the error-code catalogue, the specification's limits and the endpoint paths.
 *
 * This entry point has no runtime dependencies; the zod schemas live in
 * `@slotgate/protocol/schemas`.
 *
 * @example
 * ```ts
 * import { ERRORS, LIMITS, PATHS, type TokenResponse } from "@slotgate/protocol";
 * ```
 *
 * @packageDocumentation
 */
export { BRAND } from "./brand.js";
export { CodedError } from "./coded-error.js";
export { isPendingWrite, type ChainWriteResponse, type ChainWriteStatus, type PendingWriteResponse } from "./chain-writes.js";
export {
  ERRORS,
  ERROR_CODES,
  isErrorCode,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
} from "./errors.js";
export { GRANT_TYPES, type GrantType } from "./grant-types.js";
export { LIMITS, type Limits } from "./limits.js";
export { PATHS, type PathName } from "./paths.js";
export { isLoopbackIpRedirectUri, loopbackJwtRedirect, redirectUriAllowed, type TokenEndpointAuthMethod } from "./redirect-uris.js";
export { POPUP_RESULT_SCRIPT, popupResultPayload, SILENT_RESULT_SCRIPT, walletResultPayload, type PopupResultPayload } from "./popup-result.js";
export type * from "./types/chain.js";
export type * from "./types/content-token.js";
export type * from "./types/dev-user.js";
export type * from "./types/oauth.js";
export type * from "./types/oauth-meta.js";
export type * from "./types/slots.js";
export type * from "./types/status.js";
export type * from "./types/wallet-window.js";
