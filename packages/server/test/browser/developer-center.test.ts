import { mkdirSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { encryptHex } from "@slotgate/protocol/crypto";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ar } from "../../src/platform/i18n/messages/ar.js";
import { en } from "../../src/platform/i18n/messages/en.js";
import { ja } from "../../src/platform/i18n/messages/ja.js";
import { ko } from "../../src/platform/i18n/messages/ko.js";
import { chromiumLaunchOptions } from "../../src/testing/chromium-options.js";
import { newUser, postBasic } from "../support/chain-flows.js";
import { authorizeCode, call, clientSecretAccepted, exchange, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { type Receiver, startReceiver } from "../support/receiver.js";

/**
 * The developer center in real headless Chromium, as a developer uses it: sign up, register an
 * application, edit its redirect URIs, rotate its secret, find a failed webhook and retry it. Saves a
 * screenshot per step (test-results/screenshots; docs/images with SLOTGATE_UPDATE_SCREENSHOTS=1), the
 * ones docs/guides/developer-center.md shows.
 */
const OVERLAP_SECONDS = 3;
const repo = join(import.meta.dirname, "../../../..");
const shots = process.env["SLOTGATE_UPDATE_SCREENSHOTS"] === "1" ? join(repo, "docs/images") : join(import.meta.dirname, "../../test-results/screenshots");
let server: TestServer;
let browser: Browser;
let marketplace: Receiver;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  marketplace = await startReceiver();
  server = await startTestServer({
    CLIENT_SECRET_OVERLAP_SECONDS: String(OVERLAP_SECONDS),
    MARKETPLACE_URL: `${marketplace.url}/hooks`,
    MARKETPLACE_SECRET: "marketplace-secret-0123456789abcdefghijklmnop",
    MARKETPLACE_RETRY_BASE_MS: "600000",
  });
  browser = await chromium.launch(chromiumLaunchOptions());
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await marketplace?.close();
});

async function shot(name: string, page: Page): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** The page's DOM as the functions run in it see it (this package compiles without the DOM library). */
type InPage = {
  document: {
    getElementById(id: string): { textContent: string | null } | null;
    activeElement: { id: string } | null;
    documentElement: { scrollWidth: number };
  };
  innerWidth: number;
  sessionStorage: { setItem(key: string, value: string): void };
};

/** Waits until element `id`'s text passes `test` (`starts`, `includes` or `equals` `text`). */
async function waitText(page: Page, id: string, how: "starts" | "includes" | "equals", text: string): Promise<void> {
  await page.waitForFunction(
    ([elementId, mode, expected]) => {
      const actual = (globalThis as unknown as InPage).document.getElementById(elementId!)?.textContent ?? "";
      return mode === "starts" ? actual.startsWith(expected!) : mode === "includes" ? actual.includes(expected!) : actual === expected;
    },
    [id, how, text],
  );
}

/** Waits until the #notice status line says `text` (and no error is shown). */
async function notice(page: Page, text: string): Promise<void> {
  await waitText(page, "notice", "equals", text);
  expect(await page.textContent("#error")).toBe("");
}

