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

/** The client that registered the traded cu_id: only it may ask for a slot's hand-over. */
const GAME = { clientId: "sg_game", clientSecret: "game-secret" };
const GAME_BASIC = `Basic ${Buffer.from("sg_game:game-secret").toString("base64")}`;
const CONFIRMATION_ID = "c".repeat(43);

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
  return { sent, api: new SlotgateApi({ slotgateUrl: `${BASE}/`, marketplaceSecret: SECRET, backend, fetch, client: GAME }) };
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

  it("createHandOver asks for a slot_hand_over with the marketplace's client credentials and answers the window's URL", async () => {
    const created = {
      success: true,
      id: CONFIRMATION_ID,
      kind: "slot_hand_over",
      status: "pending",
      expires_at: 1_900_000_000,
      window_url: `${BASE}/wallet/confirm/${CONFIRMATION_ID}`,
    };
    const { api, sent } = apiWith([{ status: 201, body: created }]);
    const redirectUri = "http://127.0.0.1:3100/slotgate-callback.html";
    expect(await api.createHandOver({ sellerUuid: 7, buyerUserId: "8", cuid: "test-game", metaIdx: 2, redirectUri })).toEqual(created);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: `${BASE}${PATHS.walletConfirmations}`,
      headers: { authorization: GAME_BASIC },
      body: { user_uuid: 7, redirect_uri: redirectUri, request: { kind: "slot_hand_over", cu_id: "test-game", to_uuid: "8", meta_idx: 2 } },
    });
  });

  it("createHandOver passes a 403 cuid_not_owned on with the service's code", async () => {
    const { api } = apiWith([{ status: 403, body: { success: false, error: "cuid_not_owned", message: "Another client registered this cuid." } }]);
    const refused = await failure(
      api.createHandOver({ sellerUuid: 7, buyerUserId: "8", cuid: "test-game", metaIdx: 0, redirectUri: "http://127.0.0.1:3100/x" }),
    );
    expect([refused.code, refused.status, refused.serviceError]).toEqual(["cuid_not_owned", 403, "cuid_not_owned"]);
  });

  it("confirmation reads the outcome with the marketplace's client credentials", async () => {
    const outcome = {
      success: true,
      id: CONFIRMATION_ID,
      kind: "slot_hand_over",
      status: "failed",
      tx_hash: null,
      write_id: null,
      error: { code: "logout_required", message: "The seller plays." },
    };
    const { api, sent } = apiWith([{ status: 200, body: outcome }]);
    expect(await api.confirmation(CONFIRMATION_ID)).toEqual(outcome);
    expect(sent[0]).toMatchObject({ method: "GET", url: `${BASE}/v1/wallet/confirmations/${CONFIRMATION_ID}`, headers: { authorization: GAME_BASIC } });
  });
});
