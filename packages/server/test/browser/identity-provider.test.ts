import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enterMailedCode, launchChromium } from "../support/chromium.js";
import { pkce, randomEmail, registerClient } from "../support/flows.js";
import { onFreeLoopbackPort, startTestServer, type TestServer } from "../support/harness.js";
import { type LocalIdentityProvider, startLocalIdentityProvider } from "../../src/testing/index.js";

/**
 * "Continue with the local identity provider" in real headless Chromium against a real OpenID
 * provider (node-oidc-provider on 127.0.0.1): the first sign-in creates the account and links the
 * provider's subject, a later one finds it; a provider email that an account already holds is
 * linked only after that mailbox's code; a provider without a verified email asks for one.
 */
let server: TestServer;
let idp: LocalIdentityProvider;
let browser: Browser;
let app: Server;
let appOrigin: string;

beforeAll(async () => {
  server = await onFreeLoopbackPort(async (port) => {
    idp = await startLocalIdentityProvider({ slotgateUrl: `http://127.0.0.1:${port}` });
    return startTestServer({ PORT: String(port), IDENTITY_PROVIDERS: JSON.stringify([idp.entry()]) }).catch(async (error) => {
      await idp.close();
      throw error;
    });
  });
  app = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end("<!doctype html><title>app</title><p>app</p>");
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  app?.close();
  await server?.close();
  await idp?.close();
});

/** Signs in at the local provider's development pages as `login` and consents. */
async function signInAtIdp(page: Page, login: string): Promise<void> {
  await page.waitForURL((u) => u.href.startsWith(idp.issuer));
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', "any");
  await page.click('button[type="submit"]');
  const consent = page.locator('button[type="submit"]', { hasText: /continue/i });
  if (await consent.isVisible().catch(() => false)) await consent.click();
}

async function openAuthorize(client: { client_id: string }, redirectUri: string): Promise<{ page: Page; state: string }> {
  const state = `st-${Math.random().toString(36).slice(2)}`;
  const page = await (await browser.newContext()).newPage();
  await page.goto(
    `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: redirectUri, response_type: "code", state })}`,
  );
  return { page, state };
}

const userCount = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM end_users"))[0]!.n);

