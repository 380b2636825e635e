import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalIdentityProvider, startLocalIdentityProvider } from "../../src/testing/index.js";
import { THEMES as THEME_COLOURS } from "../../src/platform/http/theme.js";
import { LOCALES } from "../../src/platform/i18n/translator.js";
import { seriousViolations } from "../support/axe.js";
import { enterMailedCode, launchChromium, serveHtml } from "../support/chromium.js";
import { randomEmail, registerClient } from "../support/flows.js";
import { onFreeLoopbackPort, startTestServer, type TestServer } from "../support/harness.js";

/**
 * axe-core (the npm package, injected into the page) on every hosted page, in the light and dark theme
 * and every shipped language (the developer center too, signed out and signed in): no serious or critical violation. Plus a sign-up and sign-in done with the
 * keyboard alone.
 */
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const THEMES = ["light", "dark"] as const;

let server: TestServer;
let idp: LocalIdentityProvider;
let browser: Browser;
let base: string;
let clientId: string;
let consoleId: string;
let app: Awaited<ReturnType<typeof serveHtml>>;
let keyboardClientId: string;

beforeAll(async () => {
  // PUBLIC_URL on localhost turns passkeys on, so the sign-in page shows its passkey form too; an identity
  // provider that vouches for no email leads to the "your email address" page.
  server = await onFreeLoopbackPort(async (port) => {
    base = `http://localhost:${port}`;
    idp = await startLocalIdentityProvider({ slotgateUrl: base });
    return startTestServer({ PORT: String(port), PUBLIC_URL: base, IDENTITY_PROVIDERS: JSON.stringify([idp.entry()]) }).catch(async (error) => {
      await idp.close();
      throw error;
    });
  });
  browser = await launchChromium();
  clientId = (await registerClient(base, { name: "Star Quest" })).client_id;
  consoleId = (await registerClient(base, { platform: "game", name: "Living Room Game", grant_types: [DEVICE_GRANT] })).client_id;
  app = await serveHtml("<!doctype html><title>app</title><p>back in the app</p>");
  keyboardClientId = (await registerClient(base, { redirect_uris: [`${app.origin}/done`] })).client_id;
});
afterAll(async () => {
  app?.server.close();
  await browser?.close();
  await server?.close();
  await idp?.close();
});

async function deviceUserCode(): Promise<string> {
  const res = await fetch(`${base}/oauth/device_authorization`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: consoleId }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user_code: string }).user_code;
}

/** Visits every page of the sign-in and device flows in one language and theme; axe's findings per page. */
async function auditFlows(locale: string, theme: (typeof THEMES)[number]): Promise<Record<string, string[]>> {
  const context = await browser.newContext({ colorScheme: theme, bypassCSP: true });
  const page = await context.newPage();
  const found: Record<string, string[]> = {};
  const audit = async (name: string) => {
    found[name] = await seriousViolations(page);
  };
  try {
    const query = { client_id: clientId, redirect_uri: "https://app.example/callback", response_type: "code", state: "st-1", ui_locales: locale };
    await page.goto(`${base}/oauth/authorize?${new URLSearchParams(query)}`);
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(THEME_COLOURS[theme].bg.slice(i, i + 2), 16));
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), `the ${theme} theme is on`).toBe(`rgb(${r}, ${g}, ${b})`);
    await audit("sign-in");
    await page.fill("#email", "not-an-account@example.com");
    await page.fill("#password", "wrong-password-1");
    await page.click('#email-form button[value="approve"]');
    await page.waitForSelector("#slotgate-error");
    await audit("sign-in with an error");
    const email = randomEmail("a11y");
    await page.fill("#email", email);
    await page.fill("#password", "user-password-1");
    await page.check('input[name="intent"]');
    await page.check('input[name="add_passkey"]');
    await page.click('#email-form button[value="approve"]');
    await page.waitForSelector("#otp");
    await audit("check your email");
    await enterMailedCode(page, server.mail, email);
    await page.waitForSelector("#passkey-create");
    await audit("create a passkey");

    await page.goto(`${base}/oauth/authorize?${new URLSearchParams(query)}`);
    await page.click('#providers button[value="local"]');
    await page.waitForURL((u) => u.href.startsWith(idp.issuer));
    await page.fill('input[name="login"]', "carol-idp"); // no email claim
    await page.fill('input[name="password"]', "any");
    await page.click('button[type="submit"]');
    const consent = page.locator('button[type="submit"]', { hasText: /continue/i });
    if (await consent.isVisible().catch(() => false)) await consent.click();
    await page.waitForSelector("#idp-email-form");
    await audit("your email address");

    await page.goto(`${base}/oauth/authorize?${new URLSearchParams({ ...query, client_id: "sg_unknown" })}`);
    await audit("error page");

    await page.goto(`${base}/oauth/device?ui_locales=${locale}`);
    await audit("device code");
    await page.fill("#user_code", "BBBB-BBBB");
    await page.click('button[type="submit"]');
    await page.waitForSelector("#slotgate-error");
    await audit("device code with an error");
    await page.fill("#user_code", await deviceUserCode());
    await page.click('button[type="submit"]');
    await page.waitForSelector("#email");
    await audit("device sign-in");
    await page.click('#email-form button[value="deny"]');
    await page.waitForSelector("#slotgate-device-result");
    await audit("device result");
    return found;
  } finally {
    await context.close();
  }
}

