import { CodedError } from "@slotgate/protocol";

/** Stable codes of {@link ConformanceError}. */
export type ConformanceErrorCode = "setup_failed" | "callback_timeout" | "unexpected_response";

/**
 * The one error class of `@slotgate/conformance`: a failure of the suite's own setup or flow helpers
 * (not an assertion failure, which is vitest's `AssertionError`).
 *
 * @example
 * ```ts
 * try { await ctx.receiver.waitFor(state); } catch (e) { if (e instanceof ConformanceError) console.log(e.code); }
 * ```
 */
export class ConformanceError extends CodedError<ConformanceErrorCode> {
  override name = "ConformanceError";
}
