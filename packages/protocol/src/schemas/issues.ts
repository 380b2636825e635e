import type { z } from "zod";
import type { ErrorDetail } from "../errors.js";

// zod records the offending input only when parsing with `reportInput: true`;
// without it, its message for an absent value ends in "received undefined".
function isMissing(issue: z.core.$ZodIssue): boolean {
  return "input" in issue ? issue.input === undefined : /received undefined$/.test(issue.message);
}

/**
 * Turns a zod error into the `details` list of an error body: one entry per
 * problem, with the dotted field path and a message that says what to send.
 *
 * @example
 * ```ts
 * const parsed = tokenRequestSchema.safeParse(req.body);
 * if (!parsed.success) reply(400, { error: "invalid_request", details: validationDetails(parsed.error) });
 * ```
 */
export function validationDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".") || "(body)";
    if (issue.code === "unrecognized_keys") {
      return { path, message: `unknown field(s): ${issue.keys.join(", ")}` };
    }
    if (issue.code === "invalid_type" && isMissing(issue)) {
      return { path, message: "is required" };
    }
    return { path, message: issue.message };
  });
}

/**
 * A one-line summary of validation details, for the error body's `message`.
 *
 * @example
 * ```ts
 * summarizeDetails([{ path: "code", message: "is required" }]); // "code is required"
 * ```
 */
export function summarizeDetails(details: ErrorDetail[]): string {
  return details
    .slice(0, 5)
    .map((d) => `${d.path} ${d.message}`)
    .join("; ");
}
