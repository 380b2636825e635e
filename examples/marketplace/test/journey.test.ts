/**
 * The marketplace against the real reference server (CHAIN=off) on 127.0.0.1: real sign-in (getSlotInfo through the
 * marketplace's own callback), the server's real signed webhooks (status login/logout → outbox → POST /webhooks/slotgate)
 * and the server's real `GET /v1/marketplace/listing_allowed`.
 *
 * A stand-in server (test/support/stand-in.ts) sits between the marketplace and the service and forwards everything
 * except what the reference server cannot answer here: `GET /v1/slots` and `GET /v1/slots/:cu_id/:meta_idx` (issue 16,
 * not served yet), and `POST /v1/pin/register` / `POST /idex-platform/exchange_token_owner` (they need the chain, which
 * is off in this suite; the 409 logout_required of the listing lock is issue 16 work too).
 */
import { randomBytes } from "node:crypto";
import { type ReferenceServer, freeLoopbackPort, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { signWebhook } from "@slotgate/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_PLAYING } from "../src/listing/hand-over.js";
import { PLAYING_MESSAGE } from "../src/listing/list-slot.js";
import { type BrowserSession, browserSession } from "./support/browser-session.js";
import { MARKETPLACE_SECRET, type RunningMarketplace, startMarketplace } from "./support/marketplace.js";
import { type StandIn, startStandIn } from "./support/stand-in.js";

const CUID = "test-game";
let service: ReferenceServer;
let standIn: StandIn;
let market: RunningMarketplace;
let clientId = "";
let loopback = "";
const players: Record<"seller" | "buyer", { jwt: string; id: string; browser: BrowserSession }> = {} as never;
/** The stand-in's chain: slot 0 of CUID, owned by the seller at first. */
const chain = { owner: "", ownerWallet: "0x1111111111111111111111111111111111111111", trCnt: 0 };

const subOf = (bearer: string | undefined) => JSON.parse(Buffer.from((bearer ?? "").replace(/^Bearer /, "").split(".")[1] ?? "", "base64url").toString("utf8") || "{}").sub as string;

function slotView() {
  return {
    cuid: CUID,
    meta_idx: 0,
    slot: "0x2222222222222222222222222222222222222222",
    owner: chain.ownerWallet,
    owner_user_id: chain.owner,
    tr_cnt: chain.trCnt,
    balance: "75",
    used_balances: "25",
    state: "active",
    registered: true,
  };
}

async function service_(path: string, body: unknown, token?: string) {
  const res = await fetch(service.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Waits for a condition on the marketplace's database (the service delivers webhooks from its outbox, asynchronously). */
async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const statusRow = (user: string) => market.db.query<{ status: string; event_id: string | null; event_time: Date }>("SELECT status, event_id, event_time FROM mk_seller_status WHERE user_id = $1 AND client_id = $2", [user, clientId]).then((r) => r[0] ?? null);

async function setGameStatus(who: "seller" | "buyer", status: "login" | "logout"): Promise<void> {
  const before = await statusRow(players[who].id);
  const res = await service_(`/v1/oauth/status/${status}`, { user_id: players[who].id, client_id: clientId }, players[who].jwt);
  expect(res.status).toBe(200);
  await until(`the ${status} webhook of the ${who}`, () => statusRow(players[who].id), (row) => row?.status === (status === "login" ? "logged_in" : "logged_out") && row.event_id !== before?.event_id);
}

async function signUp(tag: string): Promise<string> {
  const res = await signUpPlayer(service.url, service.dataDir, { client_id: clientId, redirect_uri: loopback, state: `s-${tag}`, email: `${tag}-${randomBytes(4).toString("hex")}@example.test`, password: "player-password-123" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!).searchParams.get("jwt")!;
}

beforeAll(async () => {
  standIn = await startStandIn();
  const marketPort = await freeLoopbackPort();
  const marketOrigin = `http://127.0.0.1:${marketPort}`;
  service = await startReferenceServer({
    chain: "off",
    env: { LOG_LEVEL: "silent", MARKETPLACE_URL: `${marketOrigin}/webhooks/slotgate`, MARKETPLACE_SECRET, OUTBOX_POLL_MS: "50", MARKETPLACE_RETRY_BASE_MS: "50" },
  });
  standIn.upstream = service.url;
  loopback = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
  const dev = await service_("/v1/dev-user/signup", { email: `dev-${randomBytes(4).toString("hex")}@example.test`, password: "dev-password-123" });
  const reg = await service_(
    "/v1/dev-user/clients",
    {
      name: "Marketplace test",
      redirect_uris: [`${marketOrigin}/slotgate-callback.html`, `${marketOrigin}/api/slotgate/callback`, loopback],
      download_url: "https://game.example/download",
      web_url: "https://game.example/",
      platform: "web",
      blockchain: false,
    },
    String(dev.body["token"]),
  );
  expect(reg.status).toBe(201);
  clientId = String(reg.body["client_id"]);
  // The game and the marketplace are one client here: the status that counts is the one at the cuid's client.
  market = await startMarketplace({
    port: marketPort,
    env: { SLOTGATE_URL: standIn.origin, SLOTGATE_CLIENT_ID: clientId, SLOTGATE_CLIENT_SECRET: String(reg.body["client_secret"]), GAME_CLIENT_ID: clientId, GAME_CUID: CUID },
  });
  standIn.route(/^GET \/v1\/slots$/, (req) => ({ status: 200, body: { success: true, slots: subOf(req.authorization) === chain.owner ? [slotView()] : [] } }));
  standIn.route(/^GET \/v1\/slots\/test-game\/0$/, () => ({ status: 200, body: { success: true, slot: slotView() } }));

  for (const who of ["seller", "buyer"] as const) {
    const jwt = await signUp(who);
    const browser = browserSession(market.origin);
    const session = await browser.call("POST", "/api/session", { jwt });
    expect(session.status).toBe(200);
    players[who] = { jwt, id: String((session.body["user"] as { user_id: string }).user_id), browser };
  }
  chain.owner = players.seller.id;
}, 180_000);

afterAll(async () => {
  await market?.stop();
  await service?.close();
  await standIn?.close();
});

describe("listing a slot", () => {
  const list = (who: "seller" | "buyer", metaIdx = 0) => players[who].browser.call("POST", "/api/listings", { cuid: CUID, meta_idx: metaIdx, price: "100" });

  it("shows the seller's slots with the chain's figures", async () => {
    const res = await players.seller.browser.call("GET", "/api/slots");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cuid: CUID, slots: [{ meta_idx: 0, balance: "75", used_balances: "25", tr_cnt: 0, listing: null }] });
  });

  it("is refused while this marketplace's own view says logged_in (the service's real webhook)", async () => {
    await setGameStatus("seller", "login");
    expect(await list("seller")).toEqual({ status: 409, body: { error: "seller_logged_in", message: PLAYING_MESSAGE } });
  });

  it("is refused when the own view says logged_out but the service's live listing_allowed does not", async () => {
    // A logged_out newer than the real logged_in, signed with the secret: the own view now says logged_out; the service still says logged_in.
    const row = (await statusRow(players.seller.id))!;
    const forged = JSON.stringify({ id: "forged-1", type: "login_status.changed", user_id: players.seller.id, client_id: clientId, status: "logged_out", transfer_enabled: true, timestamp: new Date(row.event_time.getTime() + 1).toISOString() });
    const delivered = await fetch(`${market.origin}/webhooks/slotgate`, { method: "POST", headers: { "content-type": "application/json", "slotgate-signature": signWebhook(MARKETPLACE_SECRET, forged, Math.floor(Date.now() / 1000)) }, body: forged });
    expect(await delivered.json()).toMatchObject({ outcome: "applied" });
    const refused = await list("seller");
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "listing_not_allowed" });
    expect(String(refused.body["message"])).toMatch(/says you are logged_in/);
  });

  it("is accepted once the seller logged out of the game, and only for the seller's own slot", async () => {
    await setGameStatus("seller", "logout");
    expect(await list("buyer")).toMatchObject({ status: 403, body: { error: "not_your_slot" } });
    expect(await list("seller", 3)).toMatchObject({ status: 403, body: { error: "not_your_slot" } });
    const listed = await list("seller");
    expect(listed).toMatchObject({ status: 201, body: { listing: { cuid: CUID, meta_idx: 0, state: "listed", seller_user_id: players.seller.id } } });
    expect(await list("seller")).toMatchObject({ status: 409, body: { error: "already_listed" } });
  });

  it("is withdrawn when the seller logs in to the game again", async () => {
    const [listing] = await market.db.query<{ id: string }>("SELECT id::text AS id FROM mk_listings WHERE state = 'listed'");
    await setGameStatus("seller", "login");
    expect((await market.db.query("SELECT state, withdrawn_reason FROM mk_listings WHERE id = $1", [listing!.id]))[0]).toEqual({ state: "withdrawn", withdrawn_reason: "seller_logged_in" });
    await setGameStatus("seller", "logout");
    expect((await list("seller")).status).toBe(201);
  });
});

