import { type AnyEndpoint, ENDPOINTS } from "@slotgate/protocol/endpoints";
import { expect } from "vitest";
import type { z } from "zod";

const ROWS = Object.values(ENDPOINTS) as AnyEndpoint[];

/** A row's path as a pattern: `{name}` parameters match one segment. */
function pattern(row: AnyEndpoint): RegExp {
  return new RegExp(`^${row.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`);
}

const PATTERNS = new Map(ROWS.map((row) => [row, pattern(row)]));

/**
 * The table row a request to the service is answered by (method and path; the path relative to the
 * base URL), or undefined for a request outside the table (a form post of a page, a preflight).
 *
 * @example
 * ```ts
 * rowOf("POST", "/v1/slots/activate")?.name; // "activateSlot"
 * ```
 */
export function rowOf(method: string, path: string): AnyEndpoint | undefined {
  const wanted = method.toLowerCase();
  return ROWS.find((row) => row.method === wanted && PATTERNS.get(row)!.test(path));
}

/**
 * Asserts that a success answer (2xx) of a JSON or form row is one its row declares: the status is a
 * key of the row's `output` and the JSON body matches that schema. Pages (HTML) are not checked here.
 * Reads a clone: the caller still reads the body.
 *
 * @example
 * ```ts
 * await expectRowAnswer(ENDPOINTS.activateSlot, response);
 * ```
 */
export async function expectRowAnswer(row: AnyEndpoint, response: Response): Promise<void> {
  if (!response.ok || row.transport === "page") return;
  const what = `${row.method.toUpperCase()} ${row.path} (${row.name}) answered ${response.status}`;
  const schema = (row.output as Record<string, z.ZodType | undefined>)[String(response.status)];
  expect(schema, `${what}: a status the endpoint table does not declare (${Object.keys(row.output).join(", ")})`).toBeDefined();
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    expect.fail(`${what}: the body is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = schema!.safeParse(body);
  expect(parsed.success ? [] : parsed.error.issues, `${what}: the body does not match the table's answer schema: ${text.slice(0, 300)}`).toEqual([]);
}
