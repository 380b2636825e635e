import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { randomEmail, registerClient } from "../support/flows.js";
import { enterMailedCode } from "../support/chromium.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The popup login in real headless Chromium: an opener page on its own origin opens
 * /oauth/authorize?display=popup, the user signs up and approves in the popup, and the result
 * page posts the dual broadcast to window.opener targeted at the registered origin.
 */
let server: TestServer;
let browser: Browser;
const apps: Server[] = [];

const OPENER_PAGE = `<!doctype html><html><body><button id="login">Log in</button><script>
window.__messages = [];
window.addEventListener("message", (e) => window.__messages.push({ origin: e.origin, data: e.data }));
document.getElementById("login").addEventListener("click", () => window.open(window.__authorizeUrl, "slotgate", "width=600,height=500"));
</script></body></html>`;

async function startApp(): Promise<string> {
  const app = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(OPENER_PAGE);
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  apps.push(app);
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  for (const a of apps) a.close();
  await server?.close();
});

async function popupLogin(openerOrigin: string, redirectUri: string, decision: "approve" | "deny") {
  const client = await registerClient(server.url, { redirect_uris: [redirectUri] });
  const state = `st-${Date.now()}`;
  const authorizeUrl = `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: redirectUri, response_type: "code", state, display: "popup" })}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${openerOrigin}/app`);
  await page.evaluate((url) => {
    (globalThis as unknown as { __authorizeUrl: string }).__authorizeUrl = url;
  }, authorizeUrl);
  const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#login")]);
  await popup.waitForSelector("#email");
  const email = randomEmail();
  if (decision === "approve") {
    await popup.fill("#email", email);
    await popup.fill("#password", "user-password-1");
    await popup.check('input[name="intent"]');
  }
  const closed = popup.waitForEvent("close");
  await popup.click(`#email-form button[value="${decision}"]`);
  if (decision === "approve") await enterMailedCode(popup, server.mail, email);
  await closed;
  await page.waitForTimeout(100);
  const messages = (await page.evaluate(() => (globalThis as unknown as { __messages: unknown[] }).__messages)) as Array<{
    origin: string;
    data: { from: string; type: string; data: string; state: string };
  }>;
  await context.close();
  return { messages, state, client };
}

describe("popup login in Chromium", () => {
  it("approve: the opener receives the slotgate and gameauth messages with the user JWT, then the popup closes", async () => {
    const origin = await startApp();
    const { messages, state, client } = await popupLogin(origin, `${origin}/popup-done`, "approve");
    expect(messages.map((m) => m.data.from)).toEqual(["slotgate", "gameauth"]);
    for (const m of messages) {
      expect(m.origin).toBe(server.url);
      expect(m.data).toMatchObject({ type: "success", state });
    }
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${messages[0]!.data.data}` } });
    expect(await validate.json()).toMatchObject({ token_use: "user_jwt", client_id: client.client_id });
  }, 60_000);

  it("deny: the opener receives type fail with access_denied", async () => {
    const origin = await startApp();
    const { messages } = await popupLogin(origin, `${origin}/popup-done`, "deny");
    expect(messages).toHaveLength(2);
    expect(messages[0]!.data).toMatchObject({ from: "slotgate", type: "fail", data: "access_denied" });
  }, 60_000);

  it("an opener on another origin than the registered one receives nothing (targetOrigin is never *)", async () => {
    const opener = await startApp();
    const registered = await startApp();
    const { messages } = await popupLogin(opener, `${registered}/popup-done`, "approve");
    expect(messages).toEqual([]);
  }, 60_000);
});
