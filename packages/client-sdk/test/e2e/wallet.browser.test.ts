// @vitest-environment node
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { VERSION } from "../../src/index.js";
import { SEVERANCE_MS } from "../../src/popup/await-result.js";
import { startAppServer } from "./support/app-server.js";
import { launchChromium } from "./support/chromium.js";
import { type WalletStandIn, startWalletStandIn } from "./support/wallet-service.js";

interface WalletOutcome {
  result?: { status: string; action: string; confirmationId: string | null; txHash: string | null; address: string | null };
  error?: { name: string; code: string; message: string; isSlotgateError?: boolean };
}

// The wallet window in headless Chromium, with popup blocking on, against the wallet stand-in
// (test/e2e/support/wallet-service.ts: the protocol's own result page and script): approve, deny, the user
// closing the window, a page-started window, and an app page with Cross-Origin-Opener-Policy: same-origin, whose
// result comes back through the redirect page's handleWalletCallback().
describe("client SDK wallet window in Chromium against the wallet stand-in", () => {
  let service: WalletStandIn;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let redirectUri: string;

  beforeAll(async () => {
    [service, app, browser] = await Promise.all([startWalletStandIn(), startAppServer(), launchChromium()]);
    redirectUri = `${app.origin}/callback.html`;
    app.configure({ slotgateUrl: service.baseUrl, clientId: "sg_wallet_e2e", redirectUri });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await service?.close();
  });
  beforeEach(async (ctx) => {
    context = await browser.newContext();
    ctx.onTestFinished(() => context.close());
  });

  async function openApp(path: string, confirmation?: object): Promise<Page> {
    const page = await context.newPage();
    await page.goto(app.origin + path);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { polling: 100 });
    if (confirmation) await page.evaluate((c) => Object.assign(window, { __confirmation: c }), confirmation);
    return page;
  }
  async function click(page: Page): Promise<Page> {
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#go")]);
    await popup.waitForSelector('button[name="decision"]');
    return popup;
  }
  async function outcome(page: Page): Promise<WalletOutcome> {
    const handle = await page.waitForFunction(
      () => {
        const w = window as unknown as { __result?: unknown; __error?: unknown };
        return w.__result || w.__error ? { result: w.__result, error: w.__error } : undefined;
      },
      undefined,
      { polling: 100, timeout: 15_000 },
    );
    return (await handle.jsonValue()) as WalletOutcome;
  }

  it("approve: approvePurchases() resolves the approved outcome and the window closes", async () => {
    const confirmation = service.createConfirmation("approve_purchases", redirectUri);
    const page = await openApp("/wallet.html", confirmation);
    const popup = await click(page);
    expect(new URL(popup.url()).pathname).toBe(`/wallet/confirm/${confirmation.id}`);
    await popup.click('button[value="approve"]');
    const { result, error } = await outcome(page);
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ status: "approved", action: "approve_purchases", confirmationId: confirmation.id, address: null });
    expect(result?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await expect.poll(() => popup.isClosed()).toBe(true);
  });

  it("deny: rejects confirmation_denied", async () => {
    const page = await openApp("/wallet.html", service.createConfirmation("approve_purchases", redirectUri));
    await (await click(page)).click('button[value="deny"]');
    expect((await outcome(page)).error).toEqual({ name: "SlotgateError", code: "confirmation_denied", message: "The user denied the wallet request" });
  });

  it("the user closes the window: rejects popup_closed", async () => {
    const page = await openApp("/wallet.html", service.createConfirmation("approve_purchases", redirectUri));
    const popup = await click(page);
    await popup.waitForTimeout(SEVERANCE_MS + 1000); // a person reads the window before closing it
    await popup.close();
    expect((await outcome(page)).error).toMatchObject({ code: "popup_closed", message: "User closed the wallet window" });
  });

  it("page-started: setUpPin() resolves the wallet address", async () => {
    const page = await openApp("/wallet.html?action=setUpPin");
    const popup = await click(page);
    expect(Object.fromEntries(new URL(popup.url()).searchParams)).toMatchObject({ client_id: "sg_wallet_e2e", redirect_uri: redirectUri });
    await popup.click('button[value="approve"]');
    expect((await outcome(page)).result).toMatchObject({ status: "approved", action: "pin-setup", address: "0x00000000000000000000000000000000000a11ce" });
  });

  it("Cross-Origin-Opener-Policy: same-origin on the app page: completes through the redirect page and BroadcastChannel", async () => {
    const confirmation = service.createConfirmation("token_transfer", redirectUri);
    const page = await openApp("/coop/wallet.html?action=transfer", confirmation);
    const popup = await click(page);
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await popup.click('button[value="approve"]');
    const { result, error } = await outcome(page);
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ status: "approved", action: "token_transfer", confirmationId: confirmation.id });
    await expect.poll(() => popup.isClosed()).toBe(true);
  });

  it("script tag: dist/slotgate-wallet.iife.js defines window.SlotgateWallet, whose SlotgateWallet approves and denies", async () => {
    const confirmation = service.createConfirmation("approve_purchases", redirectUri);
    const page = await openApp("/wallet-script-tag.html", confirmation);
    const global = await page.evaluate(() => {
      const g = (window as unknown as { SlotgateWallet: Record<string, unknown> }).SlotgateWallet;
      return { keys: Object.keys(g).sort(), version: g["VERSION"], types: Object.values(g).map((v) => typeof v) };
    });
    expect(global.keys).toEqual(["SlotgateError", "SlotgateWallet", "VERSION", "handleWalletCallback"]);
    expect(global.version).toBe(VERSION);
    expect(await page.evaluate(() => typeof (window as unknown as { Slotgate?: unknown }).Slotgate)).toBe("undefined");
    await (await click(page)).click('button[value="approve"]');
    expect((await outcome(page)).result).toMatchObject({ status: "approved", action: "approve_purchases", confirmationId: confirmation.id });

    await page.evaluate((c) => Object.assign(window, { __confirmation: c }), service.createConfirmation("approve_purchases", redirectUri));
    await (await click(page)).click('button[value="deny"]');
    expect((await outcome(page)).error).toEqual({
      name: "SlotgateError",
      code: "confirmation_denied",
      message: "The user denied the wallet request",
      isSlotgateError: true,
    });
  });
});
