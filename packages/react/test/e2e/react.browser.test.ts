// @vitest-environment node
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromiumLaunchOptions, type ReferenceServer, registerWebClient, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { build } from "esbuild";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

/**
 * @slotgate/react in headless Chromium against the real reference server: test/e2e/app.tsx (SlotgateProvider +
 * useSlotgate, and useSlotgateWallet from @slotgate/react/wallet) bundled with esbuild and served on its own origin.
 * Popup login and logout, two tabs kept in sync, a page that blocks popups logging in by redirect, and the wallet
 * window through the hook: the player sets up a PIN, then approves a confirmation the game's backend created
 * (the server runs its development chain, Anvil, for that).
 */
let service: ReferenceServer;
let app: Server;
let appOrigin: string;
let browser: Browser;
let context: BrowserContext;
let game: { clientId: string; clientSecret: string; redirectUri: string };
const player = { email: `react-${randomBytes(6).toString("hex")}@example.test`, password: randomBytes(12).toString("base64url") };

beforeAll(async () => {
  const bundle = build({
    entryPoints: [join(import.meta.dirname, "app.tsx")],
    bundle: true,
    format: "esm",
    platform: "browser",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "error",
  });
  let html = "";
  app = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://app").pathname;
    if (path === "/app.js") return void bundle.then((b) => res.writeHead(200, { "content-type": "text/javascript" }).end(b.outputFiles[0]?.contents));
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html);
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  [service, browser] = await Promise.all([startReferenceServer({ timeoutMs: 100_000 }), chromium.launch(chromiumLaunchOptions())]);
  const redirectUri = `${appOrigin}/auth/callback`;
  const { clientId, clientSecret } = await registerWebClient(service.url, { name: "react e2e", redirectUris: [redirectUri], blockchain: true });
  game = { clientId, clientSecret, redirectUri };
  const config = { slotgateUrl: service.url, clientId, redirectUri };
  html = `<!doctype html><title>react app</title><div id="root"></div><script>window.__config = ${JSON.stringify(config)};</script><script type="module" src="/app.js"></script>`;
  const signUp = await signUpPlayer(service.url, service.dataDir, { client_id: config.clientId, redirect_uri: redirectUri, state: "sign-up", ...player });
  expect(signUp.status).toBe(302);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => app?.close(resolve));
  await service?.close();
});
beforeEach(async (ctx) => {
  context = await browser.newContext();
  ctx.onTestFinished(() => context.close());
});

async function open(path = "/"): Promise<Page> {
  const page = await context.newPage();
  await page.goto(appOrigin + path);
  await expect.poll(() => page.textContent("#status")).toBe("logged_out");
  return page;
}
async function signIn(form: Page): Promise<void> {
  await form.waitForSelector('input[name="email"]');
  await form.fill('input[name="email"]', player.email);
  await form.fill('input[name="password"]', player.password);
  await form.click('button[name="decision"][value="approve"]');
}
const PIN = "482916";
const basicAuth = () => `Basic ${Buffer.from(`${game.clientId}:${game.clientSecret}`).toString("base64")}`;
/** The game's backend: POST JSON with its client credentials. */
const backend = (path: string, body: object) =>
  fetch(service.url + path, { method: "POST", headers: { "content-type": "application/json", authorization: basicAuth() }, body: JSON.stringify(body) });
