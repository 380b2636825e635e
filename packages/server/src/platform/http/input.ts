import { LIMITS } from "@slotgate/protocol";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { SlotgateServerError } from "./errors.js";
import { summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import type { z } from "zod";

const jsonParser = express.json({ limit: LIMITS.maxJsonBodyBytes, strict: false, type: ["application/json", "application/*+json"] });
const formParser = express.urlencoded({ extended: false, limit: LIMITS.maxJsonBodyBytes, parameterLimit: 100 });

function hasBody(req: Request): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

function translate(next: NextFunction) {
  return (error?: unknown) => {
    if (!error) return next();
    const e = error as { type?: string; status?: number };
    if (e.type === "entity.too.large") return next(new SlotgateServerError("payload_too_large"));
    if (e.type === "entity.parse.failed") return next(new SlotgateServerError("malformed_json"));
    if (e.type === "encoding.unsupported" || e.type === "charset.unsupported") return next(new SlotgateServerError("unsupported_media_type"));
    return next(new SlotgateServerError("invalid_request", { message: "The request body could not be read.", cause: error }));
  };
}

/**
 * Body parser of the JSON APIs: JSON up to 64 KiB; a body of another type is 415, a missing body
 * is `{}` (so the schema reports the missing fields).
 */
export const jsonBody: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  if (!hasBody(req)) {
    req.body = {};
    return next();
  }
  if (!req.is(["application/json", "application/*+json"])) return next(new SlotgateServerError("unsupported_media_type"));
  jsonParser(req, res, translate(next));
};

/** Body parser of the OAuth endpoints: form-urlencoded or JSON, up to 64 KiB. */
export const formOrJsonBody: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  if (!hasBody(req)) {
    req.body = {};
    return next();
  }
  if (req.is("application/x-www-form-urlencoded")) return formParser(req, res, translate(next));
  if (req.is(["application/json", "application/*+json"])) return jsonParser(req, res, translate(next));
  return next(new SlotgateServerError("unsupported_media_type", { message: "Send the body as application/x-www-form-urlencoded or application/json." }));
};

/** Whether a parsed JSON body is a plain object (not an array, string or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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
