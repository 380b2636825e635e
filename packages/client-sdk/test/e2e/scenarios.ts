import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppConfig, startAppServer } from "./support/app-server.js";
import { launchChromium } from "./support/chromium.js";
import type { E2eTarget } from "./support/target.js";
import { SEVERANCE_MS } from "../../src/login/await-result.js";

interface LoginOutcome {
  result?: { jwt: string };
  error?: { name: string; code: string; message: string };
}

/**
 * The browser acceptance scenarios of issue 6, in headless Chromium, against one service target:
 * success, denial, popup closed by the user, timeout, popup blocked, an app page with
 * `Cross-Origin-Opener-Policy: same-origin`, two tabs at once, a v1 listener, and the script-tag build.
 */
export function defineLoginScenarios(label: string, startTarget: () => Promise<E2eTarget>): void {
  describe(`client SDK in Chromium against the ${label}`, () => {
    let target: E2eTarget;
    let app: Awaited<ReturnType<typeof startAppServer>>;
    let browser: Browser;
    let context: BrowserContext;
    let config: AppConfig;
    let user: { email: string; password: string };

    beforeAll(async () => {
      [target, app, browser] = await Promise.all([startTarget(), startAppServer(), launchChromium()]);
      const redirectUri = `${app.origin}/callback.html`;
      config = { slotgateUrl: target.baseUrl, clientId: await target.registerClient([redirectUri]), redirectUri };
      app.configure(config);
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

    async function openApp(path: string): Promise<Page> {
      const page = await context.newPage();
      await page.goto(app.origin + path);
      await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, {
        polling: 100,
      });
      return page;
    }
    async function clickLogin(page: Page): Promise<Page> {
      const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
      await popup.waitForSelector('input[name="email"]');
      return popup;
    }
    async function signIn(popup: Page, decision: "approve" | "deny" = "approve"): Promise<void> {
      if (decision === "approve") {
        await popup.fill('input[name="email"]', user.email);
        await popup.fill('input[name="password"]', user.password);
      }
      await popup.click(`button[name="decision"][value="${decision}"]`);
    }
    async function outcome(page: Page, hint?: string): Promise<LoginOutcome> {
      const handle = await page
        .waitForFunction(
          () => {
            const w = window as unknown as { __result?: unknown; __error?: unknown };
            return w.__result || w.__error ? { result: w.__result, error: w.__error } : undefined;
          },
          undefined,
          { polling: 100, timeout: 15_000 },
        )
        .catch((error: Error) => {
          throw new Error(hint ? `${hint}\n${error.message}` : error.message);
        });
      return (await handle.jsonValue()) as LoginOutcome;
    }
    const COOP_HINT =
      "No login result reached the COOP page. The service's popup result page must navigate to " +
      "{redirect_uri}#from=slotgate&type=...&data=...&state=... when window.opener is null " +
      "(docs/decisions/client-sdk.md, 'Server requirement for the COOP fallback').";
    async function validate(jwt: string): Promise<number> {
      return (await fetch(`${target.baseUrl}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } })).status;
    }

    it("success: resolves { jwt } the service accepts, stores it, and logout() revokes it", async () => {
      const page = await openApp("/app.html");
      await signIn(await clickLogin(page));
      const { result, error } = await outcome(page);
      expect(error).toBeUndefined();
      expect(result?.jwt.split(".")).toHaveLength(3);
      const jwt = result?.jwt ?? "";
      expect(await validate(jwt)).toBe(200);
      expect(await page.evaluate(() => [localStorage.getItem("slotgate_access_token"), slotgateOf().isLoggedIn()])).toEqual([jwt, true]);
      await page.evaluate(() => slotgateOf().logout());
      expect(await page.evaluate(() => [localStorage.getItem("slotgate_access_token"), slotgateOf().isLoggedIn()])).toEqual([null, false]);
      expect(await validate(jwt)).toBe(401);
    });

    it("denial: rejects 'Login failed: access_denied'", async () => {
      const page = await openApp("/app.html");
      await signIn(await clickLogin(page), "deny");
      expect((await outcome(page)).error).toEqual({
        name: "SlotgateError",
        code: "login_failed",
        message: "Login failed: access_denied",
      });
    });

    it("popup closed by the user: rejects 'User closed the login window' without waiting for the timeout", async () => {
      const page = await openApp("/app.html");
      const popup = await clickLogin(page);
      // A person reads the page before closing it; a close sooner than SEVERANCE_MS after the page showed is
      // taken as a COOP swap and waits for the app's focus, which headless Chromium never gives back.
      await popup.waitForTimeout(SEVERANCE_MS + 1000);
      await popup.close();
      expect((await outcome(page)).error).toMatchObject({ code: "popup_closed", message: "User closed the login window" });
    });

    it("timeout: rejects 'Login timeout' and closes the popup", async () => {
      const page = await openApp("/app.html?timeout=3000");
      const popup = await clickLogin(page);
      expect((await outcome(page)).error).toMatchObject({ code: "login_timeout", message: "Login timeout" });
      await expect.poll(() => popup.isClosed()).toBe(true);
    });

    it("popup blocked: login() outside a user gesture rejects 'Popup blocked'", async () => {
      const page = await openApp("/app.html?autologin");
      expect((await outcome(page)).error).toMatchObject({ code: "popup_blocked", message: "Popup blocked" });
      expect(context.pages()).toHaveLength(1);
    });

    it("Cross-Origin-Opener-Policy: same-origin on the app page: completes through the redirect page and BroadcastChannel", async () => {
      const page = await openApp("/coop/app.html");
      const popup = await clickLogin(page);
      expect(await popup.evaluate(() => window.opener)).toBeNull();
      await signIn(popup);
      const { result, error } = await outcome(page, COOP_HINT);
      expect(error).toBeUndefined();
      expect(await validate(result?.jwt ?? "")).toBe(200);
      await expect.poll(() => popup.isClosed()).toBe(true);
    });

    it("COOP page, popup closed by the user: rejects 'User closed the login window' once the app has focus again", async () => {
      const page = await openApp("/coop/app.html");
      const popup = await clickLogin(page);
      await popup.waitForTimeout(1000);
      // Severed: the app's handle already reads closed; the SDK must not give up while the popup lives.
      expect(await page.evaluate(() => (window as unknown as { __error?: unknown }).__error)).toBeUndefined();
      await popup.close();
      // A desktop browser refocuses the opener when a popup closes; headless Chromium has no window focus,
      // so the test fires the event the browser would.
      await page.evaluate(() => window.dispatchEvent(new Event("focus")));
      expect((await outcome(page)).error).toMatchObject({ code: "popup_closed", message: "User closed the login window" });
    });

    it("two tabs logging in at once each get their own JWT", async () => {
      const [a, b] = [await openApp("/app.html"), await openApp("/app.html")];
      const popupA = await clickLogin(a);
      const popupB = await clickLogin(b);
      await signIn(popupB);
      await signIn(popupA);
      const [ra, rb] = [await outcome(a), await outcome(b)];
      expect(ra.error ?? rb.error).toBeUndefined();
      expect(ra.result?.jwt).not.toBe(rb.result?.jwt);
      expect([await validate(ra.result?.jwt ?? ""), await validate(rb.result?.jwt ?? "")]).toEqual([200, 200]);
    });

    it("two tabs on a COOP page at once: each takes only its own state from the shared BroadcastChannel", async () => {
      const [a, b] = [await openApp("/coop/app.html"), await openApp("/coop/app.html")];
      const popupA = await clickLogin(a);
      const popupB = await clickLogin(b);
      await signIn(popupA);
      await signIn(popupB, "deny");
      expect((await outcome(a, COOP_HINT)).result?.jwt).toBeTruthy();
      expect((await outcome(b, COOP_HINT)).error).toMatchObject({ code: "login_failed", message: "Login failed: access_denied" });
    });

    it("a v1 app listening for from: 'gameauth' receives the legacy message of the dual broadcast", async () => {
      const v1 = await openApp("/v1-app.html");
      await signIn(await clickLogin(v1));
      const legacy = (await (
        await v1.waitForFunction(() => (window as unknown as { __legacy?: unknown }).__legacy, undefined, { polling: 100 })
      ).jsonValue()) as { origin: string; data: { from: string; type: string; data: string; state: string } };
      expect(legacy.origin).toBe(target.baseUrl);
      expect(legacy.data).toMatchObject({
        from: "gameauth",
        type: "success",
        state: await v1.evaluate(() => (window as unknown as { __state: string }).__state),
      });
      expect(await validate(legacy.data.data)).toBe(200);
    });

    it("the IIFE build works from a plain <script> tag (global Slotgate namespace)", async () => {
      const page = await openApp("/app-script-tag.html");
      expect(await page.evaluate(() => Object.keys((window as unknown as { Slotgate: object }).Slotgate).sort())).toEqual([
        "Slotgate",
        "SlotgateError",
        "VERSION",
        "handleLoginCallback",
      ]);
      await signIn(await clickLogin(page));
      const { result } = await outcome(page);
      expect(await validate(result?.jwt ?? "")).toBe(200);
    });
  });
}

/** In page functions: the app's SDK instance. */
declare function slotgateOf(): {
  isLoggedIn(): boolean;
  logout(): Promise<void>;
};
