/**
 * `@slotgate/backend-sdk`: the server side of a Slotgate login (spec 4.4,
 * 4.13) — `getSlotInfo` and `handleCallback` — plus login-status sync (4.6),
 * the encrypted spend message (4.8), a content-token client (4.7), agent
 * delegation token verification, and `SlotgateApi`: a typed call of every
 * endpoint of the service, made from the endpoint table.
 *
 * @example
 * ```ts
 * import { SlotgateBackend } from "@slotgate/backend-sdk";
 * const slotgate = new SlotgateBackend({ authServerUrl, clientId, clientSecret, redirectUri });
 * app.all("/slotgate/callback", (req, res) => slotgate.handleCallback(req, res));
 * // Next.js route handler, Hono, Bun, Deno, Workers: export const POST = (request: Request) => slotgate.handleCallback(request);
 * const slot = await slotgate.getSlotInfo(jwt);
 * ```
 *
 * @packageDocumentation
 */
export type { AgentTokenClaims, VerifyAgentTokenOptions } from "./agent/verify-agent-token.js";
export type { ApiCallOptions, BearerAuth, CallAnswer, CallAuth, ClientAuth } from "./api/call-endpoint.js";
export { SlotgateApi, type SlotgateApiOptions } from "./api/slotgate-api.js";
export { SlotgateBackend } from "./backend.js";
export type { CallbackResponseLike, FastifyReplyLike, KoaResponseLike, NodeResponseLike } from "./callback/answer-callback.js";
export type { CallbackRequestLike } from "./callback/node-request.js";
export {
  type CallOptions,
  ContentTokenClient,
  type ContentTokenClientOptions,
  type MoneyCallOptions,
  type SpendArgs,
} from "./content-tokens/content-token-client.js";
export type { RetryOptions } from "./http/retry.js";
export {
  BACKEND_ERRORS,
  type BackendErrorCode,
  SlotgateBackendError,
  type SlotgateBackendErrorInit,
  isSlotgateBackendError,
} from "./errors.js";
export { type Logger, consoleLogger, silentLogger } from "./logger.js";
export type { FetchLike, ResolvedConfig, SleepFn, SlotgateBackendOptions, StatusSyncOptions } from "./options.js";
export type { RefreshedTokens, RefreshOptions } from "./refresh/refresh-access-token.js";
export type { CallbackParams, PendingStore } from "./slot-info/pending-store.js";
export type { GetSlotInfoOptions } from "./slot-info/slot-info-flow.js";
export type { SlotActivateArgs, SlotReadOptions, SlotUserArgs } from "./slots/slot-calls.js";
export {
  type SpendKey,
  encryptSpendMessage,
  encryptWithSpendKey,
  serializeSpendPayload,
} from "./spend/encrypt-spend-message.js";
export type { StatusSyncArgs, StatusSyncResult } from "./status/status-sync.js";
export { type VerifyWebhookOptions, verifyWebhook } from "./webhooks/verify-webhook.js";
export type { LoginStatusWebhookEvent, SlotInfo, SpendPayload, StatusCheckResponse, StatusLoginResponse, StatusLogoutResponse } from "@slotgate/protocol";
export type { SlotActivateResponse, SlotListResponse, SlotResponse, SlotState, SlotView } from "@slotgate/protocol";
export { type ChainWriteResponse, type PendingWriteResponse, isPendingWrite } from "@slotgate/protocol";
