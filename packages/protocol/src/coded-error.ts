/**
 * The base of the packages' own error classes (`MockServiceError`, `ConformanceError`): an `Error` with a
 * stable `code` to branch on, the message for people and an optional `cause`. A package names its class
 * (`override name`) and its union of codes; it adds nothing else.
 *
 * @example
 * ```ts
 * type MyCode = "setup_failed" | "timeout";
 * export class MyError extends CodedError<MyCode> {
 *   override name = "MyError";
 * }
 * try { throw new MyError("timeout", "The callback did not arrive within 10 s"); }
 * catch (e) { if (e instanceof MyError && e.code === "timeout") {} }
 * ```
 */
export class CodedError<Code extends string> extends Error {
  /** Stable error code. */
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
