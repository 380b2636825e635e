import { CodedError } from "@slotgate/protocol";

/** Stable codes of {@link MockServiceError}. */
export type MockServiceErrorCode = "invalid_option" | "unknown_user" | "unknown_client" | "unknown_cuid" | "unknown_user_code" | "no_mail";

/**
 * The one error class of `@slotgate/mock-service`, thrown by the test-side API
 * (options, operator actions, token helpers) — never by the simulated HTTP
 * endpoints, which answer the contract's error bodies instead.
 *
 * @example
 * ```ts
 * try { await mock.issueUserJwt("999999", "sg_demo_client"); }
 * catch (e) { if (e instanceof MockServiceError && e.code === "unknown_user") {} }
 * ```
 */
export class MockServiceError extends CodedError<MockServiceErrorCode> {
  override name = "MockServiceError";
}
