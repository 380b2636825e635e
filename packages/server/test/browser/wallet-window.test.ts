import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encryptHex } from "@slotgate/protocol/crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainUser, basic, chainOf, newUser, postBasic, type TestClient, xotnBalance } from "../support/chain-flows.js";
import { seriousViolations } from "../support/axe.js";
import { enterMailedCode, launchChromium } from "../support/chromium.js";
import { call, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The wallet window in real headless Chromium: a game's page on its own origin signs the player in through
 * the login popup, opens the wallet window for PIN set-up (words shown once, the key share sealed in the
 * service origin's IndexedDB), then for confirmations its backend created: consent to purchases, a slot
 * hand-over, a denied transfer; and a page of another origin that opens the game's window gets nothing.
 */
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let game: TestClient;
let gameOrigin: string;
let evilOrigin: string;
let playerId: string;
let playerEmail: string;
let recoveredWords: string;
let aesKey: string;
let aesIv: string;
const apps: Server[] = [];
const PIN = "482916";
const cuid = `wwb-${Date.now()}`;

const OPENER_PAGE = `<!doctype html><html><body><button id="open">Open</button><script>
window.__messages = [];
window.addEventListener("message", (e) => window.__messages.push({ origin: e.origin, data: e.data }));
document.getElementById("open").addEventListener("click", () => window.open(window.__url, "slotgate", "width=600,height=700"));
</script></body></html>`;

async function startApp(): Promise<string> {
  const app = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(OPENER_PAGE);
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  apps.push(app);
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
}

type Message = { origin: string; data: { from: string; type: string; state: string; data: Record<string, unknown> } };

/** Opens `url` from the opener page `on` as a popup (a click, as a person would). */
async function openWindow(on: Page, url: string): Promise<Page> {
  await on.evaluate((u) => {
    (globalThis as unknown as { __url: string }).__url = u;
  }, url);
  const [popup] = await Promise.all([on.waitForEvent("popup"), on.click("#open")]);
  await popup.waitForLoadState();
  return popup;
}

const messagesOf = async (on: Page) => (await on.evaluate(() => (globalThis as unknown as { __messages: unknown[] }).__messages)) as Message[];
const walletMessages = async (on: Page) => (await messagesOf(on)).filter((m) => m.data?.type === "wallet_result");

/** The game's backend asks the player to confirm `request`; answers the window URL with the opener's state. */
async function ask(request: Record<string, unknown>, state: string): Promise<{ id: string; url: string }> {
  const created = await postBasic(server, game, "/v1/wallet/confirmations", { user_uuid: Number(playerId), redirect_uri: `${gameOrigin}/done`, request });
  expect(created.status, created.text).toBe(201);
  return { id: String(created.json["id"]), url: `${String(created.json["window_url"])}?state=${state}` };
}

const readBack = async (id: string) => (await call(server.url, "GET", `/v1/wallet/confirmations/${id}`, { headers: basic(game) })).json;

/** Types the PIN and approves in a confirmation window; answers the opener's wallet_result once the window closed. */
async function approveIn(popup: Page, on: Page, pin = PIN): Promise<Message> {
  await popup.fill("#pin", pin);
  const closed = popup.waitForEvent("close");
  await popup.click("#approve");
  await closed;
  await on.waitForTimeout(100);
  const messages = await walletMessages(on);
  return messages[messages.length - 1]!;
}

beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil" });
  browser = await launchChromium();
  gameOrigin = await startApp();
  evilOrigin = await startApp();
  game = await registerClient(server.url, { blockchain: true, redirect_uris: [`${gameOrigin}/done`], name: "Star Quest" });
  const init = await postBasic(server, game, "/v1/development-api/init_permission_provider", {
    client_id: game.client_id,
    cuid,
    release_per: 20,
    owner_addr: "0x00000000000000000000000000000000c0ffee04",
  });
  expect(init.status).toBe(200);
  aesKey = String(init.json["aes_key"]);
  aesIv = String(init.json["aes_iv"]);
  context = await browser.newContext();
  page = await context.newPage();
  await page.goto(`${gameOrigin}/app`);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  for (const a of apps) a.close();
  await server?.close();
});

