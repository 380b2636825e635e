import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type AnyEndpoint,
  apiPath,
  buildOpenApi,
  ENDPOINTS,
  type EndpointInput,
  type EndpointOutput,
  type EndpointParsedInput,
  fillPath,
  placeInput,
  routePath,
  splitInput,
} from "../src/endpoints.js";
import { ERRORS } from "../src/errors.js";
import { PATHS } from "../src/paths.js";

const rows = Object.entries(ENDPOINTS) as Array<[string, AnyEndpoint]>;
const fieldsOf = (schema: z.ZodType | undefined) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

describe("the endpoint table", () => {
  it("names each row by its key and puts it on a path of PATHS", () => {
    const known = new Set(Object.values(PATHS).map(apiPath));
    for (const [key, row] of rows) {
      expect(row.name).toBe(key);
      expect(known, `${key}: ${row.path}`).toContain(row.path);
    }
  });

  it("has one row per method and path", () => {
    const routes = rows.map(([, row]) => `${row.method} ${row.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("declares exactly the path's parameters in its params schema, and no field in two parts", () => {
    for (const [key, row] of rows) {
      const inPath = [...row.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(fieldsOf(row.input.params).sort(), key).toEqual(inPath.sort());
      const all = [...fieldsOf(row.input.params), ...fieldsOf(row.input.query), ...fieldsOf(row.input.body)];
      expect(new Set(all).size, key).toBe(all.length);
    }
  });

  it("answers 202 exactly for writes, and lists the write errors with them", () => {
    for (const [key, row] of rows) {
      expect("202" in row.output, key).toBe(row.writes === true);
      if (row.writes) expect(row.errors, key).toEqual(expect.arrayContaining(["idempotency_key_reused", "sponsorship_budget_exceeded"]));
    }
  });

  it("lists only catalogue codes, invalid_request wherever it takes input, and an auth error wherever it authenticates", () => {
    for (const [key, row] of rows) {
      for (const code of row.errors) expect(Object.hasOwn(ERRORS, code), `${key}: ${code}`).toBe(true);
      const takesInput = row.transport !== "page" && [row.input.params, row.input.query, row.input.body].some((s) => s && fieldsOf(s).length > 0);
      if (takesInput) expect(row.errors, key).toContain("invalid_request");
      if (row.auth.includes("basic") || row.auth.includes("client_post") || row.auth.includes("marketplace_bearer"))
        expect(row.errors, key).toContain("invalid_client");
      if (row.auth.includes("user_bearer") || row.auth.includes("developer_bearer")) expect(row.errors, key).toContain("invalid_token");
    }
  });

  it("gives every row with actor rules an example that its schemas accept, naming the actor fields", () => {
    for (const [key, row] of rows) {
      if (!row.actors?.length) continue;
      expect(row.example, key).toBeDefined();
      const example = row.example as Record<string, unknown>;
      for (const rule of row.actors) {
        expect(fieldsOf(row.input[rule.in]), `${key}: ${rule.field}`).toContain(rule.field);
        expect(example[rule.field], `${key}: ${rule.field}`).toBeDefined();
        if (rule.is === "client" || rule.is === "user" || rule.is === "token_client" || rule.is === "developer_client") {
          expect(row.errors, key).toContain(rule.is === "developer_client" ? "client_not_found" : "token_user_mismatch");
        }
      }
      const placed = placeInput(row, example as never);
      const params = Object.fromEntries(fieldsOf(row.input.params).map((name) => [name, String(example[name])]));
      if (row.input.params) expect(row.input.params.safeParse(params).success, key).toBe(true);
      if (row.input.query) expect(row.input.query.safeParse(placed.query).success, key).toBe(true);
      if (row.input.body) expect(row.input.body.safeParse(placed.body).success, key).toBe(true);
    }
  });

  it("refuses an unknown body field wherever the server did before the table (strict objects)", () => {
    for (const name of ["pinVerify", "activateSlot", "statusLogin", "userBuyContentToken", "registerClient", "updateClient", "rotateClientSecret"] as const) {
      const row = ENDPOINTS[name] as AnyEndpoint;
      const example = (row.example ?? {}) as Record<string, unknown>;
      const body = { ...(placeInput(row, example as never).body ?? {}), surprise: 1 };
      const parsed = row.input.body!.safeParse(body);
      expect(parsed.success, name).toBe(false);
      expect(
        parsed.error?.issues.some((i: z.core.$ZodIssue) => i.code === "unrecognized_keys"),
        name,
      ).toBe(true);
    }
  });
});

describe("fillPath and placeInput", () => {
  it("fills and URL-encodes path parameters, and refuses a missing one", () => {
    expect(fillPath(ENDPOINTS.slot, { cu_id: "game 1", meta_idx: 0 })).toBe("/v1/slots/game%201/0");
    expect(() => fillPath(ENDPOINTS.slot, { cu_id: "game-1" })).toThrow(/meta_idx is missing/);
  });

  it("splits a flat input into path, query and body", () => {
    expect(placeInput(ENDPOINTS.balanceAdex, { slot: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", cuid: "game-1" })).toEqual({
      path: "/v1/development-api/balance_adex/0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      query: { cuid: "game-1" },
      body: undefined,
    });
    expect(placeInput(ENDPOINTS.updateClient, { client_id: "abc", name: "New name" })).toEqual({
      path: "/v1/dev-user/clients/abc",
      query: {},
      body: { name: "New name" },
    });
    expect(placeInput(ENDPOINTS.statusCheck, { user_id: "7", client_id: "c" })).toEqual({
      path: "/v1/oauth/status/check",
      query: { user_id: "7", client_id: "c" },
      body: undefined,
    });
    expect(placeInput(ENDPOINTS.rotateClientSecret, { client_id: "abc" })).toEqual({ path: "/v1/dev-user/clients/abc/secret", query: {}, body: {} });
  });

  it("splitInput gives each part's fields for validation, leaving out absent ones", () => {
    expect(splitInput(ENDPOINTS.updateClient, { client_id: "abc", name: "New name" })).toEqual({
      params: { client_id: "abc" },
      query: {},
      body: { name: "New name" },
    });
    expect(splitInput(ENDPOINTS.balanceAdex, { slot: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", cuid: undefined })).toEqual({
      params: { slot: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
      query: {},
      body: undefined,
    });
  });

  it("converts between the table's and Express's path styles", () => {
    expect(apiPath(PATHS.clientDeliveryRetry)).toBe("/v1/dev-user/clients/{client_id}/deliveries/{delivery_id}/retry");
    expect(routePath(ENDPOINTS.retryDelivery.path)).toBe(PATHS.clientDeliveryRetry);
  });

  it("types a row's input and answer from its schemas", () => {
    expectTypeOf<EndpointInput<typeof ENDPOINTS.activateSlot>>().toEqualTypeOf<{ cu_id: string; meta_idx: number }>();
    expectTypeOf<EndpointParsedInput<typeof ENDPOINTS.slot>>().toEqualTypeOf<{ cu_id: string; meta_idx: number }>();
    expectTypeOf<EndpointInput<typeof ENDPOINTS.slot>>().toEqualTypeOf<{ cu_id: string; meta_idx: string }>();
    expectTypeOf<EndpointInput<typeof ENDPOINTS.rotateClientSecret>>().toEqualTypeOf<{ client_id: string }>();
    expectTypeOf<EndpointInput<typeof ENDPOINTS.validate>>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<EndpointOutput<typeof ENDPOINTS.activateSlot>["active"]["meta_idx"]>().toEqualTypeOf<number>();
    expectTypeOf<EndpointOutput<typeof ENDPOINTS.pinVerify>>().toMatchTypeOf<{ success: true }>();
    expectTypeOf<Extract<EndpointOutput<typeof ENDPOINTS.pinVerify>, { status: "pending" }>["write_id"]>().toEqualTypeOf<string>();
  });
});

describe("buildOpenApi", () => {
  const doc = buildOpenApi("https://auth.example");
  type Operation = {
    operationId: string;
    parameters?: Array<{ name: string; in: string; required: boolean }>;
    requestBody?: { content: Record<string, { schema: { properties?: object; additionalProperties?: unknown } }> };
    responses: Record<string, { headers?: object; content?: Record<string, { schema: object }> }>;
    security?: Array<Record<string, string[]>>;
  };
  const op = (path: string, method: string) => (doc.paths[path] as Record<string, Operation>)[method]!;

  it("is an OpenAPI 3.1 document with one operation per public row", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://auth.example" }]);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, Operation>).map((o) => o.operationId));
    expect(ids.sort()).toEqual(
      rows
        .filter(([, row]) => !row.development)
        .map(([name]) => name)
        .sort(),
    );
  });

  it("leaves the development-chain rows out unless asked", () => {
    expect(doc.paths[PATHS.devFundSlot]).toBeUndefined();
    expect(buildOpenApi("https://auth.example", { includeDevelopment: true }).paths[PATHS.devFundSlot]).toBeDefined();
  });

  it("describes parameters, bodies, answers and errors from the row", () => {
    const activate = op("/v1/slots/activate", "post");
    expect(activate.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(activate.requestBody!.content["application/json"]!.schema.properties!)).toEqual(["cu_id", "meta_idx"]);
    expect(activate.requestBody!.content["application/json"]!.schema.additionalProperties).toBe(false);
    expect(Object.keys(activate.responses).sort()).toEqual(["200", "400", "401", "403", "404", "409", "429", "503"]);
    const slot = op("/v1/slots/{cu_id}/{meta_idx}", "get");
    expect(slot.parameters).toEqual([
      expect.objectContaining({ name: "cu_id", in: "path", required: true }),
      expect.objectContaining({ name: "meta_idx", in: "path", required: true }),
    ]);
    expect(slot.security).toBeUndefined();
    const balance = op("/v1/development-api/balance_adex/{slot}", "get");
    expect(balance.parameters).toContainEqual(expect.objectContaining({ name: "cuid", in: "query", required: false }));
    expect(op("/oauth/token", "post").requestBody!.content).toHaveProperty(["application/x-www-form-urlencoded"]);
    expect(op("/v1/dev-user/clients/{client_id}", "patch").security).toEqual([{ developerBearer: [] }]);
    expect(op("/v1/chain/writes/{write_id}", "get").security).toEqual([{ clientBasic: [] }, { bearer: [] }]);
  });

  it("gives every write the Idempotency-Key header and the 202 answer with Location", () => {
    for (const [name, row] of rows) {
      if (row.development) continue;
      const operation = op(row.path, row.method);
      const header = operation.parameters?.find((p) => p.name === "Idempotency-Key");
      expect(Boolean(header), name).toBe(row.writes === true);
      if (row.writes) expect(Object.keys(operation.responses["202"]!.headers!), name).toEqual(["Location", "Retry-After"]);
    }
  });

  it("is plain JSON (serialises and parses back to the same document)", () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });
});
