/**
 * `@slotgate/conformance`: the Slotgate HTTP-contract conformance suite, written once and run against
 * the simulated service (`@slotgate/mock-service`) and the reference server.
 *
 * Run it whole with {@link defineConformanceSuite}, or call one check function directly with a context
 * from {@link createConformanceContext} (e.g. to prove that a deliberately broken service fails it).
 *
 * @example
 * ```ts
 * import { defineConformanceSuite } from "@slotgate/conformance";
 * defineConformanceSuite({ name: "simulated service", baseUrl: () => mock.baseUrl, operator: mock.operator });
 * ```
 *
 * @packageDocumentation
 */
export { defineConformanceSuite } from "./define-suite.js";
export {
  type AuthorizeFields,
  type AuthorizePage,
  type ConformanceContext,
  type RegisteredClient,
  type TestUser,
  createConformanceContext,
} from "./context.js";
export type { ConformanceOperator, ConformanceTarget } from "./target.js";
export { ConformanceError, type ConformanceErrorCode } from "./errors.js";
export { type CallbackReceiver, type ReceivedCallback, startCallbackReceiver } from "./callback-receiver.js";
export type { Check, CheckGroup } from "./checks/check.js";
export { CHECK_GROUPS } from "./checks/index.js";
export {
  authorizeChecks,
  authorizeEnforcesCsrf,
  authorizeErrorsAreHtmlForBrowsers,
  authorizeLoopbackRedirectsWithJwt,
  authorizePageApproveRedirectsWithCode,
  authorizePageDenyRedirectsAccessDenied,
  authorizePopupPostsResult,
  authorizePkceWithoutStateRedirectsWithCode,
  authorizePostRevalidatesParams,
  authorizeRejectsMissingParams,
  authorizeRejectsUnknownClient,
  authorizeRejectsUnsupportedResponseType,
  authorizeRejectsWrongCredentials,
  authorizeRequiresExactRedirectUri,
  authorizeRequiresStateWithoutPkceS256,
  authorizeShowsLoginForm,
  authorizeSignupProvesMailbox,
  authorizeSignupRejectsTakenEmail,
  authorizeWebClientLoopbackUriIsOrdinary,
} from "./checks/authorize.js";
export {
  codeIsBoundToClient,
  codeIsBoundToRedirectUri,
  codeIsSingleUse,
  pkceIsEnforced,
  tokenChecks,
  tokenContentAddressForBlockchainClient,
  tokenExchangeFormBasic,
  tokenExchangeJsonPost,
  tokenRejectsBadClientAuth,
  tokenBrowserLoginWithVerifierAlone,
  tokenRejectsBothAuthMethods,
  tokenRejectsUnregisteredRedirectUri,
  tokenRejectsUnsupportedGrantType,
  unknownCodeIsRejected,
} from "./checks/token.js";
export {
  refreshChecks,
  refreshEndsOnLogoutAndRevocation,
  refreshGraceForConcurrentUse,
  refreshIsOptIn,
  refreshReuseEndsFamily,
  refreshRotates,
  refreshTokenIsChecked,
} from "./checks/refresh.js";
export {
  deviceApprovalIssuesToken,
  deviceAuthorizationAnswers,
  deviceChecks,
  deviceCodeExpires,
  deviceCodesAreChecked,
  deviceDenialIsAccessDenied,
  deviceExpiryChecks,
  devicePendingThenSlowDown,
} from "./checks/device.js";
export {
  bearerEndpointsAllowCors,
  expiredTokenChecks,
  jwksVerifiesTokens,
  revokeDeactivatesToken,
  validateAcceptsAccessToken,
  validateAcceptsUserJwt,
  validateRejectsExpiredToken,
  validateRejectsForgedToken,
  validateRejectsMissingOrMalformed,
  userinfoNamesTheTokensUser,
  validateRevokeChecks,
} from "./checks/validate-revoke.js";
export {
  statusAcceptsUserJwt,
  statusBodiesProperty,
  statusChecks,
  statusIsPerClient,
  statusLifecycle,
  statusRejectsBadBodies,
  statusRejectsOtherUsersToken,
  statusRequiresBearer,
} from "./checks/status.js";
export {
  metaAuthorizeRejectsBadRequests,
  metaAuthorizeRejectsOtherClientsToken,
  metaCodeIsSingleUse,
  metaFlowDeliversCallbackAndSlotInfo,
  metaGetTokenChecksClientAndBinding,
  oauthMetaChecks,
} from "./checks/oauth-meta.js";
export {
  clientDisableEnableDelete,
  clientEditReplacesRedirectUris,
  clientManagementOnlyForOwner,
  clientSecretRotationOverlaps,
  clientRegistrationRequiresDeveloperToken,
  clientRegistrationShowsSecretOnce,
  clientRegistrationValidates,
  clientsListedOnlyForOwner,
  devCenterChecks,
  devLoginRejectsWrongCredentials,
  devSignupAndLogin,
  clientBrandSetServedAndChecked,
  devSignupRejectsTakenEmail,
} from "./checks/dev-center.js";
export {
  balanceAdexValidation,
  contentTokenChecks,
  contentTokenEndpointsRequireClientAuth,
  idempotencyKeysMakeRetriesSafe,
  providerRegistrationIssuesKeyOnce,
  providerWorld,
  purchaseSplits15To85,
  releaseRequiresFlagAndSettlesOnce,
  spendMovesBalanceToUsed,
  spendRejectsBadMessages,
  testEncryptionMatchesLocalAes,
  type ProviderWorld,
  providerClient,
} from "./checks/content-tokens.js";
export { publicClientChecks, publicClientLoopbackPkce, silentRenewalAndBrowserLogout } from "./checks/public-clients.js";
export { saleRefusedWhileSellerLoggedIn, slotChecks, slotsOpenListActivateAfterLogout, slotsRefuseBadInputAndStrangers } from "./checks/slots.js";
export {
  walletConfirmationCreatedPendingAndReadable,
  walletConfirmationHiddenFromOtherClients,
  walletConfirmationRefusesBadRequests,
  walletConfirmationRefusesCuidNotOwned,
  walletWindowChecks,
} from "./checks/wallet-window.js";
export {
  endpointTableChecks,
  openApiListsEveryRow,
  tableRowsRefuseAnotherActor,
  tableRowsRefuseBadInput,
  tableRowsRefuseMissingCredentials,
} from "./checks/endpoint-table.js";
export { expectRowAnswer, rowOf } from "./row-answers.js";
export {
  badInputChecks,
  oauthEndpointsIgnoreUnknownParams,
  rejectsMalformedJson,
  rejectsOversizedBody,
  rejectsUnknownFields,
  rejectsWrongTypes,
  unknownRouteIs404,
} from "./checks/bad-input.js";
