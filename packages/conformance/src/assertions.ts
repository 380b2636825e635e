import { ERRORS, type ErrorBody, type ErrorCode } from "@slotgate/protocol";
import { errorBodySchema } from "@slotgate/protocol/schemas";
import { expect } from "vitest";
import type { z } from "zod";

/** A JSON object body. */
export type Json = Record<string, unknown>;

function parse(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what}: body is not JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * Asserts an error answer: the status of `ERRORS[code]`, a JSON body of the contract's error shape with
 * `error === code`. Returns the body.
 */
export async function expectError(response: Response, code: ErrorCode, what: string = code): Promise<ErrorBody> {
  const text = await response.text();
  expect(response.status, `${what}: HTTP status (body: ${text.slice(0, 300)})`).toBe(ERRORS[code].status);
  expect(response.headers.get("content-type") ?? "", `${what}: content type`).toMatch(/application\/json/);
  const body = parse(text, what);
  const shape = errorBodySchema.safeParse(body);
  expect(shape.success, `${what}: error body shape ${text.slice(0, 300)}`).toBe(true);
  expect((body as ErrorBody).error, `${what}: error code`).toBe(code);
  return body as ErrorBody;
}

/** Asserts a success answer with the given status whose JSON body matches `schema`; returns the parsed body. */
export async function expectOk<S extends z.ZodType>(response: Response, schema: S, status = 200, what = "response"): Promise<z.output<S> & Json> {
  const text = await response.text();
  expect(response.status, `${what}: HTTP status (body: ${text.slice(0, 300)})`).toBe(status);
  const body = parse(text, what);
  const parsed = schema.safeParse(body);
  expect(parsed.success ? [] : parsed.error.issues, `${what}: body shape ${text.slice(0, 300)}`).toEqual([]);
  return body as z.output<S> & Json;
}

/** Reads a JSON body after asserting the status. */
export async function expectJson(response: Response, status: number, what = "response"): Promise<Json> {
  const text = await response.text();
  expect(response.status, `${what}: HTTP status (body: ${text.slice(0, 300)})`).toBe(status);
  return parse(text, what) as Json;
}

/**
 * Asserts that a validation error's `details` name a field path. A problem with the body as a whole
 * is accepted as `(body)` or `""` (what `validationDetails` gives for zod issues parsed without `reportInput`).
 */
export function expectDetailPath(error: ErrorBody, path: string, what: string): void {
  const paths = (error.details ?? []).map((d) => d.path);
  expect(paths.length, `${what}: details present`).toBeGreaterThan(0);
  if (path === "(body)")
    expect(
      paths.some((p) => p === "(body)" || p === ""),
      `${what}: body-level detail in ${JSON.stringify(paths)}`,
    ).toBe(true);
  else expect(paths, what).toContain(path);
}
