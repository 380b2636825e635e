/**
 * The marketplace's whole loop against the REAL reference server with its development chain (Anvil), on 127.0.0.1:
 * one server and one chain for the file, a game with its own client and backend (the backend SDK, which registered the
 * cuid and buys and spends content tokens for its players), and the marketplace with its own client.
 *
 * Sign-in through the marketplace's own callback (getSlotInfo); the service's real signed login-status webhooks; the real
 * `GET /v1/marketplace/listing_allowed`; in real Chromium, the seller's PIN set up in the Slotgate wallet window from the
 * marketplace's page (`SlotgateWallet.setUpPin`) and the hand-over confirmed there (`confirmSlotHandOver`, a
 * `slot_hand_over` confirmation the marketplace created with the game's client), refused logout_required while the
 * seller plays (the listing lock); the sale settled from the service's record of the confirmation, the new owner and
 * tr_cnt read back from the chain; the buyer's next login to the game names the bought slot. Afterwards neither the
 * marketplace's tables nor its pages hold a PIN hash, a key share or the backup words.
 *
 * Screenshots of the wallet-window steps go to test-results/screenshots, or to docs/images with
 * SLOTGATE_UPDATE_SCREENSHOTS=1 (the guide docs/guides/wallet-window.md shows them).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ContentTokenClient, type SpendKey } from "@slotgate/backend-sdk";
import { signWebhook } from "@slotgate/server";
import type { SlotView } from "@slotgate/protocol";
import { type ReferenceServer, chromiumLaunchOptions, freeLoopbackPort, signInPlayer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_PLAYING } from "../src/listing/hand-over.js";
import { PLAYING_MESSAGE } from "../src/listing/list-slot.js";
import { type BrowserSession, browserSession } from "./support/browser-session.js";
import { GAME_CALLBACK_PATH, type GameBackend, startGameBackend } from "./support/game-backend.js";
import { MARKETPLACE_SECRET, type RunningMarketplace, startMarketplace } from "./support/marketplace.js";
import { serviceSignIn } from "./support/service-sign-in.js";

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
/** The seller's real Chromium: the marketplace's session and the service's browser sessions of both clients. */
let chromiumBrowser: Browser;
let sellerContext: BrowserContext;
let sellerPage: Page;
const PIN = "424242";

const repo = join(import.meta.dirname, "../../..");
const shots = process.env["SLOTGATE_UPDATE_SCREENSHOTS"] === "1" ? join(repo, "docs/images") : join(import.meta.dirname, "../test-results/screenshots");
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

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
    .query<{ confirmation_id: string | null }>("SELECT confirmation_id FROM mk_sales WHERE listing_id = $1 ORDER BY id DESC LIMIT 1", [listingId])
    .then((r) => r[0]?.confirmation_id ?? null);
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

/** Signs a player up at the game through its loopback URI (the game client is a `game` client: the JWT comes in the redirect). */
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

/** Signs a player up at the marketplace (a web client) in popup mode, as its login popup does: the JWT is on the result page. */
async function signUpAtMarket(clientId: string, redirectUri: string, email: string): Promise<string> {
  const res = await signUpPlayer(service.url, service.dataDir, {
    client_id: clientId,
    redirect_uri: redirectUri,
    state: `s-${randomBytes(4).toString("hex")}`,
    email,
    password: PASSWORD,
    display: "popup",
  });
  expect(res.status).toBe(200);
  const result = JSON.parse(/id="slotgate-result">([^<]+)</.exec(await res.text())![1]!) as { messages: Array<{ type: string; data: string }> };
  expect(result.messages[0]?.type).toBe("success");
  return result.messages[0]!.data;
}

