/**
 * The marketplace's one Slotgate module, with the network replaced by a recording fetch: the slot reads go through the
 * backend SDK (`SlotgateBackend.listSlots` / `slot`, answers checked against the protocol's schemas), the other calls are
 * made with the protocol's PATHS, and every failure becomes the same MarketError (service code, status, message).
 */
import { SlotgateBackend } from "@slotgate/backend-sdk";
import { PATHS, type SlotView } from "@slotgate/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { MarketError } from "../src/errors.js";
import { SlotgateApi } from "../src/slotgate-api.js";

const BASE = "http://slotgate.test";
const SECRET = "test-marketplace-secret-0123456789abcdef";
const VIEW: SlotView = {
  cuid: "test-game",
  meta_idx: 2,
  slot: "0x2222222222222222222222222222222222222222",
  owner: "0x1111111111111111111111111111111111111111",
  owner_user_id: "7",
  tr_cnt: 1,
  balance: "900",
  used_balances: "100",
  state: "active",
  registered: true,
};

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records each request and answers the next planned answer (a thrown error: the network failed). */
function recordingFetch(answers: Array<{ status: number; body: unknown } | Error>) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    sent.push({ method: init?.method ?? "GET", url: String(input), headers, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
    const answer = answers.shift();
    if (!answer) throw new Error("no answer planned");
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  };
  return { sent, fetch };
}

const backends: SlotgateBackend[] = [];
afterEach(async () => {
  await Promise.all(backends.splice(0).map((b) => b.shutdown()));
});

function apiWith(answers: Array<{ status: number; body: unknown } | Error>) {
  const { sent, fetch } = recordingFetch(answers);
  const backend = new SlotgateBackend({
    authServerUrl: BASE,
    clientId: "sg_market",
    clientSecret: "market-secret",
    redirectUri: "http://127.0.0.1:3100/api/slotgate/callback",
    fetch,
  });
  backends.push(backend);
  return { sent, api: new SlotgateApi({ slotgateUrl: `${BASE}/`, marketplaceSecret: SECRET, backend, fetch }) };
}

async function failure(promise: Promise<unknown>): Promise<MarketError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketError);
  return error as MarketError;
}

describe("slot reads through the backend SDK", () => {
  it("listSlots sends the user's bearer token and the cuid, and answers the slots", async () => {
    const { api, sent } = apiWith([{ status: 200, body: { success: true, slots: [VIEW] } }]);
    expect(await api.listSlots({ accessToken: "user-token", cuid: "test-game" })).toEqual([VIEW]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "GET", url: `${BASE}${PATHS.slots}?cu_id=test-game`, headers: { authorization: "Bearer user-token" } });
  });

  it("slot reads one slot publicly (no bearer token)", async () => {
    const { api, sent } = apiWith([{ status: 200, body: { success: true, slot: VIEW } }]);
    expect(await api.slot("test-game", 2)).toEqual(VIEW);
    expect(sent[0]!.url).toBe(`${BASE}/v1/slots/test-game/2`);
    expect(sent[0]!.headers["authorization"]).toBeUndefined();
  });

  it("a refusal keeps the service's code and status; a 5xx is 502; an answer that is not a slot answer is service_answer_invalid", async () => {
    const { api } = apiWith([
      { status: 404, body: { success: false, error: "slot_not_found", message: "No slot 9 of test-game." } },
      { status: 503, body: { success: false, error: "service_unavailable", message: "The chain is down." } },
      { status: 200, body: { success: true, slots: [{ ...VIEW, tr_cnt: "one" }] } },
    ]);
    const notFound = await failure(api.slot("test-game", 9));
    expect([notFound.code, notFound.status, notFound.serviceError]).toEqual(["slot_not_found", 404, "slot_not_found"]);
    expect(notFound.message).toContain("No slot 9 of test-game.");
    const down = await failure(api.listSlots({ accessToken: "t", cuid: "test-game" }));
    expect([down.code, down.status, down.serviceError]).toEqual(["service_unavailable", 502, "service_unavailable"]);
    const garbled = await failure(api.listSlots({ accessToken: "t", cuid: "test-game" }));
    expect([garbled.code, garbled.status]).toEqual(["service_answer_invalid", 502]);
  });

  it("a service that does not answer is service_unreachable (502), as for the calls made directly", async () => {
    const { api } = apiWith([new TypeError("fetch failed"), new TypeError("fetch failed")]);
    const viaSdk = await failure(api.slot("test-game", 0));
    expect([viaSdk.code, viaSdk.status, viaSdk.message]).toEqual(["service_unreachable", 502, `The Slotgate service did not answer GET ${PATHS.slot}.`]);
    const direct = await failure(api.listingAllowed("7", "sg_game"));
    expect([direct.code, direct.status]).toEqual(["service_unreachable", 502]);
  });
});

describe("the calls the SDK has no method for", () => {
  it("listingAllowed authenticates with MARKETPLACE_SECRET and reads the live status", async () => {
    const { api, sent } = apiWith([{ status: 200, body: { success: true, user_id: "7", client_id: "sg_game", status: "logged_in", listing_allowed: false } }]);
    expect(await api.listingAllowed("7", "sg_game")).toEqual({ status: "logged_in", listing_allowed: false });
    expect(sent[0]).toMatchObject({
      method: "GET",
      url: `${BASE}${PATHS.listingAllowed}?user_id=7&client_id=sg_game`,
      headers: { authorization: `Bearer ${SECRET}` },
    });
  });

  it("registerPin sends the user's uuid, hash and salt; an answer without a key share is service_answer_invalid", async () => {
    const wallet = { address: "0x3333333333333333333333333333333333333333", mnemonic: "00", key_share_user: "ab".repeat(32) };
    const { api, sent } = apiWith([
      { status: 200, body: { success: true, data: [wallet] } },
      { status: 200, body: { success: true, data: [] } },
    ]);
    const args = { accessToken: "user-token", userUuid: 7, pinHash: "1".repeat(64), pinSalt: "2".repeat(64) };
    expect(await api.registerPin(args)).toEqual(wallet);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: `${BASE}${PATHS.pinRegister}`,
      headers: { authorization: "Bearer user-token" },
      body: { user_uuid: 7, pin_hash: "1".repeat(64), pin_salt: "2".repeat(64) },
    });
    expect((await failure(api.registerPin(args))).code).toBe("service_answer_invalid");
  });

  it("exchangeTokenOwner sends the Idempotency-Key and passes a 409 logout_required on with the service's code", async () => {
    const { api, sent } = apiWith([
      { status: 409, body: { success: false, error: "logout_required", message: "The seller is logged in at the slot's game." } },
    ]);
    const request = {
      state: "s".repeat(24),
      cu_id: "test-game",
      from_uuid: "7",
      to_uuid: "8",
      meta_idx: 2,
      pin_hash: "1".repeat(64),
      pin_salt: "2".repeat(64),
      key_share_user: "3".repeat(64),
    };
    const refused = await failure(api.exchangeTokenOwner({ accessToken: "seller-token", request, idempotencyKey: "marketplace-sale-1-abc" }));
    expect([refused.code, refused.status, refused.serviceError, refused.message]).toEqual([
      "logout_required",
      409,
      "logout_required",
      "The seller is logged in at the slot's game.",
    ]);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: `${BASE}${PATHS.exchangeTokenOwner}`,
      headers: { authorization: "Bearer seller-token", "idempotency-key": "marketplace-sale-1-abc" },
      body: request,
    });
  });
});
