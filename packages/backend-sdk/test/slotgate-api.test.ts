/**
 * SlotgateApi.call, the typed client made from the endpoint table, against the simulated service (MSW):
 * requests placed by the table (path, query, body, credentials, Idempotency-Key on writes only), answers
 * checked against the row's schema, and refusals before any request.
 */
import type { MockService } from "@slotgate/mock-service";
import { PATHS } from "@slotgate/protocol";
import { http, HttpResponse } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SlotgateApi, type SlotgateApiOptions, type SlotgateBackendError } from "../src/index.js";
import { msw, simulatedService, startMsw } from "./support/simulated-service.js";

let mock: MockService;
/** Every request the client sent, in order. */
let sent: Array<{ method: string; path: string; query: string; key: string | null; authorization: string | null; body: string }>;

function api(overrides: Partial<SlotgateApiOptions> = {}): SlotgateApi {
  return new SlotgateApi({ authServerUrl: mock.baseUrl, sleep: async () => undefined, ...overrides });
}

async function rejection(promise: Promise<unknown>): Promise<SlotgateBackendError> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: SlotgateBackendError) => error,
  );
}

beforeAll(() => startMsw());
afterAll(() => msw.close());
beforeEach(async () => {
  mock = await simulatedService("http://127.0.0.1:9/unused");
  sent = [];
  msw.events.removeAllListeners();
  msw.events.on("request:start", async ({ request }) => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname,
      query: url.search,
      key: request.headers.get("idempotency-key"),
      authorization: request.headers.get("authorization"),
      body: await request.clone().text(),
    });
  });
});