describe("developer center in Chromium", () => {
  it("register an app, edit its redirect URIs, rotate its secret, retry a failed webhook", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // Sign up and register.
    await page.goto(`${server.url}/developer`);
    await page.fill("#email", randomEmail("dev"));
    await page.fill("#password", "dev-password-123");
    await page.click('#auth-form button[value="signup"]');
    await page.waitForSelector("#client-form", { state: "visible" });
    await page.fill("#name", "Space Miners");
    await page.fill("#redirect_uris", "https://old.example/callback");
    await page.fill("#download_url", "https://spaceminers.example/download");
    await page.fill("#web_url", "https://spaceminers.example/");
    await page.click('#client-form button[type="submit"]');
    await page.waitForSelector("#secret", { state: "visible" });
    const clientId = (await page.textContent("#new-id"))!;
    const firstSecret = (await page.textContent("#new-secret"))!;
    expect(clientId).toMatch(/^sg_[0-9a-f]{24}$/);
    await page.waitForSelector(`tr[data-client-id="${clientId}"]`);
    await shot("developer-center-01-registered", page);
    const client = { client_id: clientId, redirect_uris: ["https://old.example/callback"] };
    expect(await clientSecretAccepted(server.url, client, firstSecret)).toBe(true);

    // Manage: the heading takes the focus (keyboard and screen-reader users land on it).
    await page.click(`button[aria-label="Manage Space Miners"]`);
    await page.waitForSelector("#manage", { state: "visible" });
    expect(await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.id)).toBe("manage-title");

    // Edit the redirect URIs: the old one is refused, the new one signs in.
    await page.fill("#e-redirect_uris", "https://new.example/callback");
    await page.click("#save");
    await notice(page, "Saved.");
    await shot("developer-center-02-edit", page);
    const login = await context.newPage();
    await login.goto(
      `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: "https://old.example/callback", response_type: "code", state: "s1" })}`,
    );
    expect(await login.getAttribute("#slotgate-error", "data-code")).toBe("redirect_uri_mismatch");
    await login.goto(
      `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: "https://new.example/callback", response_type: "code", state: "s2" })}`,
    );
    await login.waitForSelector("#email");
    await login.close();
    const moved = { client_id: clientId, redirect_uris: ["https://new.example/callback"], client_secret: firstSecret };
    const { code } = await authorizeCode(server.url, moved);
    const tokens = await exchange(server.url, moved, code);
    expect(tokens.status).toBe(200);

    // Rotate the secret: both work inside the window, only the new one after it.
    await page.click("#rotate");
    await notice(page, "Secret rotated.");
    const secondSecret = (await page.textContent("#rotated-secret"))!;
    expect(secondSecret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(await page.textContent("#m-overlap")).toMatch(/^The previous secret still works until /);
    await shot("developer-center-03-rotated", page);
    expect(await clientSecretAccepted(server.url, moved, firstSecret)).toBe(true);
    expect(await clientSecretAccepted(server.url, moved, secondSecret)).toBe(true);
    await page.waitForTimeout(OVERLAP_SECONDS * 1000 + 200);
    expect(await clientSecretAccepted(server.url, moved, firstSecret)).toBe(false);
    expect(await clientSecretAccepted(server.url, moved, secondSecret)).toBe(true);

    // A marketplace webhook fails (HTTP 500): the page shows it with its error and next retry; retry now delivers it.
    marketplace.failFirst = 1;
    const received = marketplace.received.length;
    const userId = String(tokens.json["user_id"]);
    const status = await call(server.url, "POST", "/v1/oauth/status/login", {
      token: String(tokens.json["access_token"]),
      body: { user_id: userId, client_id: clientId },
    });
    expect(status.status).toBe(200);
    const row = 'tr[data-status="pending"]';
    for (let i = 0; i < 50; i++) {
      await page.click("#deliveries-refresh");
      await page.waitForTimeout(100);
      if (((await page.textContent(`#deliveries ${row}`).catch(() => null)) ?? "").includes("HTTP 500")) break;
    }
    const failed = await page.textContent(`#deliveries ${row}`);
    expect(failed).toContain("marketplace_webhook");
    expect(failed).toContain("HTTP 500");
    expect(failed).toContain("1 of 15");
    await shot("developer-center-04-failed-webhook", page);
    await page.click(`#deliveries ${row} button`);
    await notice(page, `Delivery ${await page.getAttribute(`#deliveries ${row}`, "data-delivery-id")} is being retried.`);
    await marketplace.waitFor(received + 1);
    for (let i = 0; i < 50; i++) {
      await page.click("#deliveries-refresh");
      await page.waitForTimeout(100);
      if (await page.$('#deliveries tr[data-status="delivered"]')) break;
    }
    expect(await page.textContent('#deliveries tr[data-status="delivered"]')).toContain("2 of 15");

    // The audit list: who, when, what.
    const audit = await page.textContent("#audit");
    for (const action of ["client.registered", "client.updated", "secret.rotated"]) expect(audit).toContain(action);
    expect(audit).not.toContain(secondSecret);
    await shot("developer-center-05-delivered-and-audit", page);

    // Phone-sized: the page itself does not scroll sideways (wide tables scroll in their own box).
    await page.setViewportSize({ width: 390, height: 844 });
    expect(
      await page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth <= (globalThis as unknown as InPage).innerWidth),
    ).toBe(true);
    await shot("developer-center-06-phone", page);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("registers a public game client: no secret shown, listed as public, nothing to rotate", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/developer`);
    await page.fill("#email", randomEmail("dev"));
    await page.fill("#password", "dev-password-123");
    await page.click('#auth-form button[value="signup"]');
    await page.waitForSelector("#client-form", { state: "visible" });
    await page.fill("#name", "Cave Racer");
    await page.fill("#redirect_uris", "http://127.0.0.1/callback");
    await page.fill("#download_url", "https://caveracer.example/download");
    await page.fill("#web_url", "https://caveracer.example/");
    await page.selectOption("#platform", "game");
    await page.check("#public_client");
    await page.click('#client-form button[type="submit"]');
    await page.waitForSelector("#secret", { state: "visible" });
    expect(await page.textContent("#new-heading")).toBe("Public client registered: it has no secret");
    expect(await page.isVisible("#new-secret-line")).toBe(false);
    const clientId = (await page.textContent("#new-id"))!;
    await page.waitForSelector(`tr[data-client-id="${clientId}"]`);
    expect(await page.textContent(`tr[data-client-id="${clientId}"]`)).toContain("public (no secret)");
    await page.click(`button[aria-label="Manage Cave Racer"]`);
    await page.waitForSelector("#manage", { state: "visible" });
    expect(await page.isDisabled("#rotate")).toBe(true);
    expect(await page.textContent("#m-overlap")).toBe("A public client has no secret: its codes are proven with PKCE.");
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("keeps the authorize page's CSP: nonce scripts only, same-origin images (the logo preview), no framing, and the API answers only with a developer token", async () => {
    const res = await fetch(`${server.url}/developer`);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toMatch(
      /default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+'; form-action 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'/,
    );
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("set-cookie")).toBeNull();
    // What a cross-site form can send (a simple content type, no Authorization header) is refused.
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const forged = await fetch(`${server.url}/v1/dev-user/clients/sg_000000000000000000000000/disable`, {
        method: "POST",
        headers: { "content-type": type },
        body: "{}",
      });
      expect(forged.status).toBe(415);
    }
    const bare = await fetch(`${server.url}/v1/dev-user/clients/sg_000000000000000000000000/disable`, { method: "POST" });
    expect(bare.status).toBe(401);
  });
});

describe("developer center in Chromium: languages", () => {
  /** A page of a new context whose browser asks for `locale` (Accept-Language and navigator.language). */
  async function pageIn(locale: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ locale, viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    return { page, errors, close: () => context.close() };
  }
  const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

  it("ui_locales=ja: the page, the script's table, buttons and status lines, and a known API error are Japanese; an unknown one keeps the server's message", async () => {
    const { page, errors, close } = await pageIn("en-US");
    await page.goto(`${server.url}/developer?ui_locales=ja`);
    expect([await page.getAttribute("html", "lang"), await page.getAttribute("html", "dir")]).toEqual(["ja", "ltr"]);
    expect(await page.title()).toBe(`${ja["dev.title"]} — Slotgate`);
    expect(await text(page, "h1")).toBe("Slotgate 開発者センター");
    expect(await text(page, 'label[for="password"]')).toBe(ja["signIn.password"]);
    expect(await text(page, '#auth-form button[value="signup"]')).toBe(ja["dev.createAccount"]);

    // A known error code: the script shows the code and the Japanese text, not the API's English message.
    await page.fill("#email", randomEmail("nobody"));
    await page.fill("#password", "dev-password-123");
    await page.click('#auth-form button[value="login"]');
    await waitText(page, "error", "equals", `invalid_credentials: ${ja["error.invalid_credentials"]}`);

    await page.fill("#email", randomEmail("dev-ja"));
    await page.click('#auth-form button[value="signup"]');
    await page.waitForSelector("#client-form", { state: "visible" });
    expect(await text(page, "#center th")).toBe(ja["dev.name"]);

    // A code the page does not translate (its message names the field): the server's own message.
    await page.fill("#name", "Sakura Quest");
    await page.fill("#redirect_uris", "not-a-uri");
    await page.fill("#download_url", "https://sakura.example/download");
    await page.fill("#web_url", "https://sakura.example/");
    await page.click('#client-form button[type="submit"]');
    await waitText(page, "error", "starts", "invalid_request: ");
    const refused = (await page.textContent("#error"))!;
    expect(refused).toMatch(/redirect_uris/);
    expect(refused).not.toMatch(/[\u3040-\u30ff]/);

    // What the script writes after a registration: the heading, the table's cells, the Manage button and its label.
    await page.fill("#redirect_uris", "https://sakura.example/callback");
    await page.click('#client-form button[type="submit"]');
    await page.waitForSelector("#secret", { state: "visible" });
    expect(await text(page, "#new-heading")).toBe(ja["devScript.secretOnce"]);
    const row = page.locator("#clients tr", { hasText: "Sakura Quest" });
    await row.waitFor();
    expect(await row.locator("td").allInnerTexts()).toEqual([
      "Sakura Quest",
      expect.stringMatching(/^sg_/),
      "https://sakura.example/callback",
      "web",
      ja["devScript.no"],
      "authorization_code",
      ja["devScript.confidential"],
      ja["devScript.active"],
      ja["devScript.manage"],
    ]);
    await page.click('button[aria-label="Sakura Quest を管理"]');
    await page.waitForSelector("#manage", { state: "visible" });
    expect(await text(page, "#manage-title")).toBe("Sakura Quest の管理");
    expect(await text(page, "#m-overlap")).toBe(ja["devScript.onlyCurrentSecret"]);
    expect(await text(page, "#toggle-disabled")).toBe(ja["devScript.disable"]);
    await page.click("#save");
    await notice(page, ja["devScript.saved"]);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  it("without ui_locales the browser's Accept-Language decides (Korean); an unshipped language gets English", async () => {
    for (const [locale, lang, heading] of [
      ["ko-KR", "ko", ko["dev.title"]],
      ["de-DE", "en", en["dev.title"]],
    ] as const) {
      const { page, close } = await pageIn(locale);
      await page.goto(`${server.url}/developer`);
      expect(await page.getAttribute("html", "lang")).toBe(lang);
      expect(await page.title()).toBe(`${heading} — Slotgate`);
      await close();
    }
  });

  it("ui_locales=ar lays the page out right to left: the heading starts at the right, the first button sits rightmost, the table's first column is at the right", async () => {
    const client = await registerClient(server.url, { name: "Desert Run" });
    const { page, errors, close } = await pageIn("en-US");
    await page.goto(`${server.url}/developer?ui_locales=ar`);
    expect([await page.getAttribute("html", "lang"), await page.getAttribute("html", "dir")]).toEqual(["ar", "rtl"]);
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe("rtl");
    const heading = await page.evaluate(() => {
      const h1 = document.querySelector("h1")!;
      const range = document.createRange();
      range.selectNodeContents(h1);
      const [block, line] = [h1.getBoundingClientRect(), range.getBoundingClientRect()];
      return { right: Math.abs(line.right - block.right) < 2, left: Math.abs(line.left - block.left) < 2 };
    });
    expect(heading).toEqual({ right: true, left: false });
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    expect((await box('#auth-form button[value="login"]')).x).toBeGreaterThan((await box('#auth-form button[value="signup"]')).x);

    // Signed in: the script's rows are Arabic and the table reads from the right.
    await page.evaluate((token) => sessionStorage.setItem("slotgate_dev_token", token), client.devToken);
    await page.reload();
    const row = page.locator("#clients tr", { hasText: "Desert Run" });
    await row.waitFor();
    expect(await row.innerText()).toContain(ar["devScript.confidential"]);
    expect(await text(page, '#clients button[aria-label="إدارة Desert Run"]')).toBe(ar["devScript.manage"]);
    const [first, last] = [await box("#center > .scroll thead th:first-child"), await box("#center > .scroll thead th:last-child")];
    expect(first.x).toBeGreaterThan(last.x);
    expect(errors).toEqual([]);
    await close();
  });
});

describe("developer center in Chromium: the provider side", () => {
  const KEY_OVERLAP_SECONDS = 4;
  let chainServer: TestServer;
  beforeAll(async () => {
    chainServer = await startTestServer({ CHAIN: "anvil", PROVIDER_KEY_OVERLAP_SECONDS: String(KEY_OVERLAP_SECONDS) });
  });
  afterAll(async () => chainServer?.close());

  it("register a cuid, switch replay protection, rotate the AES key and download it: a spend under the old key works in the window, fails after", async () => {
    const client = await registerClient(chainServer.url, { blockchain: true, name: "Dungeon Coins" });
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${chainServer.url}/developer`);
    await page.evaluate((token) => (globalThis as unknown as InPage).sessionStorage.setItem("slotgate_dev_token", token), client.devToken);
    await page.reload();
    await page.click(`button[aria-label="Manage Dungeon Coins"]`);
    await page.waitForSelector("#provider", { state: "visible" });
    await waitText(page, "p-state", "starts", "No cuid registered yet");

    const cuid = `web-${randomBytes(4).toString("hex")}`;
    await page.fill("#p-cuid", cuid);
    await page.fill("#p-release_per", "30");
    await page.fill("#p-owner_addr", "0x00000000000000000000000000000000c0ffee07");
    await page.click('#cuid-form button[type="submit"]');
    await notice(page, "cuid registered.");
    const oldKey = (await page.textContent("#p-aes-key"))!;
    const oldIv = (await page.textContent("#p-aes-iv"))!;
    expect(oldKey).toMatch(/^[0-9a-f]{64}$/);
    await page.waitForSelector(`#cuids tr[data-cuid="${cuid}"]`);
    expect(await page.textContent(`#cuids tr[data-cuid="${cuid}"]`)).toContain("30");

    await page.click("#p-replay");
    await notice(page, "Spend replay protection on.");
    await waitText(page, "p-replay", "equals", "Turn spend replay protection off");
    await page.click("#p-replay");
    await notice(page, "Spend replay protection off.");

    const user = await newUser(chainServer, client);
    expect((await postBasic(chainServer, client, "/v1/dev/fund_slot", { client_id: client.client_id, user_id: user.userId, xotn: "1000", cuid })).status).toBe(
      200,
    );
    expect(
      (
        await postBasic(chainServer, client, "/v1/development-api/user_buy_content_token", {
          client_id: client.client_id,
          user_dbkey: user.userId,
          amount: "100",
          cuid,
        })
      ).status,
    ).toBe(200);
    const spend = (k: string, i: string) =>
      postBasic(chainServer, client, "/v1/development-api/increase_used_content_token", {
        encrypted_message: encryptHex(JSON.stringify({ client_id: client.client_id, user_dbkey: user.userId, amount: "1", cuid }), k, i),
      });

    await page.click("#p-rotate");
    await notice(page, "AES key rotated.");
    const newKey = (await page.textContent("#p-aes-key"))!;
    const newIv = (await page.textContent("#p-aes-iv"))!;
    expect(newKey).not.toBe(oldKey);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#p-download")]);
    expect(JSON.parse(readFileSync((await download.path())!, "utf8"))).toEqual({ client_id: client.client_id, aes_key: newKey, aes_iv: newIv });
    await waitText(page, "p-state", "includes", "The previous key still decrypts until");
    await shot("developer-center-07-provider", page);

    expect((await spend(oldKey, oldIv)).status).toBe(200);
    expect((await spend(newKey, newIv)).status).toBe(200);
    await page.waitForTimeout(KEY_OVERLAP_SECONDS * 1000 + 200);
    const late = await spend(oldKey, oldIv);
    expect([late.status, late.json["error"]]).toEqual([400, "invalid_encrypted_message"]);
    expect((await spend(newKey, newIv)).status).toBe(200);

    // Reloaded, the page never shows the key again.
    await page.reload();
    await page.click(`button[aria-label="Manage Dungeon Coins"]`);
    await page.waitForSelector(`#cuids tr[data-cuid="${cuid}"]`);
    expect(await page.content()).not.toContain(newKey);
    await context.close();
  }, 90_000);
});
