/**
 * End to end: login() against the real reference server, with headless Chromium
 * as the system browser. Included by vitest.config.ts only when @slotgate/server
 * is built, or CI / SLOTGATE_E2E=1 require it.
 *
 * The server runs through @slotgate/server/testing (the `slotgate-server` bin as a child process) with
 * a fresh data directory. `DATABASE_URL` is taken from SLOTGATE_TEST_DATABASE_URL when the test runner
 * found PostgreSQL; otherwise the embedded database is used, which one process opens at a time, so the
 * client is registered before the server starts.
 */
import { freeLoopbackPort, type ReferenceServer, startReferenceServer } from "@slotgate/server/testing";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoginResult, login } from "../src/index.js";

const CHROMIUM = process.env["SLOTGATE_CHROMIUM"] ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

describe("login() against the reference server with headless Chromium", () => {
  let server: ReferenceServer;
  let browser: Browser;
  let clientId = "";
  let redirectUri = "";
  const email = `player-${Date.now()}@e2e.slotgate.test`;
  const password = "correct horse battery staple 42";

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    redirectUri = `http://127.0.0.1:${port}/callback`;
    const database = process.env["SLOTGATE_TEST_DATABASE_URL"];
    server = await startReferenceServer({
      // The loopback login needs no chain: run the OAuth part of the server only.
      chain: "off",
      env: { SLOTGATE_SEED_DEMO: "false" },
      ...(database ? { database } : {}),
      before(run) {
        const created = run([
          "client",
          "create",
          "--name",
          "game-sdk-bridge e2e",
          "--redirect-uri",
          redirectUri,
          "--download-url",
          "https://game.example/download",
          "--web-url",
          "https://game.example",
          "--platform",
          "desktop",
        ]) as Record<string, unknown>;
        clientId = String(created["client_id"]);
      },
    });
    // Playwright gives every launch a fresh profile directory of its own (the --user-data-dir of TOOLCHAIN.md).
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  interface Played {
    result: LoginResult;
    flowError?: unknown;
    /** Where the tab ended up and what it shows, after the loopback page loaded. */
    finalUrl?: string;
    heading?: string | null;
  }

  /**
   * Plays the player in Chromium on the authorize page: email and password (creating the
   * player account with the page's sign-up box when `signUp`), then the decision button.
   */
  async function signInWithChromium(decision: "approve" | "deny", signUp = false): Promise<Played> {
    const context = await browser.newContext();
    const played: Partial<Played> = {};
    let flow: Promise<void> = Promise.resolve();
    try {
      const result = await login(
        { ClientId: clientId, RedirectUri: redirectUri, SlotgateUrl: server.url },
        {
          timeoutMs: 60_000,
          openBrowser: (url) => {
            flow = (async () => {
              const page = await context.newPage();
              await page.goto(url);
              await page.fill('[name="email"]', email);
              await page.fill('[name="password"]', password);
              if (signUp) await page.locator('[name="intent"][value="signup"]').check();
              const button = page.locator(`[name="decision"][value="${decision}"]`);
              if ((await button.count()) === 0) {
                await Promise.all([page.waitForLoadState("load"), page.locator('form [type="submit"]').first().click()]);
              }
              await page.locator(`[name="decision"][value="${decision}"]`).click();
              await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
              await page.waitForLoadState("load");
              played.finalUrl = page.url();
              played.heading = await page.locator("h1").textContent();
            })().catch((error: unknown) => {
              played.flowError = error;
              throw error;
            });
            return flow;
          },
        },
      );
      await flow.catch(() => {});
      return { ...played, result };
    } finally {
      await context.close();
    }
  }

  it("receives a JWT that the server's /v1/oauth/validate accepts", async () => {
    const { result, flowError, finalUrl, heading } = await signInWithChromium("approve", true);
    expect(flowError, String(flowError)).toBeUndefined();
    expect(result.ErrorMessage).toBeNull();
    expect(result.Success).toBe(true);
    // The player saw the success page, and the jwt was scrubbed from the address bar.
    expect(heading).toBe("Signed in to Slotgate");
    expect(finalUrl).toBe(redirectUri);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${result.Jwt}` } });
    expect(validate.status).toBeGreaterThanOrEqual(200);
    expect(validate.status).toBeLessThan(300);
    const forged = await fetch(`${server.url}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${result.Jwt}x` } });
    expect(forged.status).toBeGreaterThanOrEqual(400);
  }, 120_000);

  it("reports ACCESS_DENIED when the player denies", async () => {
    const { result, flowError, heading } = await signInWithChromium("deny");
    expect(flowError, String(flowError)).toBeUndefined();
    expect(result.Success).toBe(false);
    expect(result.ErrorCode).toBe("ACCESS_DENIED");
    expect(heading).toBe("Sign-in failed");
  }, 120_000);
});
