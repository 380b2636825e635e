import { summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import type { z } from "zod";
import { SlotgateServerError } from "./errors.js";

/**
 * Parses input with a protocol schema, throwing 400 invalid_request with field details on failure.
 *
 * @example
 * ```ts
 * const body = parseInput(statusUpdateSchema, req.body);
 * ```
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = validationDetails(parsed.error);
  throw new SlotgateServerError("invalid_request", { message: `Invalid request: ${summarizeDetails(details)}`, details });
}

/** Keeps only string values of a query/form object; a repeated parameter (array) is reported as invalid_request. */
export function singleValued(input: unknown, names: readonly string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  for (const name of names) {
    const v = source[name];
    if (v === undefined) continue;
    if (typeof v !== "string") {
      throw new SlotgateServerError("invalid_request", {
        message: `Invalid request: ${name} must be given once, as a string`,
        details: [{ path: name, message: "must be given once, as a string" }],
      });
    }
    out[name] = v;
  }
  return out;
}
