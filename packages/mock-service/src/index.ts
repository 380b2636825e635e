/**
 * `@slotgate/mock-service`: MSW 2 handlers that simulate the Slotgate HTTP service in memory,
 * with seeded fixtures, for testing the SDKs without a server.
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { createMockService, FIXTURES } from "@slotgate/mock-service";
 * const mock = createMockService();
 * setupServer(...mock.handlers).listen({ onUnhandledRequest: "bypass" });
 * ```
 *
 * @packageDocumentation
 */
export { type MockOperator, type MockService, type MockWalletControls, createMockService } from "./create-mock-service.js";
export type { WalletDecision } from "./handlers/wallet-window.js";
export { MockServiceError, type MockServiceErrorCode } from "./errors.js";
export { type ClientFixture, type FixtureOptions, type MockFixtures, FIXTURES, createFixtures } from "./fixtures.js";
export type { MockFaults, MockServiceOptions } from "./options.js";
export type { PasswordHash } from "./passwords.js";
export {
  type CallbackDelivery,
  type ClientRecord,
  type CodeRecord,
  type DeviceRecord,
  type DevUserRecord,
  type EndUserRecord,
  MockState,
  type ProviderRecord,
  type RefreshFamilyRecord,
  type RefreshTokenRecord,
  type SlotBalance,
  type SlotRecord,
  type StatusRecord,
  type WalletConfirmationRecord,
} from "./state.js";
