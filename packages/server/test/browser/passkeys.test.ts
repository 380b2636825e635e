import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enterMailedCode, launchChromium } from "../support/chromium.js";
import { BrowserSession, randomEmail, registerClient } from "../support/flows.js";
import { onFreeLoopbackPort, startTestServer, type TestServer } from "../support/harness.js";

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
let authenticatorId = "";
let cdp: Awaited<ReturnType<BrowserContext["newCDPSession"]>>;

beforeAll(async () => {
  app = createServer((_req, res) => res.end("<!doctype html><title>app</title>"));
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  REDIRECT = `http://127.0.0.1:${(app.address() as AddressInfo).port}/done`;
  server = await onFreeLoopbackPort((port) => {
    base = `http://localhost:${port}`;
    return startTestServer({ PORT: String(port), PUBLIC_URL: base });
  });
  client = await registerClient(server.url, { redirect_uris: [REDIRECT] });
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
});
afterAll(async () => {
  await browser?.close();
  app?.close();
  await server?.close();
});

const authorizeUrl = (state: string) =>
  `${base}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: "code", state })}`;
const codeOwner = async (location: string) => {
  const code = new URL(location).searchParams.get("code")!;
  const res = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });
  const body = (await res.json()) as { user_id: string };
  expect(body, JSON.stringify(body)).toHaveProperty("user_id");
  return body.user_id;
};

describe("passkeys", () => {
  let userId: string;
  let email: string;

  it("registers a passkey after signing up (the checkbox, the mailbox step, then Create a passkey)", async () => {
    email = randomEmail("passkey");
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

  it("a passkey that only proves possession (no user verification) signs no one in, even when the page is made not to ask", async () => {
    const codes = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM authorization_codes"))[0]!.n);
    const before = await codes();
    // The authenticator is present but its user is not verified (the PIN or fingerprint check fails).
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
    try {
      // The options ask for user verification; rewritten here as a tampered page or client would.
      const asked: string[] = [];
      await page.route("**/oauth/authorize/passkey", async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { options: { userVerification: string } };
        asked.push(body.options.userVerification);
        // Not asked, the authenticator answers without the UV flag: the server must refuse the answer.
        body.options.userVerification = "discouraged";
        await route.fulfill({ response, json: body });
      });
      await page.goto(authorizeUrl("st-no-uv"));
      await Promise.all([page.waitForEvent("load"), page.click("#passkey-sign-in")]);
      expect(asked).toEqual(["required"]);
      expect(page.url()).not.toContain(REDIRECT);
      expect(await page.content()).toContain("passkey could not be verified");
      expect(await codes()).toBe(before);
    } finally {
      await page.unroute("**/oauth/authorize/passkey");
      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
    }
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
    const forged = JSON.stringify({
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" },
    });
    for (const response of [forged, "not json", "[]", "x".repeat(20_000)]) {
      const res = await session.submit({ ...params, csrf_token: form.csrf, passkey_flow: flow, passkey_response: response });
      expect(res.status).toBe(401);
      expect(res.html).toContain("passkey could not be verified");
    }
    const noCsrf = await fetch(`${server.url}/oauth/authorize/passkey`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "csrf_token=x",
    });
    expect([noCsrf.status, ((await noCsrf.json()) as { error: string }).error]).toEqual([403, "csrf_failed"]);
    expect(await codes()).toBe(before);
  });

  it("a passkey made without user verification is not registered, even when the page is made not to ask", async () => {
    const passkeys = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM passkeys"))[0]!.n);
    const before = await passkeys();
    // Another authenticator (the first one holds this account's passkey, which the options exclude)
    // that cannot verify its user: it proves possession only.
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: false, automaticPresenceSimulation: true },
    });
    try {
      // The "Create a passkey" page embeds its options; rewritten here as a tampered page would.
      await page.route("**/oauth/authorize", async (route) => {
        const response = await route.fetch();
        const html = await response.text();
        await route.fulfill({ response, body: html.replace('"userVerification":"required"', '"userVerification":"discouraged"') });
      });
      await page.goto(authorizeUrl("st-register-no-uv"));
      await page.fill("#email", email);
      await page.fill("#password", "user-password-1");
      await page.check('input[name="add_passkey"]');
      await page.click('#email-form button[value="approve"]');
      await page.waitForSelector("#passkey-create");
      expect(await page.textContent("#passkey-options")).toContain('"userVerification":"discouraged"');
      await Promise.all([page.waitForEvent("load"), page.click("#passkey-create")]);
      expect(await page.content()).toContain("passkey could not be registered");
      expect(await passkeys()).toBe(before);
    } finally {
      await page.unroute("**/oauth/authorize");
    }
  });
});
