// @vitest-environment node
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startAppServer } from "./support/app-server.js";
import { launchChromium } from "./support/chromium.js";
import { startReferenceServer } from "./support/reference-server.js";
import type { E2eTarget } from "./support/target.js";

/**
 * The full-page redirect mode (issue 32) in Chromium against the real reference server, on an app page that
 * blocks popups as in-app webviews do: login() rejects popup_blocked, loginWithRedirect() leaves for the
 * service, and the redirect URI page's handleRedirectCallback() redeems the code with the PKCE verifier. Then
 * silent renewal: renew() in a hidden iframe (prompt=none) on the service session the sign-in set, autoRenew
 * replacing an expired JWT at load, and logout() ending that session.
 */
describe("redirect login and silent renewal in Chromium against the reference server", () => {
  let target: E2eTarget;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let user: { email: string; password: string };

  beforeAll(async () => {
    [target, app, browser] = await Promise.all([startReferenceServer(), startAppServer(), launchChromium()]);
    const redirectUri = `${app.origin}/callback.html`;
    app.configure({ slotgateUrl: target.baseUrl, clientId: await target.registerClient([redirectUri]), redirectUri });
    user = await target.createEndUser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await target?.close();
  });
  beforeEach(async (ctx) => {
    context = await browser.newContext();
    ctx.onTestFinished(() => context.close());
  });

  async function ready(page: Page): Promise<void> {
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { polling: 100 });
  }
  /** Opens the popup-blocking page and clicks Log in: the popup is refused and the tab goes to the sign-in form. */
  async function toSignInForm(): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${app.origin}/blocked-app.html`);
    await ready(page);
    await page.click("#login");
    await page.waitForURL(`${target.baseUrl}/oauth/authorize?**`);
    await page.waitForSelector('input[name="email"]');
    expect(context.pages()).toHaveLength(1);
    return page;
  }
  async function backOnApp(page: Page): Promise<void> {
    await page.waitForURL(`${app.origin}/blocked-app.html`);
    await ready(page);
  }
  const read = (page: Page) =>
    page.evaluate(() => {
      const w = window as unknown as { __events: string[]; __redirectError: unknown; slotgateOf(): { getToken(): string | null; isLoggedIn(): boolean } };
      return {
        token: w.slotgateOf().getToken(),
        loggedIn: w.slotgateOf().isLoggedIn(),
        error: w.__redirectError,
        pending: sessionStorage.getItem("slotgate_redirect"),
      };
    });
  const validate = async (jwt: string) => (await fetch(`${target.baseUrl}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } })).status;

  it("a page that blocks popups logs in by redirect: PKCE S256 and state on the authorize URL, a JWT the service accepts", async () => {
    const page = await toSignInForm();
    const authorize = new URL(page.url());
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: "code", code_challenge_method: "S256" });
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.has("display")).toBe(false);
    await page.fill('input[name="email"]', user.email);
    await page.fill('input[name="password"]', user.password);
    await page.click('button[name="decision"][value="approve"]');
    await backOnApp(page);
    const state = await read(page);
    expect(state).toMatchObject({ error: null, loggedIn: true, pending: null });
    expect(await validate(state.token ?? "")).toBe(200);
  });

  /** Signs in by redirect on the popup-blocking page; returns the page, back on the app, logged in. */
  async function loggedInByRedirect(): Promise<Page> {
    const page = await toSignInForm();
    await page.fill('input[name="email"]', user.email);
    await page.fill('input[name="password"]', user.password);
    await page.click('button[name="decision"][value="approve"]');
    await backOnApp(page);
    return page;
  }
  type Renewal = { jwt?: string; error?: { code: string; message: string } };
  const renew = (page: Page): Promise<Renewal> =>
    page.evaluate(() =>
      (window as unknown as { slotgateOf(): { renew(): Promise<{ jwt: string }> } })
        .slotgateOf()
        .renew()
        .then(
          (r) => ({ jwt: r.jwt }),
          (e: { code: string; message: string }) => ({ error: { code: e.code, message: e.message } }),
        ),
    );
  const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: string[] }).__events);

  it("renew() after a redirect sign-in: a new JWT from a hidden iframe, stored, with a login event; the page never left", async () => {
    const page = await loggedInByRedirect();
    const first = (await read(page)).token;
    const renewed = await renew(page);
    expect(renewed.error).toBeUndefined();
    expect(renewed.jwt).not.toBe(first);
    expect(await validate(renewed.jwt ?? "")).toBe(200);
    expect((await read(page)).token).toBe(renewed.jwt);
    expect(await events(page)).toEqual(["login"]);
    expect(page.url()).toBe(`${app.origin}/blocked-app.html`);
    expect(await page.evaluate(() => document.querySelectorAll("iframe").length)).toBe(0);
  });

  it("a popup sign-in starts the service session too: renew() on the popup page returns a new JWT", async () => {
    const page = await context.newPage();
    await page.goto(`${app.origin}/app.html`);
    await ready(page);
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
    await popup.waitForSelector('input[name="email"]');
    await popup.fill('input[name="email"]', user.email);
    await popup.fill('input[name="password"]', user.password);
    await popup.click('button[name="decision"][value="approve"]');
    const first = await (
      await page.waitForFunction(() => (window as unknown as { __result?: { jwt: string } }).__result?.jwt, undefined, { polling: 100 })
    ).jsonValue();
    const renewed = await renew(page);
    expect(renewed.error).toBeUndefined();
    expect(renewed.jwt).not.toBe(first);
    expect(await validate(renewed.jwt ?? "")).toBe(200);
  });

  it("a session outlives its JWT: with autoRenew, a page loaded with an expired JWT is signed in again silently", async () => {
    const page = await loggedInByRedirect();
    await page.evaluate(() => {
      const b64 = (v: object) => btoa(JSON.stringify(v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
      localStorage.setItem("slotgate_access_token", `${b64({ alg: "ES256" })}.${b64({ exp: Math.floor(Date.now() / 1000) - 3600 })}.sig`);
    });
    await page.goto(`${app.origin}/blocked-app.html?autorenew`);
    await ready(page);
    await page.waitForFunction(() => (window as unknown as { __events: string[] }).__events.includes("login"), undefined, { polling: 100 });
    const state = await read(page);
    expect(state.loggedIn).toBe(true);
    expect(await validate(state.token ?? "")).toBe(200);
  });

  it("after logout() the service session is over: renew() rejects 'Login failed: login_required' and the old JWT is revoked", async () => {
    const page = await loggedInByRedirect();
    const jwt = (await read(page)).token ?? "";
    await page.evaluate(() => (window as unknown as { slotgateOf(): { logout(): Promise<void> } }).slotgateOf().logout());
    expect(await events(page)).toEqual(["logout"]);
    expect(await renew(page)).toEqual({ error: { code: "login_failed", message: "Login failed: login_required" } });
    expect(await validate(jwt)).toBe(401);
  });

  it("a browser that never signed in gets login_required from renew(), without any page shown", async () => {
    const page = await context.newPage();
    await page.goto(`${app.origin}/blocked-app.html`);
    await ready(page);
    expect(await renew(page)).toEqual({ error: { code: "login_failed", message: "Login failed: login_required" } });
    expect(context.pages()).toHaveLength(1);
  });

  it("denial on the service page: the app gets login_failed 'Login failed: access_denied', as from the popup", async () => {
    const page = await toSignInForm();
    await page.click('button[name="decision"][value="deny"]');
    await backOnApp(page);
    expect(await read(page)).toMatchObject({
      token: null,
      loggedIn: false,
      error: { name: "SlotgateError", code: "login_failed", message: "Login failed: access_denied" },
    });
  });

  it("a callback URL replayed in another tab (no redirect pending there) is refused: state_mismatch, nothing stored", async () => {
    const page = await toSignInForm();
    await page.fill('input[name="email"]', user.email);
    await page.fill('input[name="password"]', user.password);
    const [callback] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(`${app.origin}/callback.html?`)),
      page.click('button[name="decision"][value="approve"]'),
    ]);
    await backOnApp(page);
    const other = await context.newPage();
    await other.goto(`${app.origin}/blocked-app.html`);
    await ready(other);
    await other.evaluate(() => sessionStorage.setItem("return_to", "/blocked-app.html"));
    await other.goto(callback.url());
    await backOnApp(other);
    expect(await read(other)).toMatchObject({
      error: { code: "login_failed", message: "Login failed: state_mismatch" },
    });
  });
});
