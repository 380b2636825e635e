import type { Server } from "node:http";
import * as client from "openid-client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, serveHtml } from "../support/chromium.js";
import { authorizeCode, BrowserSession, call, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * The device authorization grant (RFC 8628) with a client library this project did not write
 * (openid-client's device-flow functions) as the console, and the verification page in real
 * headless Chromium as the player's phone or laptop.
 */
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
let server: TestServer;
let browser: Browser;
let opener: Server;
let openerOrigin: string;

const OPENER_PAGE = `<!doctype html><html><body><button id="link">Connect my TV</button><script>
window.__messages = [];
window.addEventListener("message", (e) => window.__messages.push({ origin: e.origin, data: e.data }));
document.getElementById("link").addEventListener("click", () => window.open(window.__verifyUrl, "slotgate", "width=600,height=500"));
</script></body></html>`;

beforeAll(async () => {
  server = await startTestServer({ DEVICE_POLL_INTERVAL_SECONDS: "1" });
  ({ origin: openerOrigin, server: opener } = await serveHtml(OPENER_PAGE));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  opener?.close();
  await server?.close();
});

/** A console: a game client registered for the device grant, configured in openid-client as a public client. */
async function newConsole(grants = [DEVICE_GRANT]) {
  const registered = await registerClient(server.url, { platform: "game", name: "Living Room Game", web_url: `${openerOrigin}/`, grant_types: grants });
  const config = await client.discovery(new URL(server.url), registered.client_id, undefined, client.None(), {
    algorithm: "oauth2",
    execute: [client.allowInsecureRequests],
  });
  return { registered, config };
}

/** A player with a verified mailbox (signed up on the authorize page with the emailed code). */
async function verifiedPlayer(): Promise<{ email: string; password: string }> {
  const { email, password } = await authorizeCode(server.url, await registerClient(server.url), { email: randomEmail("tv") });
  return { email, password };
}

/** The player enters the code, signs in (a verified account) and decides, on a plain page. */
async function decideOnPage(page: Page, userCode: string, decision: "approve" | "deny"): Promise<string> {
  await page.goto(`${server.url}/oauth/device`);
  await page.fill("#user_code", userCode.toLowerCase().replace("-", " "));
  await page.click('button[type="submit"]');
  await page.waitForSelector("#email");
  if (decision === "approve") {
    const player = await verifiedPlayer();
    await page.fill("#email", player.email);
    await page.fill("#password", player.password);
  }
  await page.click(`button[value="${decision}"]`);
  return (await page.locator("#slotgate-device-result").getAttribute("data-result")) ?? "";
}

describe("device authorization grant: openid-client + Chromium", () => {
  it("is advertised in the RFC 8414 metadata", async () => {
    const { config } = await newConsole();
    const metadata = config.serverMetadata();
    expect(metadata.device_authorization_endpoint).toBe(`${server.url}/oauth/device_authorization`);
    expect(metadata.grant_types_supported).toContain(DEVICE_GRANT);
  });

  it("approve: the console receives a token that /v1/oauth/validate accepts; the device code then works no more", async () => {
    const { registered, config } = await newConsole();
    const started = await client.initiateDeviceAuthorization(config, {});
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.verification_uri).toBe(`${server.url}/oauth/device`);
    expect(started.verification_uri_complete).toBe(`${server.url}/oauth/device?user_code=${started.user_code}`);
    expect(started.expires_in).toBe(600);
    expect(started.interval).toBe(1);

    const polling = client.pollDeviceAuthorizationGrant(config, started);
    const context = await browser.newContext();
    const result = await decideOnPage(await context.newPage(), started.user_code, "approve");
    await context.close();
    expect(result).toBe("device_approved");

    const tokens = await polling;
    expect(tokens.token_type).toBe("bearer");
    const validated = await call(server.url, "GET", "/v1/oauth/validate", { token: tokens.access_token });
    expect(validated.status).toBe(200);
    expect(validated.json).toMatchObject({ valid: true, client_id: registered.client_id, token_use: "user_jwt", user_id: tokens["user_id"] });

    const again = await call(server.url, "POST", "/oauth/token", {
      body: { grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: registered.client_id },
    });
    expect(again.status).toBe(400);
    expect(again.json["error"]).toBe("invalid_grant");
  });

  it("deny in a popup: the opener at the client's web URL hears device_denied, the popup closes, the console gets access_denied", async () => {
    const { config } = await newConsole();
    const started = await client.initiateDeviceAuthorization(config, {});
    const polling = client.pollDeviceAuthorizationGrant(config, started).then(
      () => null,
      (error: unknown) => error,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${openerOrigin}/tv`);
    await page.evaluate((url) => {
      (globalThis as unknown as { __verifyUrl: string }).__verifyUrl = url;
    }, `${started.verification_uri_complete}&display=popup`);
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#link")]);
    await popup.waitForSelector("#email");
    const closed = popup.waitForEvent("close");
    await popup.click('button[value="deny"]');
    await closed;
    const messages = await page.evaluate(() => (globalThis as unknown as { __messages: unknown[] }).__messages);
    await context.close();
    expect(messages).toEqual([{ origin: server.url, data: { from: "slotgate", type: "device_denied" } }]);

    const error = await polling;
    expect(error).toBeInstanceOf(client.ResponseBodyError);
    expect((error as client.ResponseBodyError).error).toBe("access_denied");
    expect((error as client.ResponseBodyError).status).toBe(400);
  });

  it("expiry: the console gets expired_token and the page no longer accepts the code", async () => {
    const { config } = await newConsole();
    const started = await client.initiateDeviceAuthorization(config, {});
    await server.sql("UPDATE device_authorizations SET expires_at = now() - interval '1 second' WHERE user_code = $1", [started.user_code.replace("-", "")]);
    const error = await client.pollDeviceAuthorizationGrant(config, started).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as client.ResponseBodyError).error).toBe("expired_token");

    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(started.verification_uri_complete!);
    expect(response?.status()).toBe(400);
    expect(await page.locator("#slotgate-error").textContent()).toMatch(/unknown, expired or already used/);
    await context.close();
  });

  it("polling faster than the interval: authorization_pending, then slow_down with the interval raised by 5 s", async () => {
    const { registered, config } = await newConsole();
    const started = await client.initiateDeviceAuthorization(config, {});
    const poll = () =>
      call(server.url, "POST", "/oauth/token", {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: registered.client_id }).toString(),
      });
    const first = await poll();
    expect([first.status, first.json["error"]]).toEqual([400, "authorization_pending"]);
    // A 60 s interval for this authorization, so that "sooner than the interval" holds on a slow machine too.
    await server.sql("UPDATE device_authorizations SET interval_seconds = 60 WHERE user_code = $1", [started.user_code.replace("-", "")]);
    const second = await poll();
    expect([second.status, second.json["error"]]).toEqual([400, "slow_down"]);
    expect(second.json["error_description"]).toBe(second.json["message"]);
    const rows = await server.sql<{ interval_seconds: number }>("SELECT interval_seconds FROM device_authorizations WHERE user_code = $1", [
      started.user_code.replace("-", ""),
    ]);
    expect(rows[0]?.interval_seconds).toBe(60 + 5);
  });

  it("a client not registered for the grant gets unauthorized_client; a wrong secret invalid_client", async () => {
    const { registered, config } = await newConsole(["refresh_token"]);
    const error = await client.initiateDeviceAuthorization(config, {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as client.ResponseBodyError).error).toBe("unauthorized_client");
    const wrong = await call(server.url, "POST", "/oauth/device_authorization", { body: { client_id: registered.client_id, client_secret: "not-the-secret" } });
    expect([wrong.status, wrong.json["error"]]).toEqual([401, "invalid_client"]);
  });

  it("the verification page signs in verified accounts only: sign-up there is refused (403) and creates nothing", async () => {
    const { config } = await newConsole();
    const started = await client.initiateDeviceAuthorization(config, {});
    const page = new BrowserSession(server.url);
    const form = await fetch(`${server.url}/oauth/device?user_code=${started.user_code}`, { headers: { accept: "text/html" } });
    page.cookie = form.headers.get("set-cookie")!.split(";")[0]!;
    const html = await form.text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
    expect(html).not.toContain('name="intent"');
    const email = randomEmail("tv-signup");
    const res = await fetch(`${server.url}/oauth/device`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie, accept: "text/html" },
      body: new URLSearchParams({ user_code: started.user_code, csrf_token: csrf, email, password: "user-password-1", intent: "signup", decision: "approve" }),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("sign-in window");
    expect(await server.sql("SELECT 1 FROM end_users WHERE email = $1", [email])).toHaveLength(0);
  });
});