describe("SlotgateApi.call places each request as the endpoint table says", () => {
  it("a developer signs in, registers a client application and lists it: body rows, a developer bearer row", async () => {
    const client = api();
    const { developer } = mock.fixtures;
    const session = await client.call("devUserLogin", { email: developer.email, password: developer.password }, null);
    expect(session.uuid).toBe(developer.uuid);
    const registered = await client.call(
      "registerClient",
      {
        name: "Typed",
        redirect_uris: ["https://typed.example/cb"],
        download_url: "https://typed.example/d",
        web_url: "https://typed.example/",
        platform: "web",
      },
      { bearer: session.token },
    );
    if (!("client_secret" in registered)) throw new Error("a confidential client's registration answers its secret");
    expect(registered.client_secret.length).toBeGreaterThan(0);
    const { clients } = await client.call("listClients", {}, { bearer: session.token });
    expect(clients.map((c) => c.client_id)).toContain(registered.client_id);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${PATHS.devUserLogin}`, `POST ${PATHS.clients}`, `GET ${PATHS.clients}`]);
    expect(JSON.parse(sent[1]!.body)).toMatchObject({ name: "Typed", platform: "web" });
    expect(sent[1]!.authorization).toBe(`Bearer ${session.token}`);
    expect(
      sent.every((r) => r.key === null),
      "no Idempotency-Key on rows that move nothing",
    ).toBe(true);
  });

  it("fills path parameters and the query from the one input object", async () => {
    const client = api();
    const { session } = {
      session: await client.call("devUserLogin", { email: mock.fixtures.developer.email, password: mock.fixtures.developer.password }, null),
    };
    const id = mock.fixtures.webClient.client_id;
    const updated = await client.call("updateClient", { client_id: id, name: "Renamed" }, { bearer: session.token });
    expect(updated).toMatchObject({ client_id: id, name: "Renamed" });
    const { slot, provider } = mock.fixtures;
    const balance = await client.call("balanceAdex", { slot: slot.address, cuid: provider.cuid }, null);
    expect(balance.cuid).toBe(provider.cuid);
    expect(sent.slice(1).map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      `PATCH /v1/dev-user/clients/${id}`,
      `GET /v1/development-api/balance_adex/${slot.address}?cuid=${provider.cuid}`,
    ]);
    expect(JSON.parse(sent[1]!.body), "the path parameter is not repeated in the body").toEqual({ name: "Renamed" });
  });

  it("a write carries a fresh Idempotency-Key, or the caller's; client credentials go as HTTP Basic", async () => {
    const client = api();
    const c = mock.fixtures.webClient;
    const auth = { clientId: c.client_id, clientSecret: c.client_secret };
    const buy = { client_id: c.client_id, user_dbkey: mock.fixtures.slot.user_id, amount: "10", cuid: mock.fixtures.provider.cuid };
    const first = await client.call("userBuyContentToken", buy, auth);
    expect(first.platform_fee).toBe("1");
    const again = await client.call("userBuyContentToken", buy, auth, { idempotencyKey: "order-42" });
    const replay = await client.call("userBuyContentToken", buy, auth, { idempotencyKey: "order-42" });
    expect(replay).toEqual(again);
    expect(sent.map((r) => r.key)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), "order-42", "order-42"]);
    expect(sent[0]!.authorization).toBe(`Basic ${btoa(`${c.client_id}:${c.client_secret}`)}`);
  });
});

describe("SlotgateApi.call refuses before any request", () => {
  it("an input its row's schema refuses, naming the field; a missing path parameter", async () => {
    const client = api();
    const bad = await rejection(client.call("openSlot", { cu_id: "not a cuid" }, { bearer: "t" }));
    expect(bad).toMatchObject({ code: "invalid_argument" });
    expect(bad.message).toMatch(/openSlot: .*cu_id/);
    expect(await rejection(client.call("slot", { cu_id: "game-1" } as never, null))).toMatchObject({ code: "invalid_argument" });
    expect(await rejection(client.call("listSlots", { cu_id: "game-1", extra: 1 } as never, { bearer: "t" }))).toMatchObject({ code: "invalid_argument" });
    expect(sent).toEqual([]);
  });

  it("credentials the row does not take, none for a row that needs them, and an idempotencyKey for a row that moves nothing", async () => {
    const client = api();
    const cases: Array<[string, Promise<unknown>]> = [
      ["client credentials for a bearer row", client.call("listSlots", { cu_id: "game-1" }, { clientId: "a", clientSecret: "b" })],
      ["a bearer token for a client row", client.call("testEncryption", { client_id: "a", test_string: "x" }, { bearer: "t" })],
      ["no credentials", client.call("validate", {}, null)],
      ["an empty bearer token", client.call("validate", {}, { bearer: " " })],
      ["a key for a read", client.call("listSlots", { cu_id: "game-1" }, { bearer: "t" }, { idempotencyKey: "k" })],
      [
        "a malformed key",
        client.call(
          "userBuyContentToken",
          { client_id: "a", user_dbkey: "1", amount: "1", cuid: "g" },
          { clientId: "a", clientSecret: "b" },
          { idempotencyKey: "has space" },
        ),
      ],
      ["an unknown endpoint", client.call("nope" as never, {} as never, null)],
    ];
    for (const [what, call] of cases) expect((await rejection(call)).code, what).toBe("invalid_argument");
    expect(sent).toEqual([]);
  });
});

describe("SlotgateApi.call answers", () => {
  it("the service's refusal as service_error with its code and status", async () => {
    const err = await rejection(api().call("validate", {}, { bearer: "not-a-token" }));
    expect(err).toMatchObject({ code: "service_error", error: "invalid_token", serviceStatus: 401 });
  });

  it("an answer its row's schema refuses as invalid_response (a 2xx the row does not declare too)", async () => {
    msw.use(http.get(`${mock.baseUrl}${PATHS.health}`, () => HttpResponse.json({ success: true, status: "ok" }), { once: true }));
    expect(await rejection(api().call("health", {}, null))).toMatchObject({ code: "invalid_response", serviceStatus: 200 });
    msw.use(
      http.get(`${mock.baseUrl}${PATHS.health}`, () => HttpResponse.json({ success: true, status: "ok", database: "x", chain: "y" }, { status: 201 }), {
        once: true,
      }),
    );
    expect(await rejection(api().call("health", {}, null))).toMatchObject({ code: "invalid_response", serviceStatus: 201 });
  });

  it("a write's 202 followed with the call's own credentials to the answer it stands for", async () => {
    const jwt = await mock.issueAccessToken(mock.fixtures.endUser.user_id, mock.fixtures.webClient.client_id);
    const result = { success: true, tx_hash: `0x${"2".repeat(64)}`, meta_idx: 0, new_owner: `0x${"3".repeat(40)}`, tr_cnt: 1 };
    msw.use(
      http.post(`${mock.baseUrl}${PATHS.exchangeTokenOwner}`, () => HttpResponse.json({ success: true, status: "pending", write_id: "5" }, { status: 202 }), {
        once: true,
      }),
      http.get(`${mock.baseUrl}/v1/chain/writes/5`, () => HttpResponse.json({ success: true, write_id: "5", status: "confirmed", result })),
    );
    const user = mock.fixtures.endUser.user_id;
    const input = { state: "c2FsZS0x", cu_id: "game-1", from_uuid: user, to_uuid: "99", meta_idx: 0, pin_hash: "a".repeat(64), key_share_user: "b".repeat(64) };
    expect(await api().call("exchangeTokenOwner", input, { bearer: jwt }, { idempotencyKey: "sale-1" })).toEqual(result);
    expect(sent.map((r) => `${r.method} ${r.path} ${r.authorization === `Bearer ${jwt}`}`)).toEqual([
      `POST ${PATHS.exchangeTokenOwner} true`,
      "GET /v1/chain/writes/5 true",
    ]);
  });

  it("write(writeId) looks a write up with the given credentials", async () => {
    const c = mock.fixtures.webClient;
    const err = await rejection(api().write("7", { clientId: c.client_id, clientSecret: c.client_secret }));
    expect(err).toMatchObject({ code: "service_error", error: "write_not_found", serviceStatus: 404 });
    expect(await rejection(api().write("abc", null))).toMatchObject({ code: "invalid_argument" });
  });

  it("bad constructor options are invalid_options naming the option", () => {
    expect(() => new SlotgateApi({ authServerUrl: "ftp://x" })).toThrowError(/authServerUrl/);
    expect(() => new SlotgateApi({ authServerUrl: "http://x/?q=1" })).toThrowError(/query string/);
    expect(() => new SlotgateApi({ authServerUrl: "http://x", retry: { attempts: 11 } })).toThrowError(/retry.attempts/);
    expect(() => new SlotgateApi({ authServerUrl: "http://x", pendingTimeoutMs: -1 })).toThrowError(/pendingTimeoutMs/);
  });
});
