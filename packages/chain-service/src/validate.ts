import type { z } from "zod";
import { ChainServiceError } from "./errors.js";

/** @internal Validates input with a protocol schema; failures become `invalid_request` naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "body";
    throw new ChainServiceError("invalid_request", `${path}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
