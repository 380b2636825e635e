import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ar } from "../../src/platform/i18n/messages/ar.js";
import { en } from "../../src/platform/i18n/messages/en.js";
import { ja } from "../../src/platform/i18n/messages/ja.js";
import { ko } from "../../src/platform/i18n/messages/ko.js";
import { launchChromium } from "../support/chromium.js";
import { randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The hosted pages' languages in real headless Chromium: OIDC `ui_locales` first, then the browser's
 * Accept-Language, then English; Arabic laid out right to left; errors shown to the player translated
 * while the error codes stay the same.
 */
let server: TestServer;
let browser: Browser;
let clientId: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  clientId = (await registerClient(server.url, { name: "Star Quest" })).client_id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function authorizeUrl(extra: Record<string, string> = {}): string {
  return `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: "https://app.example/callback", response_type: "code", state: "st-1", ...extra })}`;
}

async function withPage<T>(locale: string | undefined, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext(locale ? { locale } : {});
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

describe("page languages in Chromium", () => {
  it("ui_locales=ja shows the sign-in page in Japanese, even to an English browser", async () => {
    await withPage("en-US", async (page) => {
      await page.goto(authorizeUrl({ ui_locales: "ja" }));
      expect(await page.getAttribute("html", "lang")).toBe("ja");
      expect(await text(page, "h1")).toBe(ja["signIn.heading"]);
      expect(await text(page, 'label[for="password"]')).toBe(ja["signIn.password"]);
      expect(await text(page, '#email-form button[value="approve"]')).toBe(ja["action.approve"]);
      expect(await page.title()).toBe("Star Quest にサインイン — Slotgate");
    });
  });

  it("without ui_locales the browser's language decides (Korean), and an unshipped one falls back to English", async () => {
    await withPage("ko-KR", async (page) => {
      await page.goto(authorizeUrl());
      expect(await page.getAttribute("html", "lang")).toBe("ko");
      expect(await text(page, "h1")).toBe(ko["signIn.heading"]);
    });
    await withPage("de-DE", async (page) => {
      await page.goto(authorizeUrl());
      expect(await page.getAttribute("html", "lang")).toBe("en");
      expect(await text(page, "h1")).toBe(en["signIn.heading"]);
    });
  });

  it("Arabic lays the page out right to left: the heading's text starts at the right edge of its block, Approve sits right of Deny", async () => {
    const layout = (locale: string) =>
      withPage(undefined, async (page) => {
        await page.goto(authorizeUrl({ ui_locales: locale }));
        const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
        const [block, heading, approve, deny] = await Promise.all([
          box("h1"),
          page.evaluate(() => {
            const r = document.createRange();
            r.selectNodeContents(document.querySelector("h1")!);
            const b = r.getBoundingClientRect();
            return { x: b.x, width: b.width };
          }),
          box('#email-form button[value="approve"]'),
          box('#email-form button[value="deny"]'),
        ]);
        return {
          dir: await page.getAttribute("html", "dir"),
          direction: await page.evaluate(() => getComputedStyle(document.body).direction),
          headingAtRight: Math.abs(heading.x + heading.width - (block.x + block.width)) < 2,
          headingAtLeft: Math.abs(heading.x - block.x) < 2,
          approveRightOfDeny: approve.x > deny.x,
          heading: await text(page, "h1"),
        };
      });
    expect(await layout("ar")).toEqual({
      dir: "rtl",
      direction: "rtl",
      headingAtRight: true,
      headingAtLeft: false,
      approveRightOfDeny: true,
      heading: ar["signIn.heading"],
    });
    expect(await layout("en")).toEqual({
      dir: "ltr",
      direction: "ltr",
      headingAtRight: false,
      headingAtLeft: true,
      approveRightOfDeny: false,
      heading: en["signIn.heading"],
    });
  });

  it("a wrong password is told in Japanese after the post (ui_locales rides in the form), with the same 401", async () => {
    await withPage("en-US", async (page) => {
      await page.goto(authorizeUrl({ ui_locales: "ja" }));
      await page.fill("#email", randomEmail());
      await page.fill("#password", "wrong-password-1");
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click('#email-form button[value="approve"]')]);
      expect(response.status()).toBe(401);
      expect(await text(page, "#slotgate-error")).toBe(ja["error.invalid_credentials"]);
    });
  });

  it("a bad request's error page is in the asked language; its code, and the JSON answer, are unchanged", async () => {
    await withPage(undefined, async (page) => {
      const response = await page.goto(
        `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: "sg_unknown", redirect_uri: "https://app.example/callback", response_type: "code", state: "s", ui_locales: "ko" })}`,
      );
      expect(response!.status()).toBe(401);
      expect(await page.getAttribute("#slotgate-error", "data-code")).toBe("invalid_client");
      expect(await text(page, "p:not(.error)")).toBe(ko["error.invalid_client"]);
    });
    const json = await fetch(
      `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: "sg_unknown", redirect_uri: "https://app.example/callback", response_type: "code", state: "s", ui_locales: "ko" })}`,
      {
        headers: { accept: "application/json" },
      },
    );
    expect(await json.json()).toMatchObject({ success: false, error: "invalid_client", message: "Unknown client_id or wrong client_secret." });
  });

  it("the device verification page takes ui_locales and keeps it through the code form", async () => {
    await withPage("en-US", async (page) => {
      await page.goto(`${server.url}/oauth/device?ui_locales=ja`);
      expect(await text(page, "h1")).toBe(ja["device.title"]);
      await page.fill("#user_code", "BBBB-BBBB");
      await Promise.all([page.waitForURL(/user_code=/), page.click('button[type="submit"]')]);
      expect(new URL(page.url()).searchParams.get("ui_locales")).toBe("ja");
      expect(await text(page, "#slotgate-error")).toBe(ja["error.unknownUserCode"]);
    });
  });

  it("a malformed ui_locales is refused with invalid_request rather than ignored", async () => {
    const res = await fetch(authorizeUrl({ ui_locales: "ja<script>" }), { headers: { accept: "application/json" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", details: [{ path: "ui_locales" }] });
  });
});