describe("the wallet window in Chromium", () => {
  it("a new player signs in through the login popup, sets a PIN in the window and sees the words once", async () => {
    const login = `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: game.client_id, redirect_uri: `${gameOrigin}/done`, response_type: "code", state: "login-1", display: "popup" })}`;
    const popup = await openWindow(page, login);
    const email = randomEmail();
    playerEmail = email;
    await popup.fill("#email", email);
    await popup.fill("#password", "user-password-1");
    await popup.check('input[name="intent"]');
    const closed = popup.waitForEvent("close");
    await popup.click('#email-form button[value="approve"]');
    await enterMailedCode(popup, server.mail, email);
    await closed;
    await page.waitForTimeout(100);
    const jwt = (await messagesOf(page)).find((m) => m.data.type === "success")!.data.data as unknown as string;
    playerId = String(JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString())["sub"]);

    const setupUrl = `${server.url}/wallet/pin-setup?${new URLSearchParams({ client_id: game.client_id, redirect_uri: `${gameOrigin}/done`, state: "setup-1" })}`;
    const setup = await openWindow(page, setupUrl);
    expect(await setup.textContent("#slotgate-brand-name")).toBe("Star Quest");
    expect(await setup.textContent("#slotgate-origin")).toBe(gameOrigin);
    await setup.fill("#pin", PIN);
    await setup.fill("#pin-again", PIN);
    await setup.click("#approve");
    await setup.waitForSelector("#words-section:not(.hidden)");
    const words = (await setup.textContent("#words"))!.trim().split(" ");
    expect(words).toHaveLength(12);
    await setup.reload();
    expect(await setup.textContent("#words")).toBe("");
    expect(await setup.isVisible("#words-section")).toBe(false);
    expect(await setup.content()).not.toContain(words.join(" "));
    // Set up once: a second set-up in the same window is refused, and still shows no words.
    await setup.fill("#pin", PIN);
    await setup.fill("#pin-again", PIN);
    await setup.click("#approve");
    await setup.waitForFunction(() => (document.getElementById("error")?.textContent ?? "") !== "");
    expect(await setup.textContent("#error")).toContain("already has a PIN");
    await setup.close();
    expect(await walletMessages(page), "a closed window sends nothing").toEqual([]);
  }, 120_000);

  it("a game gets consent in the window, buys and spends within it", async () => {
    await chainOf(server).fundWallet({ user_uuid: Number(playerId), xotn: "10000" });
    const { id, url } = await ask({ kind: "approve_purchases", cuid, amount: "4000" }, "consent-1");
    const popup = await openWindow(page, url);
    expect(await popup.textContent("#wallet-what")).toContain("paying up to 4000 XOTN");
    const message = await approveIn(popup, page);
    expect(message.origin).toBe(server.url);
    expect(message.data).toMatchObject({
      from: "slotgate",
      type: "wallet_result",
      state: "consent-1",
      data: { action: "approve_purchases", status: "approved", confirmation_id: id },
    });
    expect(JSON.stringify(message)).not.toMatch(/key_share|words|pin_hash/);
    expect(await readBack(id)).toMatchObject({ status: "approved", tx_hash: message.data.data["tx_hash"] });
    const buy = await postBasic(server, game, "/v1/development-api/user_buy_content_token", {
      client_id: game.client_id,
      user_dbkey: playerId,
      amount: "3000",
      cuid,
    });
    expect(buy.status, buy.text).toBe(200);
    const spend = await postBasic(server, game, "/v1/development-api/increase_used_content_token", {
      encrypted_message: encryptHex(JSON.stringify({ client_id: game.client_id, user_dbkey: playerId, amount: "500", cuid }), aesKey, aesIv),
    });
    expect(spend.status, spend.text).toBe(200);
    const beyond = await postBasic(server, game, "/v1/development-api/user_buy_content_token", {
      client_id: game.client_id,
      user_dbkey: playerId,
      amount: "3000",
      cuid,
    });
    expect([beyond.status, beyond.json["error"]]).toEqual([409, "insufficient_allowance"]);
  }, 120_000);

  it("a seller confirms a hand-over in the window and the buyer owns the slot", async () => {
    const buyer: ChainUser = await newUser(server, game);
    const slot = await postBasic(server, game, "/v1/dev/register_slot", { client_id: game.client_id, cuid, meta_idx: 7, user_id: playerId });
    expect(slot.status, slot.text).toBe(200);
    const { id, url } = await ask({ kind: "slot_hand_over", cu_id: cuid, to_uuid: buyer.userId, meta_idx: 7 }, "sale-1");
    // The buyer by nickname beside the id; a nickname with markup is shown as the text it is.
    const nickname = '<b id="injected">Bo</b> & <script>alert(1)</script>';
    await server.sql("UPDATE end_users SET nickname = $1 WHERE id = $2", [nickname, buyer.userId]);
    const popup = await openWindow(page, url);
    expect(await popup.textContent("#wallet-what")).toContain(`Hand your slot 7 of ${cuid} over to player ${nickname} (ID ${buyer.userId}).`);
    expect(await popup.locator("#wallet-what *").count(), "no element came from the nickname").toBe(0);
    const message = await approveIn(popup, page);
    expect(message.data.data).toMatchObject({ action: "slot_hand_over", status: "approved", confirmation_id: id });
    expect(await chainOf(server).slotOwner(cuid, 7)).toBe(await chainOf(server).walletAddressFor(buyer.uuid));
  }, 120_000);

  it("a page on another origin cannot get a result for the game's confirmation, nor open a window for the game", async () => {
    const evil = await context.newPage();
    await evil.goto(`${evilOrigin}/app`);
    const { id, url } = await ask({ kind: "approve_purchases", cuid, amount: "1" }, "stolen-1");
    const popup = await openWindow(evil, url);
    const message = await approveIn(popup, evil).catch(() => undefined);
    expect(message, "the result is posted to the game's origin only").toBeUndefined();
    expect(await messagesOf(evil)).toEqual([]);
    expect((await readBack(id))["status"]).toBe("approved");
    const forged = await openWindow(
      evil,
      `${server.url}/wallet/pin-setup?${new URLSearchParams({ client_id: game.client_id, redirect_uri: `${evilOrigin}/done`, state: "forged" })}`,
    );
    expect(await forged.content()).toContain("redirect_uri");
    expect(await forged.$("#pin")).toBeNull();
    await forged.close();
    expect(await messagesOf(evil)).toEqual([]);
    await evil.close();
  }, 120_000);

  it("a denied confirmation moves nothing", async () => {
    const wallet = (await chainOf(server).walletAddressFor(Number(playerId)))!;
    await chainOf(server).fundWallet({ user_uuid: Number(playerId), xotn: "500", wallet: "user" });
    const to = "0x00000000000000000000000000000000000d3a2e";
    const before = [await xotnBalance(server, wallet), await xotnBalance(server, to)];
    const { id, url } = await ask({ kind: "token_transfer", to_address: to, amount: "200" }, "deny-1");
    const popup = await openWindow(page, url);
    const closed = popup.waitForEvent("close");
    await popup.click("#deny");
    await closed;
    await page.waitForTimeout(100);
    const messages = await walletMessages(page);
    expect(messages[messages.length - 1]!.data).toMatchObject({ state: "deny-1", data: { action: "token_transfer", status: "denied", confirmation_id: id } });
    expect(await readBack(id)).toMatchObject({ status: "denied", tx_hash: null, write_id: null });
    expect([await xotnBalance(server, wallet), await xotnBalance(server, to)]).toEqual(before);
  }, 120_000);

  it("without an opener (COOP severed it), the window hands the outcome to the registered redirect URI's fragment", async () => {
    const { id, url } = await ask({ kind: "approve_purchases", cuid, amount: "2" }, "coop-1");
    const direct = await context.newPage();
    await direct.goto(url);
    await direct.fill("#pin", PIN);
    await direct.click("#approve");
    await direct.waitForURL((u) => u.origin === gameOrigin, { timeout: 15_000 });
    const landed = new URL(direct.url());
    expect(landed.pathname).toBe("/done");
    const fragment = new URLSearchParams(landed.hash.slice(1));
    expect([fragment.get("from"), fragment.get("type"), fragment.get("state")]).toEqual(["slotgate", "wallet_result", "coop-1"]);
    expect(JSON.parse(fragment.get("data")!)).toMatchObject({ action: "approve_purchases", status: "approved", confirmation_id: id });
    await direct.close();
  }, 120_000);

  it("approvals: the player revokes the game's consent in the window; the game can no longer buy", async () => {
    const url = `${server.url}/wallet/approvals?${new URLSearchParams({ client_id: game.client_id, redirect_uri: `${gameOrigin}/done`, state: "approvals-1" })}`;
    const popup = await openWindow(page, url);
    const row = `tr[data-cuid="${cuid}"]`;
    expect(await popup.textContent(`${row} .amount`)).not.toBe("0");
    await popup.fill("#pin", PIN);
    await Promise.all([popup.waitForEvent("load"), popup.click(`${row} button.revoke`)]);
    expect(await popup.textContent(`${row} .amount`)).toBe("0");
    expect(await chainOf(server).purchaseConsent(Number(playerId), cuid)).toBe("0");
    const closed = popup.waitForEvent("close");
    await popup.click("#approvals-done");
    await closed;
    await page.waitForTimeout(100);
    const messages = await walletMessages(page);
    expect(messages[messages.length - 1]!.data).toMatchObject({ state: "approvals-1", data: { action: "approvals", status: "approved" } });
    const buy = await postBasic(server, game, "/v1/development-api/user_buy_content_token", {
      client_id: game.client_id,
      user_dbkey: playerId,
      amount: "1",
      cuid,
    });
    expect([buy.status, buy.json["error"]]).toEqual([409, "insufficient_allowance"]);
  }, 120_000);

  it("every window page has no serious or critical axe-core violation", async () => {
    // axe-core is evaluated in the page: a context with the player's cookies that bypasses the pages' CSP.
    const axeContext = await browser.newContext({ bypassCSP: true, storageState: await context.storageState() });
    try {
      const { url } = await ask({ kind: "token_transfer", to_address: "0x00000000000000000000000000000000000d3a3e", amount: "1" }, "axe-1");
      const query = new URLSearchParams({ client_id: game.client_id, redirect_uri: `${gameOrigin}/done`, state: "axe" });
      const urls = [url, ...["pin-setup", "pin-reset", "recover", "approvals"].map((action) => `${server.url}/wallet/${action}?${query}`)];
      const found: string[] = [];
      for (const target of urls) {
        const axePage = await axeContext.newPage();
        await axePage.goto(target);
        expect(await axePage.$("#pin"), `${target} shows its form`).not.toBeNull();
        found.push(...(await seriousViolations(axePage)).map((v) => `${target}: ${v}`));
        await axePage.close();
      }
      expect(found).toEqual([]);
    } finally {
      await axeContext.close();
    }
  }, 120_000);

  it("recovery with the mailed code: new words shown once, and the window signs with the new PIN", async () => {
    const newPin = "135799";
    const url = `${server.url}/wallet/recover?${new URLSearchParams({ client_id: game.client_id, redirect_uri: `${gameOrigin}/done`, state: "recover-1" })}`;
    const popup = await openWindow(page, url);
    await popup.fill("#pin", newPin);
    await popup.fill("#pin-again", newPin);
    await popup.click("#approve");
    await popup.waitForSelector("#code-section:not(.hidden)");
    await popup.fill("#code", await server.mail.nextCode(playerEmail));
    await popup.click("#code-submit");
    await popup.waitForSelector("#words-section:not(.hidden)");
    recoveredWords = (await popup.textContent("#words"))!.trim();
    expect(recoveredWords.split(" ")).toHaveLength(12);
    const closed = popup.waitForEvent("close");
    await popup.click("#words-done");
    await closed;
    await page.waitForTimeout(100);
    const messages = await walletMessages(page);
    const wallet = await chainOf(server).walletAddressFor(Number(playerId));
    expect(messages[messages.length - 1]!.data).toMatchObject({ state: "recover-1", data: { action: "recover", status: "approved", address: wallet } });
    const { id, url: confirmUrl } = await ask({ kind: "approve_purchases", cuid, amount: "3" }, "after-recover");
    const confirm = await openWindow(page, confirmUrl);
    const message = await approveIn(confirm, page, newPin);
    expect(message.data.data).toMatchObject({ status: "approved", confirmation_id: id });
  }, 120_000);

  it("reset with the words: the window finishes without showing words, then signs with the new PIN", async () => {
    const resetPin = "246800";
    const url = `${server.url}/wallet/pin-reset?${new URLSearchParams({ client_id: game.client_id, redirect_uri: `${gameOrigin}/done`, state: "reset-1" })}`;
    const popup = await openWindow(page, url);
    await popup.fill("#mnemonic", recoveredWords);
    await popup.fill("#pin", resetPin);
    await popup.fill("#pin-again", resetPin);
    const closed = popup.waitForEvent("close");
    await popup.click("#approve");
    await closed;
    await page.waitForTimeout(100);
    const messages = await walletMessages(page);
    expect(messages[messages.length - 1]!.data).toMatchObject({ state: "reset-1", data: { action: "pin-reset", status: "approved" } });
    const { id, url: confirmUrl } = await ask({ kind: "approve_purchases", cuid, amount: "4" }, "after-reset");
    const message = await approveIn(await openWindow(page, confirmUrl), page, resetPin);
    expect(message.data.data).toMatchObject({ status: "approved", confirmation_id: id });
  }, 120_000);
});
