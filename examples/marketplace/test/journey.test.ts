/**
 * The marketplace's whole loop against the REAL reference server with its development chain (Anvil), on 127.0.0.1:
 * one server and one chain for the file, a game with its own client and backend (the backend SDK, which registered the
 * cuid and buys and spends content tokens for its players), and the marketplace with its own client.
 *
 * Sign-in through the marketplace's own callback (getSlotInfo); the service's real signed login-status webhooks; the real
 * `GET /v1/marketplace/listing_allowed`; the seller's PIN registered through the marketplace; the hand-over as
 * `exchange_token_owner` on the real chain, refused with 409 logout_required while the seller plays (the listing lock);
 * the new owner and tr_cnt read back from the chain; the buyer's next login to the game names the bought slot.
 */
import { createHash, randomBytes } from "node:crypto";
import { ContentTokenClient, type SpendKey } from "@slotgate/backend-sdk";
import { signWebhook } from "@slotgate/server";
import { type ReferenceServer, freeLoopbackPort, signInPlayer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import type { SlotView } from "@slotgate/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_PLAYING } from "../src/listing/hand-over.js";
import { PLAYING_MESSAGE } from "../src/listing/list-slot.js";
import { type BrowserSession, browserSession } from "./support/browser-session.js";
import { GAME_CALLBACK_PATH, type GameBackend, startGameBackend } from "./support/game-backend.js";
import { MARKETPLACE_SECRET, type RunningMarketplace, startMarketplace } from "./support/marketplace.js";

const CUID = "test-game";
const PASSWORD = "player-password-123";
const PROVIDER_OWNER = "0x00000000000000000000000000000000c0ffee16";
let service: ReferenceServer;
let game: GameBackend;
let tokens: ContentTokenClient;
let spendKey: SpendKey;
let market: RunningMarketplace;
let gameClientId = "";
let loopback = "";
/** The seller's slot (opened at the seller's first login to the game), as the chain showed it before the sale. */
let beforeSale: SlotView;
const players: Record<"seller" | "buyer", { email: string; id: string; gameJwt: string; browser: BrowserSession }> = {} as never;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(service.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Waits (bounded) for a condition: webhooks come from the service's outbox and slot registrations from its chain writer, asynchronously. */
async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const statusRow = (user: string) =>
  market.db
    .query<{ status: string; event_id: string | null; event_time: Date }>(
      "SELECT status, event_id, event_time FROM mk_seller_status WHERE user_id = $1 AND client_id = $2",
      [user, gameClientId],
    )
    .then((r) => r[0] ?? null);
const listingState = (id: string) => market.db.query<{ state: string }>("SELECT state FROM mk_listings WHERE id = $1", [id]).then((r) => r[0]?.state);
const attemptState = (listingId: string) =>
  market.db
    .query<{ exchange_state: string | null }>("SELECT exchange_state FROM mk_sales WHERE listing_id = $1 ORDER BY id DESC LIMIT 1", [listingId])
    .then((r) => r[0]?.exchange_state ?? null);
const chainSlot = async (metaIdx = 0) => (await game.slotgate.slot(CUID, metaIdx)).slot;

/** The player logs in to (or out of) the game at the service (the game's JWT), and the marketplace's webhook view follows. */
async function setGameStatus(who: "seller" | "buyer", status: "login" | "logout"): Promise<void> {
  const before = await statusRow(players[who].id);
  const res = await post(
    `/v1/oauth/status/${status}`,
    { user_id: players[who].id, client_id: gameClientId },
    { authorization: `Bearer ${players[who].gameJwt}` },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await until(
    `the ${status} webhook of the ${who}`,
    () => statusRow(players[who].id),
    (row) => row?.status === (status === "login" ? "logged_in" : "logged_out") && row.event_id !== before?.event_id,
  );
}

async function signUp(clientId: string, email: string): Promise<string> {
  const res = await signUpPlayer(service.url, service.dataDir, {
    client_id: clientId,
    redirect_uri: loopback,
    state: `s-${randomBytes(4).toString("hex")}`,
    email,
    password: PASSWORD,
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!).searchParams.get("jwt")!;
}

async function registerClient(devToken: string, name: string, redirectUris: string[]): Promise<{ client_id: string; client_secret: string }> {
  const res = await post(
    "/v1/dev-user/clients",
    { name, redirect_uris: redirectUris, download_url: "https://game.example/download", web_url: "https://game.example/", platform: "web", blockchain: true },
    { authorization: `Bearer ${devToken}` },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { client_id: String(res.body["client_id"]), client_secret: String(res.body["client_secret"]) };
}

beforeAll(async () => {
  const marketPort = await freeLoopbackPort();
  const gamePort = await freeLoopbackPort();
  const marketOrigin = `http://127.0.0.1:${marketPort}`;
  service = await startReferenceServer({
    chain: "anvil",
    env: {
      LOG_LEVEL: "silent",
      MARKETPLACE_URL: `${marketOrigin}/webhooks/slotgate`,
      MARKETPLACE_SECRET,
      OUTBOX_POLL_MS: "50",
      MARKETPLACE_RETRY_BASE_MS: "50",
    },
  });
  loopback = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
  const dev = await post("/v1/dev-user/signup", { email: `dev-${randomBytes(4).toString("hex")}@example.test`, password: "dev-password-123" });
  // The game: its own client (a blockchain client that registers the cuid) and its own backend.
  const gameClient = await registerClient(String(dev.body["token"]), "The game", [`http://127.0.0.1:${gamePort}${GAME_CALLBACK_PATH}`, loopback]);
  gameClientId = gameClient.client_id;
  tokens = new ContentTokenClient({ authServerUrl: service.url, clientId: gameClient.client_id, clientSecret: gameClient.client_secret });
  const provider = await tokens.registerProvider({ cuid: CUID, release_per: 20, owner_addr: PROVIDER_OWNER });
  spendKey = { key: provider.aes_key!, iv: provider.aes_iv! };
  game = await startGameBackend({ port: gamePort, authServerUrl: service.url, clientId: gameClient.client_id, clientSecret: gameClient.client_secret });
  // The marketplace: its own client (a blockchain client without a cuid: signing in gives a player a wallet, no slot).
  const marketClient = await registerClient(String(dev.body["token"]), "Marketplace", [
    `${marketOrigin}/slotgate-callback.html`,
    `${marketOrigin}/api/slotgate/callback`,
    loopback,
  ]);
  market = await startMarketplace({
    port: marketPort,
    env: {
      SLOTGATE_URL: service.url,
      SLOTGATE_CLIENT_ID: marketClient.client_id,
      SLOTGATE_CLIENT_SECRET: marketClient.client_secret,
      GAME_CLIENT_ID: gameClient.client_id,
      GAME_CUID: CUID,
    },
  });

  // The seller plays the game first (the game's code exchange opens the seller's first slot), then comes to the marketplace.
  const sellerEmail = `seller-${randomBytes(4).toString("hex")}@example.test`;
  const sellerGameJwt = await signUp(gameClient.client_id, sellerEmail);
  const sellerInfo = await game.slotgate.getSlotInfo(sellerGameJwt);
  // (The backend SDK's SlotInfo does not carry the service's additive cu_id / meta_idx: the slot is named by content_address.)
  expect(sellerInfo).toMatchObject({ tr_cnt: 0, content_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
  // The buyer only ever signed up at the marketplace: a wallet, no slot of the game.
  const buyerEmail = `buyer-${randomBytes(4).toString("hex")}@example.test`;
  const marketJwts = {
    seller: await signInPlayer(service.url, service.dataDir, {
      client_id: marketClient.client_id,
      redirect_uri: loopback,
      email: sellerEmail,
      password: PASSWORD,
    }),
    buyer: await signUp(marketClient.client_id, buyerEmail),
  };
  for (const who of ["seller", "buyer"] as const) {
    const browser = browserSession(market.origin);
    const session = await browser.call("POST", "/api/session", { jwt: marketJwts[who] });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    players[who] = {
      email: who === "seller" ? sellerEmail : buyerEmail,
      id: String((session.body["user"] as { user_id: string }).user_id),
      gameJwt: "",
      browser,
    };
  }
  expect(players.seller.id).toBe(sellerInfo.id);
  players.seller.gameJwt = sellerGameJwt;

  // The game sells the seller content tokens and the seller spends some, so the slot's figures are not zero.
  const fund = await post(
    "/v1/dev/fund_slot",
    { client_id: gameClient.client_id, user_id: players.seller.id, xotn: "5000", cuid: CUID },
    {
      authorization: `Basic ${Buffer.from(`${gameClient.client_id}:${gameClient.client_secret}`).toString("base64")}`,
    },
  );
  expect(fund.status, JSON.stringify(fund.body)).toBe(200);
  await tokens.buy({ user_dbkey: players.seller.id, amount: "1000", cuid: CUID });
  await tokens.increaseUsed({ user_dbkey: players.seller.id, amount: "250", cuid: CUID }, spendKey);
  // The slot's registration on chain (buy_slot) was queued when it was opened; a sale needs it landed.
  beforeSale = await until("the seller's slot registered on chain", chainSlot, (slot) => slot.registered);
  expect(beforeSale).toMatchObject({ slot: sellerInfo.content_address, owner_user_id: players.seller.id, tr_cnt: 0 });
  expect(BigInt(beforeSale.balance)).toBeGreaterThan(0n);
  expect(beforeSale.used_balances).toBe("250");
}, 240_000);

afterAll(async () => {
  await market?.stop();
  await game?.close();
  await service?.close();
});

describe("listing a slot", () => {
  const list = (who: "seller" | "buyer", metaIdx = 0) => players[who].browser.call("POST", "/api/listings", { cuid: CUID, meta_idx: metaIdx, price: "100" });

  it("shows the seller's slots with the chain's figures", async () => {
    const res = await players.seller.browser.call("GET", "/api/slots");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cuid: CUID, slots: [{ ...beforeSale, listing: null }] });
  });

  it("is refused while this marketplace's own view says logged_in (the service's real webhook)", async () => {
    await setGameStatus("seller", "login");
    expect(await list("seller")).toEqual({ status: 409, body: { error: "seller_logged_in", message: PLAYING_MESSAGE } });
  });

  it("is refused when the own view says logged_out but the service's live listing_allowed does not", async () => {
    // A logged_out newer than the real logged_in, signed with the secret: the own view now says logged_out; the service still says logged_in.
    const row = (await statusRow(players.seller.id))!;
    const forged = JSON.stringify({
      id: "forged-1",
      type: "login_status.changed",
      user_id: players.seller.id,
      client_id: gameClientId,
      status: "logged_out",
      transfer_enabled: true,
      timestamp: new Date(row.event_time.getTime() + 1).toISOString(),
    });
    const delivered = await fetch(`${market.origin}/webhooks/slotgate`, {
      method: "POST",
      headers: { "content-type": "application/json", "slotgate-signature": signWebhook(MARKETPLACE_SECRET, forged, Math.floor(Date.now() / 1000)) },
      body: forged,
    });
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
    expect((await market.db.query("SELECT state, withdrawn_reason FROM mk_listings WHERE id = $1", [listing!.id]))[0]).toEqual({
      state: "withdrawn",
      withdrawn_reason: "seller_logged_in",
    });
    await setGameStatus("seller", "logout");
    expect((await list("seller")).status).toBe(201);
  });
});

describe("selling a slot on the chain", () => {
  const pinSalt = randomBytes(32).toString("hex");
  const pinHash = createHash("sha256").update(`424242${pinSalt}`).digest("hex");
  const confirm = (who: "seller" | "buyer") => players[who].browser.call("POST", `/api/listings/${listingId}/confirm`, { pin_hash: pinHash });
  let listingId = "";
  let sellerWallet = "";
  let refusedState: string | null = null;

  it("the buyer commits: the listing is reserved for them (not for its own seller)", async () => {
    const { body } = await players.buyer.browser.call("GET", "/api/listings");
    listingId = (body["listings"] as Array<{ id: string; state: string }>).find((l) => l.state === "listed")!.id;
    expect(await players.seller.browser.call("POST", `/api/listings/${listingId}/buy`)).toMatchObject({ status: 409, body: { error: "own_listing" } });
    const bought = await players.buyer.browser.call("POST", `/api/listings/${listingId}/buy`);
    expect(bought).toMatchObject({ status: 200, body: { listing: { state: "reserved", buyer_user_id: players.buyer.id }, sale: { state: "reserved" } } });
  });

  it("the seller registers the PIN through the marketplace (the service's POST /v1/pin/register); the wallet is the slot's owner on chain", async () => {
    expect(await confirm("seller")).toMatchObject({ status: 409, body: { error: "pin_not_registered" } });
    const res = await players.seller.browser.call("POST", "/api/pin/register", { pin_hash: pinHash, pin_salt: pinSalt });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ pin_registered: true });
    sellerWallet = String(res.body["wallet_address"]);
    expect(sellerWallet.toLowerCase()).toBe(beforeSale.owner.toLowerCase());
    const [row] = await market.db.query<{ sealed_key_share: string }>("SELECT sealed_key_share FROM mk_seller_credentials WHERE user_id = $1", [
      players.seller.id,
    ]);
    expect(row!.sealed_key_share).not.toMatch(/^[0-9a-f]{64}$/);
    expect((await players.seller.browser.call("GET", "/api/session")).body).toMatchObject({ pin_registered: true, pin_salt: pinSalt });
  });

  it("a confirm while the seller is logged in to the game again: the service's 409 logout_required, the sale waits and nothing moved", async () => {
    await setGameStatus("seller", "login");
    expect(await confirm("seller")).toEqual({ status: 409, body: { error: "seller_playing", service_error: "logout_required", message: SELLER_PLAYING } });
    expect(await listingState(listingId)).toBe("reserved");
    expect(await chainSlot()).toEqual(beforeSale);
    refusedState = await attemptState(listingId);
    expect(refusedState).toMatch(/^[0-9a-f]{48}$/);
  });

  it("after logout only the seller confirms; the slot moves on chain and the marketplace shows the new owner and tr_cnt read from the chain", async () => {
    await setGameStatus("seller", "logout");
    expect(await confirm("buyer")).toMatchObject({ status: 403, body: { error: "not_your_listing" } });
    const res = await confirm("seller");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const onChain = await chainSlot();
    expect(onChain).toMatchObject({ slot: beforeSale.slot, owner_user_id: players.buyer.id, tr_cnt: 1, state: "active", registered: true });
    expect(onChain.owner.toLowerCase()).not.toBe(sellerWallet.toLowerCase());
    expect(res.body).toMatchObject({
      sale: { state: "sold", new_owner: onChain.owner, tr_cnt: 1, tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      slot: onChain,
    });
    expect(await listingState(listingId)).toBe("sold");
    expect(await attemptState(listingId), "a fresh exchange state per attempt").not.toBe(refusedState);
    expect(await confirm("seller")).toMatchObject({ status: 409, body: { error: "not_reserved" } });
  });

  it("the sale keeps the slot's balance and used_balances; the slot is the buyer's now, no longer the seller's", async () => {
    expect(await chainSlot()).toMatchObject({ balance: beforeSale.balance, used_balances: beforeSale.used_balances });
    expect((await players.seller.browser.call("GET", "/api/slots")).body).toEqual({ cuid: CUID, slots: [] });
    const buyers = await players.buyer.browser.call("GET", "/api/slots");
    expect(buyers.body).toMatchObject({
      cuid: CUID,
      slots: [{ meta_idx: 0, slot: beforeSale.slot, balance: beforeSale.balance, used_balances: beforeSale.used_balances, tr_cnt: 1, listing: null }],
    });
  });

  it("the buyer's next login to the game names the bought slot (content_address, tr_cnt 1)", async () => {
    const jwt = await signInPlayer(service.url, service.dataDir, {
      client_id: gameClientId,
      redirect_uri: loopback,
      email: players.buyer.email,
      password: PASSWORD,
    });
    const info = await game.slotgate.getSlotInfo(jwt);
    expect(info).toMatchObject({ id: players.buyer.id, content_address: beforeSale.slot, tr_cnt: 1 });
  });
});
