import type { Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, serveHtml } from "../support/chromium.js";
import { randomEmail, registerClient } from "../support/flows.js";
import { enterMailedCode } from "../support/chromium.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The COOP fallback of the popup result page in real headless Chromium: when the popup has no
 * `window.opener` (a Cross-Origin-Opener-Policy severed it, or the page was opened directly), the
 * result page navigates to the registered redirect URI with the slotgate message in the fragment,
 * where the client SDK's handleLoginCallback() relays it.
 */
let server: TestServer;
let browser: Browser;
let app: Server;
let appOrigin: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ origin: appOrigin, server: app } = await serveHtml("<!doctype html><title>app callback</title><p id=cb>callback</p>"));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  app?.close();
  await server?.close();
});

async function loginWithoutOpener(decision: "approve" | "deny") {
  const redirectUri = `${appOrigin}/slotgate-callback?app=1`;
  const client = await registerClient(server.url, { redirect_uris: [redirectUri] });
  const state = `st-${Date.now()}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(
    `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: redirectUri, response_type: "code", state, display: "popup" })}`,
  );
  const email = randomEmail();
  if (decision === "approve") {
    await page.fill("#email", email);
    await page.fill("#password", "user-password-1");
    await page.check('input[name="intent"]');
  }
  await page.click(`#email-form button[value="${decision}"]`);
  if (decision === "approve") await enterMailedCode(page, server.mail, email);
  await page.waitForURL((url) => url.origin === appOrigin, { timeout: 15_000 });
  const landed = new URL(page.url());
  await context.close();
  return { landed, state, redirectUri, client };
}

describe("popup result page without window.opener (COOP fallback)", () => {
  it("approve: navigates to the registered redirect URI with from, type, data and state in the fragment", async () => {
    const { landed, state, redirectUri, client } = await loginWithoutOpener("approve");
    expect(`${landed.origin}${landed.pathname}${landed.search}`).toBe(redirectUri);
    const fragment = new URLSearchParams(landed.hash.slice(1));
    expect(fragment.get("from")).toBe("slotgate");
    expect(fragment.get("type")).toBe("success");
    expect(fragment.get("state")).toBe(state);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${fragment.get("data")}` } });
    expect(validate.status).toBe(200);
    expect(await validate.json()).toMatchObject({ token_use: "user_jwt", client_id: client.client_id });
  }, 60_000);

  it("deny: the fragment carries type fail and access_denied", async () => {
    const { landed } = await loginWithoutOpener("deny");
    const fragment = new URLSearchParams(landed.hash.slice(1));
    expect(Object.fromEntries(fragment)).toMatchObject({ from: "slotgate", type: "fail", data: "access_denied" });
  }, 60_000);
});