describe("selling a slot", () => {
  const keyShare = randomBytes(32).toString("hex");
  const pinSalt = randomBytes(32).toString("hex");
  const pinHash = randomBytes(32).toString("hex");
  let listingId = "";

  it("the buyer commits: the listing is reserved for them (not for its own seller)", async () => {
    const { body } = await players.buyer.browser.call("GET", "/api/listings");
    listingId = (body["listings"] as Array<{ id: string; state: string }>).find((l) => l.state === "listed")!.id;
    expect(await players.seller.browser.call("POST", `/api/listings/${listingId}/buy`)).toMatchObject({ status: 409, body: { error: "own_listing" } });
    const bought = await players.buyer.browser.call("POST", `/api/listings/${listingId}/buy`);
    expect(bought).toMatchObject({ status: 200, body: { listing: { state: "reserved", buyer_user_id: players.buyer.id }, sale: { state: "reserved" } } });
  });

  it("the seller registers the PIN through the marketplace; key_share_user is kept sealed", async () => {
    expect(await players.seller.browser.call("POST", `/api/listings/${listingId}/confirm`, { pin_hash: pinHash })).toMatchObject({ status: 409, body: { error: "pin_not_registered" } });
    standIn.route(/^POST \/v1\/pin\/register$/, () => ({ status: 200, body: { success: true, data: [{ address: "0x3333333333333333333333333333333333333333", mnemonic: "00", key_share_user: keyShare }] } }));
    const res = await players.seller.browser.call("POST", "/api/pin/register", { pin_hash: pinHash, pin_salt: pinSalt });
    expect(res).toEqual({ status: 200, body: { pin_registered: true, wallet_address: "0x3333333333333333333333333333333333333333" } });
    const sent = standIn.answered.at(-1)!;
    expect(sent.body).toEqual({ user_uuid: Number(players.seller.id), pin_hash: pinHash, pin_salt: pinSalt });
    expect(subOf(sent.authorization)).toBe(players.seller.id);
    const [row] = await market.db.query<{ sealed_key_share: string }>("SELECT sealed_key_share FROM mk_seller_credentials WHERE user_id = $1", [players.seller.id]);
    expect(row!.sealed_key_share).not.toContain(keyShare);
    expect((await players.seller.browser.call("GET", "/api/session")).body).toMatchObject({ pin_registered: true, pin_salt: pinSalt });
  });

  it("a 409 logout_required from the service: the seller is playing, the sale waits", async () => {
    standIn.route(/^POST \/idex-platform\/exchange_token_owner$/, () => ({ status: 409, body: { success: false, error: "logout_required", message: "The seller is logged in at the slot's game." } }));
    const res = await players.seller.browser.call("POST", `/api/listings/${listingId}/confirm`, { pin_hash: pinHash });
    expect(res).toEqual({ status: 409, body: { error: "seller_playing", service_error: "logout_required", message: SELLER_PLAYING } });
    expect((await market.db.query("SELECT state FROM mk_listings WHERE id = $1", [listingId]))[0]).toEqual({ state: "reserved" });
  });

  it("only the seller confirms; the hand-over then shows the new owner and tr_cnt read back from the chain", async () => {
    expect(await players.buyer.browser.call("POST", `/api/listings/${listingId}/confirm`, { pin_hash: pinHash })).toMatchObject({ status: 403, body: { error: "not_your_listing" } });
    const buyerWallet = "0x4444444444444444444444444444444444444444";
    standIn.route(/^POST \/idex-platform\/exchange_token_owner$/, () => {
      Object.assign(chain, { owner: players.buyer.id, ownerWallet: buyerWallet, trCnt: chain.trCnt + 1 });
      return { status: 200, body: { success: true, tx_hash: `0x${"ab".repeat(32)}`, meta_idx: 0, new_owner: buyerWallet, tr_cnt: 1 } };
    });
    const res = await players.seller.browser.call("POST", `/api/listings/${listingId}/confirm`, { pin_hash: pinHash });
    expect(res).toMatchObject({ status: 200, body: { sale: { state: "sold", new_owner: buyerWallet, tr_cnt: 1, tx_hash: `0x${"ab".repeat(32)}` }, slot: { owner_user_id: players.buyer.id, tr_cnt: 1 } } });
    const attempts = standIn.answered.filter((r) => r.path === "/idex-platform/exchange_token_owner");
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts.map((a) => a.body as Record<string, unknown>);
    expect(second).toEqual({ state: expect.stringMatching(/^[0-9a-f]{48}$/), cu_id: CUID, from_uuid: players.seller.id, to_uuid: players.buyer.id, meta_idx: 0, pin_hash: pinHash, pin_salt: pinSalt, key_share_user: keyShare });
    expect(second!["state"]).not.toBe(first!["state"]); // a fresh state per attempt
    expect(subOf(attempts[1]!.authorization)).toBe(players.seller.id);
    expect((await market.db.query("SELECT state FROM mk_listings WHERE id = $1", [listingId]))[0]).toEqual({ state: "sold" });
    expect(await players.seller.browser.call("POST", `/api/listings/${listingId}/confirm`, { pin_hash: pinHash })).toMatchObject({ status: 409, body: { error: "not_reserved" } });
  });
});