describe("accessibility of the hosted pages (axe-core in Chromium)", () => {
  for (const locale of LOCALES) {
    for (const theme of THEMES) {
      it(`${locale}, ${theme}: no serious or critical violation on the sign-in, mailbox, passkey, provider email, error and device pages`, async () => {
        const found = await auditFlows(locale, theme);
        expect(Object.keys(found)).toHaveLength(10);
        expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
      });
    }
  }

  for (const locale of LOCALES) {
    for (const theme of THEMES) {
      it(`developer center, ${locale}, ${theme}: no serious or critical violation signed out, nor signed in with an application open`, async () => {
        const { devToken } = await registerClient(base, { name: "Audit Quest" });
        const context = await browser.newContext({ colorScheme: theme, bypassCSP: true });
        const page = await context.newPage();
        try {
          await page.goto(`${base}/developer?ui_locales=${locale}`);
          await page.waitForSelector("#auth-form");
          expect(await page.getAttribute("html", "lang")).toBe(locale);
          const found: Record<string, string[]> = { "signed out": await seriousViolations(page) };
          await page.evaluate((token) => sessionStorage.setItem("slotgate_dev_token", token), devToken);
          await page.reload();
          await page.locator("#clients tr", { hasText: "Audit Quest" }).locator("button").click();
          await page.waitForSelector("#manage", { state: "visible" });
          await page.waitForFunction(() => document.getElementById("m-overlap")?.textContent !== "");
          found["signed in, managing an application"] = await seriousViolations(page);
          expect(found).toEqual({ "signed out": [], "signed in, managing an application": [] });
        } finally {
          await context.close();
        }
      });
    }
  }

  it("axe finds planted violations (the audit can fail): an unlabelled field, grey-on-white text", async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${base}/oauth/device`);
    await page.evaluate(() => {
      document.querySelector('label[for="user_code"]')!.remove();
      document.querySelector("#user_code")!.removeAttribute("placeholder");
      (document.querySelector("h1") as HTMLElement).style.color = "#d0d0d0";
    });
    const found = (await seriousViolations(page)).map((v) => v.split(" ")[0]);
    expect(found).toEqual(expect.arrayContaining(["label", "color-contrast"]));
    await context.close();
  });

  it("keyboard only: a player signs up and approves with Tab, Space, typing and Enter", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const query = { client_id: keyboardClientId, redirect_uri: `${app.origin}/done`, response_type: "code", state: "st-kb" };
    await page.goto(`${base}/oauth/authorize?${new URLSearchParams(query)}`);
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute("id") ?? document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName);
    // Tab until the email field has focus (past the passkey button), type, Tab to the password, type.
    for (let i = 0; i < 10 && (await focused()) !== "email"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("email");
    const email = randomEmail("keyboard");
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("password");
    await page.keyboard.type("user-password-1");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("intent");
    await page.keyboard.press("Space");
    expect(await page.isChecked('input[name="intent"]')).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#otp");
    expect(await focused(), "the code field has focus on arrival").toBe("otp");
    await page.keyboard.type(await server.mail.nextCode(email));
    const redirected = page.waitForURL((url) => url.origin === app.origin && url.pathname === "/done");
    await page.keyboard.press("Enter");
    await redirected;
    expect(new URL(page.url()).searchParams.get("code")).toBeTruthy();
    expect(new URL(page.url()).searchParams.get("state")).toBe("st-kb");
    await context.close();
  });
});
