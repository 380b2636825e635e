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
 * useSlotgate) bundled with esbuild and served on its own origin. Popup login and logout, two tabs kept in sync,
 * and a page that blocks popups logging in by redirect.
 */
let service: ReferenceServer;
let app: Server;
let appOrigin: string;
let browser: Browser;
let context: BrowserContext;
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
  [service, browser] = await Promise.all([startReferenceServer({ chain: "off", timeoutMs: 100_000 }), chromium.launch(chromiumLaunchOptions())]);
  const redirectUri = `${appOrigin}/auth/callback`;
  const { clientId } = await registerWebClient(service.url, { name: "react e2e", redirectUris: [redirectUri] });
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
});