describe("sign-in through an upstream OpenID provider", () => {
  it("first sign-in creates the user and links the subject (page mode: a code for that user); the next sign-in (popup mode) finds the same user and yields its JWT", async () => {
    const client = await registerClient(server.url, { redirect_uris: [`${appOrigin}/done`] });
    const email = randomEmail("idp");
    idp.accounts.set("alice-idp", { email, email_verified: true });
    const before = await userCount();

    const { page, state } = await openAuthorize(client, `${appOrigin}/done`);
    await page.click('#providers button[value="local"]');
    await signInAtIdp(page, "alice-idp");
    await page.waitForURL((u) => u.href.startsWith(`${appOrigin}/done`));
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe(state);
    const code = back.searchParams.get("code")!;
    expect(await userCount()).toBe(before + 1);
    const [user] = await server.sql<{ id: string; verified: boolean; password_hash: string | null }>(
      "SELECT id::text, email_verified_at IS NOT NULL AS verified, password_hash FROM end_users WHERE email = $1",
      [email],
    );
    expect(user).toMatchObject({ verified: true, password_hash: null });
    expect(await server.sql("SELECT provider_id, subject FROM identity_links WHERE user_id = $1", [user!.id])).toEqual([
      { provider_id: "local", subject: "alice-idp" },
    ]);

    const token = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: `${appOrigin}/done`,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    });
    expect(((await token.json()) as { user_id: string }).user_id).toBe(user!.id);

    // The popup mode of the same provider gives a user JWT; the backend SDK turns it into slot info.
    await page.context().close();
    const popupState = `st-popup-${Date.now()}`;
    const again = await (await browser.newContext()).newPage();
    await again.goto(
      `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: `${appOrigin}/done`, response_type: "code", state: popupState, display: "popup" })}`,
    );
    await again.click('#providers button[value="local"]');
    await signInAtIdp(again, "alice-idp");
    // No opener here: the popup result page hands over through the redirect URI's fragment.
    await again.waitForURL((u) => u.href.startsWith(`${appOrigin}/done#`));
    const fragment = new URLSearchParams(new URL(again.url()).hash.slice(1));
    expect([fragment.get("type"), fragment.get("state")]).toEqual(["success", popupState]);
    const jwt = fragment.get("data")!;
    expect(jwt.split(".")).toHaveLength(3);
    expect(await userCount()).toBe(before + 1);

    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(await validate.json()).toMatchObject({ user_id: user!.id, token_use: "user_jwt", client_id: client.client_id });
    await again.context().close();
  });

  it("without state, with PKCE S256: the provider round trip (sign_in_flows) keeps no state and the app gets a code and no state, redeemed with the verifier", async () => {
    const client = await registerClient(server.url, { redirect_uris: [`${appOrigin}/done`] });
    idp.accounts.set("pkce-idp", { email: randomEmail("pkce"), email_verified: true });
    const { verifier, challenge } = pkce();
    const page = await (await browser.newContext()).newPage();
    await page.goto(
      `${server.url}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: `${appOrigin}/done`, response_type: "code", code_challenge: challenge, code_challenge_method: "S256" })}`,
    );
    await page.click('#providers button[value="local"]');
    await page.waitForURL((u) => u.href.startsWith(idp.issuer));
    const [flow] = await server.sql<{ params: Record<string, string> }>(
      "SELECT payload->'params' AS params FROM sign_in_flows WHERE kind = 'oidc' ORDER BY created_at DESC LIMIT 1",
    );
    expect(flow!.params).toMatchObject({ client_id: client.client_id, code_challenge: challenge, code_challenge_method: "S256" });
    expect(Object.keys(flow!.params)).not.toContain("state");
    await signInAtIdp(page, "pkce-idp");
    await page.waitForURL((u) => u.href.startsWith(`${appOrigin}/done`));
    const back = new URL(page.url());
    expect(back.searchParams.has("state")).toBe(false);
    const token = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: `${appOrigin}/done`,
        client_id: client.client_id,
        client_secret: client.client_secret,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    await page.context().close();
  });

  it("a provider email that an existing account holds is linked only after that mailbox's code (proving both)", async () => {
    const client = await registerClient(server.url, { redirect_uris: [`${appOrigin}/done`] });
    const email = randomEmail("both");
    // The account exists (signed up with email and password).
    const { page: signUp } = await openAuthorize(client, `${appOrigin}/done`);
    await signUp.fill("#email", email);
    await signUp.fill("#password", "user-password-1");
    await signUp.check('input[name="intent"]');
    await signUp.click('#email-form button[value="approve"]');
    await enterMailedCode(signUp, server.mail, email);
    await signUp.waitForURL((u) => u.href.startsWith(`${appOrigin}/done`));
    const [account] = await server.sql<{ id: string }>("SELECT id::text FROM end_users WHERE email = $1", [email]);
    await signUp.context().close();

    idp.accounts.set("bob-idp", { email, email_verified: true });
    const { page } = await openAuthorize(client, `${appOrigin}/done`);
    await page.click('#providers button[value="local"]');
    await signInAtIdp(page, "bob-idp");
    await page.waitForSelector("#otp");
    expect(await page.textContent("#slotgate-code-reason")).toContain("already exists");
    expect(await server.sql("SELECT 1 FROM identity_links WHERE subject = 'bob-idp'")).toHaveLength(0);
    await enterMailedCode(page, server.mail, email);
    await page.waitForURL((u) => u.href.startsWith(`${appOrigin}/done`));
    expect(await server.sql("SELECT user_id::text AS user_id FROM identity_links WHERE subject = 'bob-idp'")).toEqual([{ user_id: account!.id }]);
    await page.context().close();
  });

  it("a provider that vouches for no email: the player gives one and proves it before the account is created and linked", async () => {
    const client = await registerClient(server.url, { redirect_uris: [`${appOrigin}/done`] });
    const email = randomEmail("noemail");
    const { page } = await openAuthorize(client, `${appOrigin}/done`);
    await page.click('#providers button[value="local"]');
    await signInAtIdp(page, "carol-idp"); // no email claim
    await page.waitForSelector("#idp-email-form");
    await page.fill("#email", email);
    await page.click('#idp-email-form button[value="approve"]');
    await enterMailedCode(page, server.mail, email);
    await page.waitForURL((u) => u.href.startsWith(`${appOrigin}/done`));
    const rows = await server.sql<{ verified: boolean }>(
      "SELECT u.email_verified_at IS NOT NULL AS verified FROM identity_links l JOIN end_users u ON u.id = l.user_id WHERE l.subject = 'carol-idp' AND u.email = $1",
      [email],
    );
    expect(rows).toEqual([{ verified: true }]);
    await page.context().close();
  });

  it("the callback refuses an unknown or replayed state, and one opened in another browser, changing nothing", async () => {
    const before = await userCount();
    const unknown = await fetch(`${server.url}/oauth/idp/callback?state=${"x".repeat(43)}&code=abc`, { headers: { accept: "text/html" } });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('data-code="invalid_request"');
    const none = await fetch(`${server.url}/oauth/idp/callback`);
    expect([none.status, ((await none.json()) as { error: string }).error]).toEqual([400, "invalid_request"]);
    const repeated = await fetch(`${server.url}/oauth/idp/callback?state=a&state=b`);
    expect(repeated.status).toBe(400);
    expect(await userCount()).toBe(before);
  });
});
