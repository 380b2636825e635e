import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeLoopbackPort } from "../../src/testing/free-port.js";
import { enterMailedCode, launchChromium } from "../support/chromium.js";
import { BrowserSession, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Passkeys in real headless Chromium with a virtual authenticator (Chrome DevTools Protocol
 * `WebAuthn.addVirtualAuthenticator`): register a passkey after signing up (mailbox step included),
 * then sign in with the passkey alone. WebAuthn needs a domain, so the server's public URL is
 * `http://localhost:{port}` (a secure context).
 */
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let client: Awaited<ReturnType<typeof registerClient>>;
let base: string;
let app: Server;
let REDIRECT = "";

beforeAll(async () => {
  app = createServer((_req, res) => res.end("<!doctype html><title>app</title>"));
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  REDIRECT = `http://127.0.0.1:${(app.address() as AddressInfo).port}/done`;
  const port = await freeLoopbackPort();
  base = `http://localhost:${port}`;
  server = await startTestServer({ PORT: String(port), PUBLIC_URL: base });
  client = await registerClient(server.url, { redirect_uris: [REDIRECT] });
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
});
afterAll(async () => {
  await browser?.close();
  app?.close();
  await server?.close();
});

const authorizeUrl = (state: string) => `${base}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: "code", state })}`;
const codeOwner = async (location: string) => {
  const code = new URL(location).searchParams.get("code")!;
  const res = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: client.client_id, client_secret: client.client_secret }),
  });
  const body = (await res.json()) as { user_id: string };
  expect(body, JSON.stringify(body)).toHaveProperty("user_id");
  return body.user_id;
};

describe("passkeys", () => {
  let userId: string;

  it("registers a passkey after signing up (the checkbox, the mailbox step, then Create a passkey)", async () => {
    const email = randomEmail("passkey");
    await page.goto(authorizeUrl("st-register"));
    await page.fill("#email", email);
    await page.fill("#password", "user-password-1");
    await page.check('input[name="intent"]');
    await page.check('input[name="add_passkey"]');
    await page.click('#email-form button[value="approve"]');
    await enterMailedCode(page, server.mail, email);
    await page.waitForSelector("#passkey-create");
    await page.click("#passkey-create");
    await page.waitForURL((u) => u.href.startsWith(REDIRECT));
    expect(new URL(page.url()).searchParams.get("state")).toBe("st-register");
    userId = await codeOwner(page.url());
    const rows = await server.sql<{ user_id: string; sign_count: number }>("SELECT user_id::text, sign_count::int AS sign_count FROM passkeys");
    expect(rows).toEqual([{ user_id: userId, sign_count: expect.any(Number) }]);
  });

  it("signs in with the passkey alone: no email, no password", async () => {
    await page.goto(authorizeUrl("st-passkey"));
    expect(await page.inputValue("#email")).toBe("");
    await page.click("#passkey-sign-in");
    await page.waitForURL((u) => u.href.startsWith(REDIRECT));
    expect(new URL(page.url()).searchParams.get("state")).toBe("st-passkey");
    expect(await codeOwner(page.url())).toBe(userId);
    const [row] = await server.sql<{ used: boolean }>("SELECT last_used_at IS NOT NULL AS used FROM passkeys WHERE user_id = $1", [userId]);
    expect(row!.used).toBe(true);
  });

  it("a forged, replayed or foreign passkey response is refused with the sign-in page (401) and signs no one in", async () => {
    const codes = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM authorization_codes"))[0]!.n);
    const before = await codes();
    const session = new BrowserSession(server.url);
    const params = { client_id: client.client_id, redirect_uri: REDIRECT, response_type: "code", state: "st-forged" };
    const form = await session.open(params);
    const challenge = await fetch(`${server.url}/oauth/authorize/passkey`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: session.cookie },
      body: new URLSearchParams({ csrf_token: form.csrf }),
    });
    const { flow } = (await challenge.json()) as { flow: string };
    const forged = JSON.stringify({ id: "AAAA", rawId: "AAAA", type: "public-key", clientExtensionResults: {}, response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" } });
    for (const response of [forged, "not json", "[]", "x".repeat(20_000)]) {
      const res = await session.submit({ ...params, csrf_token: form.csrf, passkey_flow: flow, passkey_response: response });
      expect(res.status).toBe(401);
      expect(res.html).toContain("passkey could not be verified");
    }
    const noCsrf = await fetch(`${server.url}/oauth/authorize/passkey`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "csrf_token=x" });
    expect([noCsrf.status, ((await noCsrf.json()) as { error: string }).error]).toEqual([403, "csrf_failed"]);
    expect(await codes()).toBe(before);
  });
});