const validate = async (jwt: string | null) => (await fetch(`${service.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } })).status;

describe("@slotgate/react in Chromium against the reference server", () => {
  it("popup login shows logged_in with the user, in this tab and another; logout shows logged_out in both", async () => {
    const [page, other] = [await open(), await open()];
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
    await signIn(popup);
    await expect.poll(() => page.textContent("#status")).toBe("logged_in");
    const jwt = await page.evaluate(() => localStorage.getItem("slotgate_access_token"));
    expect(await validate(jwt)).toBe(200);
    const sub = JSON.parse(Buffer.from(String(jwt).split(".")[1] ?? "", "base64url").toString()).sub as string;
    expect(await page.textContent("#user")).toBe(sub);
    await expect.poll(() => other.textContent("#status")).toBe("logged_in");
    await other.click("#logout");
    await expect.poll(() => other.textContent("#status")).toBe("logged_out");
    await expect.poll(() => page.textContent("#status")).toBe("logged_out");
    // The status flips when storage is cleared; the revoke follows a moment later.
    await expect.poll(() => validate(jwt)).toBe(401);
  });

  it("a page that blocks popups: login() continues by redirect, and the provider completes it on the redirect URI", async () => {
    const page = await open("/?nopopups");
    await page.click("#login");
    await page.waitForURL(`${service.url}/oauth/authorize?**`);
    await signIn(page);
    await page.waitForURL(`${appOrigin}/?nopopups`);
    await expect.poll(() => page.textContent("#status")).toBe("logged_in");
    expect(await page.textContent("#error")).toBe("");
    expect(await page.evaluate(() => sessionStorage.getItem("redirect_error"))).toBeNull();
    expect(await validate(await page.evaluate(() => localStorage.getItem("slotgate_access_token")))).toBe(200);
    expect(context.pages()).toHaveLength(1);
  });

  it("useSlotgateWallet(): the player sets up a PIN, then approves purchases the game's backend asked for", async () => {
    const page = await open();
    const [login] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
    await signIn(login);
    await expect.poll(() => page.textContent("#status")).toBe("logged_in");
    const userId = await page.textContent("#user");

    const [setup] = await Promise.all([context.waitForEvent("page"), page.click("#set-up-pin")]);
    await expect.poll(() => page.textContent("#wallet-busy")).toBe("true");
    await setup.fill("#pin", PIN);
    await setup.fill("#pin-again", PIN);
    await setup.click("#approve");
    await setup.click("#words-done");
    await expect.poll(() => page.textContent("#wallet-outcome"), { timeout: 30_000 }).not.toBe("");
    const pinSetUp = JSON.parse(String(await page.textContent("#wallet-outcome")));
    expect(pinSetUp).toMatchObject({ status: "approved", action: "pin-setup" });
    expect(pinSetUp.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expect.poll(() => setup.isClosed()).toBe(true);

    // The game's backend: a cuid of its own, then the confirmation (HTTP Basic, as the backend SDK sends it).
    const cuid = `react-${randomBytes(4).toString("hex")}`;
    const init = await backend("/v1/development-api/init_permission_provider", {
      client_id: game.clientId,
      cuid,
      release_per: 20,
      owner_addr: "0x00000000000000000000000000000000c0ffee04",
    });
    expect(init.status, await init.clone().text()).toBe(200);
    const created = await backend("/v1/wallet/confirmations", {
      user_uuid: Number(userId),
      redirect_uri: game.redirectUri,
      request: { kind: "approve_purchases", cuid, amount: "10" },
    });
    const confirmation = (await created.json()) as { id: string; window_url: string };
    expect(created.status, JSON.stringify(confirmation)).toBe(201);
    await page.evaluate((c) => Object.assign(window, { __confirmation: c }), confirmation);

    const [confirm] = await Promise.all([context.waitForEvent("page"), page.click("#approve-purchases")]);
    expect(confirm.url()).toContain(`${service.url}/wallet/confirm/${confirmation.id}?state=`);
    await expect.poll(() => page.textContent("#wallet-busy")).toBe("true");
    expect(await page.textContent("#wallet-outcome")).toBe("");
    await confirm.fill("#pin", PIN);
    await confirm.click("#approve");
    await expect.poll(() => page.textContent("#wallet-busy"), { timeout: 60_000 }).toBe("false");
    expect(await page.textContent("#wallet-error")).toBe("");
    const approved = JSON.parse(String(await page.textContent("#wallet-outcome")));
    expect(approved).toMatchObject({ status: "approved", action: "approve_purchases", confirmationId: confirmation.id });
    const read = (await (
      await fetch(`${service.url}/v1/wallet/confirmations/${confirmation.id}`, { headers: { authorization: basicAuth() } })
    ).json()) as Record<string, unknown>;
    expect(read).toMatchObject({ status: "approved" });
    expect(approved.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(read).toMatchObject({ tx_hash: approved.txHash });
  }, 180_000);
});