async function registerClient(
  devToken: string,
  name: string,
  redirectUris: string[],
  platform: "web" | "game",
): Promise<{ client_id: string; client_secret: string }> {
  const res = await post(
    "/v1/dev-user/clients",
    { name, redirect_uris: redirectUris, download_url: "https://game.example/download", web_url: "https://game.example/", platform, blockchain: true },
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
  const gameClient = await registerClient(String(dev.body["token"]), "The game", [`http://127.0.0.1:${gamePort}${GAME_CALLBACK_PATH}`, loopback], "game");
  gameClientId = gameClient.client_id;
  tokens = new ContentTokenClient({ authServerUrl: service.url, clientId: gameClient.client_id, clientSecret: gameClient.client_secret });
  const provider = await tokens.registerProvider({ cuid: CUID, release_per: 20, owner_addr: PROVIDER_OWNER });
  spendKey = { key: provider.aes_key!, iv: provider.aes_iv! };
  game = await startGameBackend({ port: gamePort, authServerUrl: service.url, clientId: gameClient.client_id, clientSecret: gameClient.client_secret });
  // The marketplace: its own client (a blockchain client without a cuid: signing in gives a player a wallet, no slot).
  const marketClient = await registerClient(
    String(dev.body["token"]),
    "Marketplace",
    [`${marketOrigin}/slotgate-callback.html`, `${marketOrigin}/api/slotgate/callback`],
    "web",
  );
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
  // The seller signs in to the marketplace in their own browser: the service's browser session of the marketplace's
  // client is what the wallet window reads (the marketplace asks the hand-over with its own client).
  const popupPage = `${marketOrigin}/slotgate-callback.html`;
  const sellerAtMarket = await serviceSignIn(service.url, service.dataDir, {
    client_id: marketClient.client_id,
    redirect_uri: popupPage,
    email: sellerEmail,
    password: PASSWORD,
  });
  const marketJwts = {
    seller: await signInPlayer(service.url, service.dataDir, {
      client_id: marketClient.client_id,
      redirect_uri: popupPage,
      display: "popup",
      email: sellerEmail,
      password: PASSWORD,
    }),
    buyer: await signUpAtMarket(marketClient.client_id, popupPage, buyerEmail),
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
  chromiumBrowser = await chromium.launch(chromiumLaunchOptions());
  sellerContext = await chromiumBrowser.newContext({ viewport: { width: 1100, height: 800 } });
  const marketCookie = players.seller.browser.cookie();
  const at = marketCookie.indexOf("=");
  await sellerContext.addCookies([
    { name: marketCookie.slice(0, at), value: marketCookie.slice(at + 1), url: market.origin },
    ...sellerAtMarket.map((c) => ({ ...c, url: service.url })),
  ]);
  sellerPage = await sellerContext.newPage();

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
  await chromiumBrowser?.close();
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

describe("selling a slot on the chain, confirmed in the Slotgate wallet window", () => {
  let listingId = "";
  let refusedConfirmation: string | null = null;
  let words = "";
  const start = (who: "seller" | "buyer") => players[who].browser.call("POST", `/api/listings/${listingId}/hand-over`);
  const finish = (who: "seller" | "buyer") => players[who].browser.call("POST", `/api/listings/${listingId}/hand-over/finish`);

  /** The marketplace's page in the seller's Chromium, loaded and ready. */
  async function marketPage(): Promise<Page> {
    await sellerPage.goto(market.origin);
    await sellerPage.waitForSelector("body[data-ready='true']");
    return sellerPage;
  }
  /** Clicks a button of the page that opens the wallet window; answers the window, loaded. */
  async function openWindow(page: Page, button: string): Promise<Page> {
    const popup = page.waitForEvent("popup");
    await page.click(button);
    const window = await popup;
    await window.waitForLoadState();
    return window;
  }
  /** The page's message once it changed (each action numbers its message). */
  async function nextMessage(page: Page, after: string | undefined): Promise<{ kind: string; text: string }> {
    await page.waitForFunction((seq) => document.querySelector("#message")?.getAttribute("data-seq") !== seq, after ?? null, { timeout: 60_000 });
    return page.$eval("#message", (m) => ({ kind: m.getAttribute("data-kind") ?? "", text: m.textContent ?? "" }));
  }
  /** Waits until the window shows `selector` or an error (answered, so a refusal fails the test with its text). */
  async function windowShows(window: Page, selector: string): Promise<string> {
    await window.waitForFunction((s) => document.querySelector(s) !== null || (document.querySelector("#error")?.textContent ?? "") !== "", selector, {
      timeout: 60_000,
    });
    return (await window.$("#error")) ? ((await window.textContent("#error")) ?? "") : "";
  }
  const messageSeq = (page: Page) => page.$eval("#message", (m) => m.getAttribute("data-seq") ?? undefined);

  it("the buyer commits: the listing is reserved for them (not for its own seller)", async () => {
    const { body } = await players.buyer.browser.call("GET", "/api/listings");
    listingId = (body["listings"] as Array<{ id: string; state: string }>).find((l) => l.state === "listed")!.id;
    expect(await players.seller.browser.call("POST", `/api/listings/${listingId}/buy`)).toMatchObject({ status: 409, body: { error: "own_listing" } });
    const bought = await players.buyer.browser.call("POST", `/api/listings/${listingId}/buy`);
    expect(bought).toMatchObject({ status: 200, body: { listing: { state: "reserved", buyer_user_id: players.buyer.id }, sale: { state: "reserved" } } });
  });

  it("the seller sets the PIN up in the Slotgate window from the marketplace's page; the words are shown there, once, and never reach the page", async () => {
    const page = await marketPage();
    await shot(page, "wallet-window-marketplace");
    const before = await messageSeq(page);
    const window = await openWindow(page, "#pin-register");
    expect(new URL(window.url()).origin).toBe(service.url);
    expect(new URL(window.url()).pathname).toBe("/wallet/pin-setup");
    await window.fill("#pin", PIN);
    await window.fill("#pin-again", PIN);
    await shot(window, "wallet-window-pin-setup");
    await window.click("#approve");
    expect(await windowShows(window, "#words-section:not(.hidden)")).toBe("");
    words = (await window.textContent("#words")) ?? "";
    expect(words.trim().split(/\s+/)).toHaveLength(12);
    await shot(window, "wallet-window-words");
    const closed = window.waitForEvent("close");
    await window.click("#words-done");
    await closed;
    const message = await nextMessage(page, before);
    expect(message.kind, message.text).toBe("ok");
    expect(message.text).toMatch(/^PIN set up in the Slotgate window/);
    expect(await page.content()).not.toContain(words.trim().split(/\s+/).slice(0, 3).join(" "));
  });

  it("the marketplace never settles from the page: a started hand-over the seller has not confirmed leaves the sale reserved", async () => {
    expect(await finish("seller")).toMatchObject({ status: 409, body: { error: "hand_over_not_started" } });
    expect(await start("buyer")).toMatchObject({ status: 403, body: { error: "not_your_listing" } });
    const started = await start("seller");
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toEqual({
      id: expect.stringMatching(/^[\w-]{22,64}$/),
      kind: "slot_hand_over",
      window_url: `${service.url}/wallet/confirm/${String(started.body["id"])}`,
    });
    expect(await attemptState(listingId)).toBe(started.body["id"]);
    expect(await finish("seller")).toMatchObject({ status: 200, body: { sale: { state: "reserved" }, slot: null } });
    expect(await listingState(listingId)).toBe("reserved");
  });

  it("a hand-over confirmed while the seller is logged in to the game again: the service refuses logout_required, the sale waits and nothing moved", async () => {
    await setGameStatus("seller", "login");
    const page = await marketPage();
    const before = await messageSeq(page);
    const window = await openWindow(page, `#confirm-${listingId}`);
    expect(await window.textContent("#wallet-what")).toBeTruthy();
    await window.fill("#pin", PIN);
    // The service refuses (the listing lock) and closes the confirmation failed: the window shows its result and closes.
    const closed = window.waitForEvent("close", { timeout: 60_000 });
    await window.click("#approve");
    await closed;
    const message = await nextMessage(page, before);
    expect(message).toEqual({ kind: "error", text: SELLER_PLAYING });
    expect(await listingState(listingId)).toBe("reserved");
    expect(await chainSlot()).toEqual(beforeSale);
    refusedConfirmation = await attemptState(listingId);
    expect(refusedConfirmation).toMatch(/^[\w-]{22,64}$/);
  });

  it("after logout the seller confirms in the window; the slot moves on chain and the marketplace shows the new owner and tr_cnt read from the chain", async () => {
    await setGameStatus("seller", "logout");
    const page = await marketPage();
    const before = await messageSeq(page);
    const window = await openWindow(page, `#confirm-${listingId}`);
    await window.fill("#pin", PIN);
    await shot(window, "wallet-window-hand-over");
    const closed = window.waitForEvent("close", { timeout: 60_000 });
    await window.click("#approve");
    await closed;
    const message = await nextMessage(page, before);
    expect(message, message.text).toEqual({ kind: "ok", text: `Sold: slot 0 of ${CUID} now belongs to user ${players.buyer.id}.` });
    await shot(page, "wallet-window-sold");
    const onChain = await chainSlot();
    expect(onChain).toMatchObject({ slot: beforeSale.slot, owner_user_id: players.buyer.id, tr_cnt: 1, state: "active", registered: true });
    expect(onChain.owner.toLowerCase()).not.toBe(beforeSale.owner.toLowerCase());
    const { body } = await players.seller.browser.call("GET", "/api/listings");
    const sold = (body["listings"] as Array<{ id: string; state: string; sale: Record<string, unknown> }>).find((l) => l.id === listingId)!;
    expect(sold).toMatchObject({
      state: "sold",
      sale: { state: "sold", new_owner: onChain.owner, tr_cnt: 1, tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    expect(await page.textContent("#sale-tr-cnt")).toBe("1");
    expect(await attemptState(listingId), "a fresh confirmation per attempt").not.toBe(refusedConfirmation);
    expect(await start("seller")).toMatchObject({ status: 409, body: { error: "not_reserved" } });
  });

  it("afterwards no marketplace table and no page holds a PIN hash, a key share or the backup words", async () => {
    const columns = await market.db.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_name LIKE 'mk\\_%' ORDER BY table_name, column_name",
    );
    expect(new Set(columns.map((c) => c.table_name))).toEqual(
      new Set(["mk_schema_migrations", "mk_webhook_events", "mk_seller_status", "mk_listings", "mk_sales"]),
    );
    for (const { column_name } of columns) expect(column_name).not.toMatch(/pin|key_share|mnemonic|words|seal/);
    const phrase = words.trim();
    for (const table of new Set(columns.map((c) => c.table_name))) {
      for (const row of await market.db.query<Record<string, unknown>>(`SELECT * FROM ${table}`)) {
        for (const value of Object.values(row)) {
          const text = value instanceof Date ? value.toISOString() : String(value);
          expect(text, `${table}: a value that looks like a key share`).not.toMatch(/^[0-9a-f]{64}$/);
          expect(text, `${table}: a 12-word phrase`).not.toMatch(/^[a-z]+( [a-z]+){11}$/);
          expect(text).not.toContain(phrase);
        }
      }
    }
    const pages = ["/", "/app.js", "/slotgate-callback.html", "/callback.js", "/api/session", "/api/slots", "/api/listings", "/api/config"];
    for (const path of pages) {
      const res = await fetch(market.origin + path, { headers: { cookie: players.seller.browser.cookie() } });
      expect(res.status, path).toBe(200);
      const text = await res.text();
      for (const secret of ["pin_hash", "pin_salt", "key_share", "mnemonic", phrase]) expect(text, `${path} names ${secret}`).not.toContain(secret);
    }
    const dom = await (await marketPage()).content();
    for (const secret of ["pin_hash", "pin_salt", "key_share", "mnemonic", phrase]) expect(dom).not.toContain(secret);
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
