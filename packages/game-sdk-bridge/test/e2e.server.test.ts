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
import { freeLoopbackPort, type ReferenceServer, readMailbox, startReferenceServer, waitForMailedCode } from "@slotgate/server/testing";
import { type Browser, chromium } from "playwright-core";
import { runCliBinary } from "./helpers/cli-binary.js";
import { SHORT_DEVICE_CODE_SECONDS, type ShortLivedDeviceServer, startShortLivedDeviceServer } from "./helpers/short-lived-device-server.js";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DeviceCodePrompt, type LoginResult, login, loginWithDeviceCode } from "../src/index.js";

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
  let deviceClientId = "";
  /** A public client (no secret) registered with the port-less loopback URI: PKCE S256, any port. */
  let publicClientId = "";
  const PUBLIC_REDIRECT = "http://127.0.0.1/callback";
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
      env: { SLOTGATE_SEED_DEMO: "false", DEVICE_POLL_INTERVAL_SECONDS: "1" },
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
        const consoleClient = run([
          "client",
          "create",
          "--name",
          "game-sdk-bridge console e2e",
          "--redirect-uri",
          "https://console.game.example/unused",
          "--download-url",
          "https://game.example/download",
          "--web-url",
          "https://game.example",
          "--platform",
          "game",
          "--grant-type",
          "urn:ietf:params:oauth:grant-type:device_code",
        ]) as Record<string, unknown>;
        deviceClientId = String(consoleClient["client_id"]);
        const publicClient = run([
          "client",
          "create",
          "--name",
          "game-sdk-bridge public e2e",
          "--redirect-uri",
          PUBLIC_REDIRECT,
          "--download-url",
          "https://game.example/download",
          "--web-url",
          "https://game.example",
          "--platform",
          "game",
          "--public",
        ]) as Record<string, unknown>;
        publicClientId = String(publicClient["client_id"]);
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
    /** The authorize URL the login opened. */
    authorizeUrl?: URL;
    /** Where the tab ended up and what it shows, after the loopback page loaded. */
    finalUrl?: string;
    heading?: string | null;
  }

  /**
   * Plays the player in Chromium on the authorize page: email and password (creating the
   * player account with the page's sign-up box when `signUp`), then the decision button.
   * The confidential client by default; `client` names another (the public one).
   */
  async function signInWithChromium(decision: "approve" | "deny", signUp = false, client?: { ClientId: string; RedirectUri: string }): Promise<Played> {
    const context = await browser.newContext();
    const played: Partial<Played> = {};
    let flow: Promise<void> = Promise.resolve();
    try {
      const result = await login(
        { ClientId: client?.ClientId ?? clientId, RedirectUri: client?.RedirectUri ?? redirectUri, SlotgateUrl: server.url },
        {
          timeoutMs: 60_000,
          openBrowser: (url) => {
            played.authorizeUrl = new URL(url);
            flow = (async () => {
              const page = await context.newPage();
              await page.goto(url);
              await page.fill('[name="email"]', email);
              await page.fill('[name="password"]', password);
              if (signUp) await page.locator('[name="intent"][value="signup"]').check();
              const mailedBefore = readMailbox(server.dataDir, { to: email, limit: 1 })[0]?.id;
              await page.locator(`[name="decision"][value="${decision}"]`).click();
              if (signUp && decision === "approve") {
                // The mailbox step: the code from the development mailbox in the server's data directory.
                await page.waitForSelector('[name="otp"]');
                await page.fill('[name="otp"]', await waitForMailedCode(server.dataDir, email, mailedBefore === undefined ? {} : { after: mailedBefore }));
                await page.locator('[name="decision"][value="approve"]').click();
              }
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

  it("a public client: PKCE S256 on a port the system picked, the code redeemed with the verifier for a JWT the server validates", async () => {
    const { result, flowError, authorizeUrl, finalUrl, heading } = await signInWithChromium("approve", false, {
      ClientId: publicClientId,
      RedirectUri: PUBLIC_REDIRECT,
    });
    expect(flowError, String(flowError)).toBeUndefined();
    expect(result.ErrorMessage).toBeNull();
    expect(result.Success).toBe(true);
    const sent = Object.fromEntries(authorizeUrl!.searchParams);
    expect(sent).toMatchObject({ client_id: publicClientId, code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), code_challenge_method: "S256" });
    const port = Number(new URL(sent["redirect_uri"]!).port);
    expect(port).toBeGreaterThan(0);
    expect(sent["redirect_uri"]).toBe(`http://127.0.0.1:${port}/callback`);
    expect(heading).toBe("Signed in to Slotgate");
    expect(finalUrl).toBe(sent["redirect_uri"]);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${result.Jwt}` } });
    expect(validate.status).toBe(200);
    expect(await validate.json()).toMatchObject({ client_id: publicClientId, token_use: "user_jwt" });
  }, 120_000);

  it("slotgate-login with the public client: the same PKCE login from the CLI, one JSON line with the JWT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "slotgate-e2e-cli-"));
    const log = join(dir, "authorize-url.txt");
    try {
      const run = runCliBinary(["--client-id", publicClientId, "--redirect-uri", PUBLIC_REDIRECT, "--slotgate-url", server.url, "--timeout-ms", "60000"], {
        SLOTGATE_BROWSER: `${process.execPath} ${resolve(import.meta.dirname, "fixtures/fake-browser.mjs")}`,
        FAKE_BROWSER_MODE: "ignore",
        FAKE_BROWSER_LOG: log,
      });
      // The stand-in browser only writes the URL down; the player opens it in Chromium.
      await vi.waitUntil(() => existsSync(log) && readFileSync(log, "utf8") !== "", { timeout: 30_000, interval: 100 });
      const url = readFileSync(log, "utf8");
      expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(url);
        await page.fill('[name="email"]', email);
        await page.fill('[name="password"]', password);
        await page.locator('[name="decision"][value="approve"]').click();
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
        expect(await page.locator("h1").textContent()).toBe("Signed in to Slotgate");
      } finally {
        await context.close();
      }
      const done = await run.done;
      expect(done.code, done.stderr).toBe(0);
      const line = JSON.parse(done.stdout.trim()) as LoginResult;
      expect(line).toMatchObject({ Success: true, ErrorCode: null });
      const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${line.Jwt}` } });
      expect(await validate.json()).toMatchObject({ client_id: publicClientId, token_use: "user_jwt" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("reports access_denied when the player denies", async () => {
    const { result, flowError, heading } = await signInWithChromium("deny");
    expect(flowError, String(flowError)).toBeUndefined();
    expect(result.Success).toBe(false);
    expect(result.ErrorCode).toBe("access_denied");
    expect(heading).toBe("Sign-in failed");
  }, 120_000);

  /** The player on a phone: opens the verification URL with the code filled in, signs in, decides. */
  async function decideOnPhone(prompt: DeviceCodePrompt, decision: "approve" | "deny"): Promise<string | null> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(prompt.VerificationUriComplete);
      await page.fill('[name="email"]', email);
      await page.fill('[name="password"]', password);
      await page.locator(`[name="decision"][value="${decision}"]`).click();
      return await page.locator("#slotgate-device-result").getAttribute("data-result");
    } finally {
      await context.close();
    }
  }

  it("loginWithDeviceCode: the code entered and approved in Chromium yields a JWT the server validates", async () => {
    let phone: Promise<string | null> = Promise.resolve(null);
    const prompts: DeviceCodePrompt[] = [];
    const result = await loginWithDeviceCode(
      { ClientId: deviceClientId, SlotgateUrl: server.url },
      {
        onUserCode: (prompt) => {
          prompts.push(prompt);
          phone = decideOnPhone(prompt, "approve");
        },
      },
    );
    expect(await phone).toBe("device_approved");
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ VerificationUri: `${server.url}/oauth/device`, ExpiresIn: 600, userCode: prompts[0]!.UserCode });
    expect(result.ErrorMessage).toBeNull();
    expect(result.Success).toBe(true);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${result.Jwt}` } });
    expect(validate.status).toBe(200);
    expect(await validate.json()).toMatchObject({ client_id: deviceClientId, token_use: "user_jwt" });
  }, 120_000);

  it("loginWithDeviceCode: access_denied when the player denies; invalid_config for a client without the grant", async () => {
    let phone: Promise<string | null> = Promise.resolve(null);
    const denied = await loginWithDeviceCode(
      { clientId: deviceClientId, slotgateUrl: server.url },
      {
        onUserCode: (p) => {
          phone = decideOnPhone(p, "deny");
        },
      },
    );
    expect(await phone).toBe("device_denied");
    expect(denied).toMatchObject({ Success: false, ErrorCode: "access_denied", Jwt: null });
    const unregistered = await loginWithDeviceCode({ ClientId: clientId, SlotgateUrl: server.url }, { onUserCode: () => {} });
    expect(unregistered.ErrorCode).toBe("invalid_config");
    expect(unregistered.ErrorMessage).toContain("unauthorized_client");
  }, 120_000);

  it("slotgate-login --device prints the prompt line, then the result line once the player approved", async () => {
    const run = runCliBinary(["--device", "--client-id", deviceClientId, "--slotgate-url", server.url]);
    const prompt = JSON.parse(await run.firstLine) as DeviceCodePrompt;
    expect(prompt.UserCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(await decideOnPhone({ ...prompt, VerificationUriComplete: prompt.VerificationUriComplete }, "approve")).toBe("device_approved");
    const done = await run.done;
    expect(done.code).toBe(0);
    const lines = done.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ Success: true, ErrorCode: null });
    expect(done.stderr).toContain(prompt.UserCode);
    expect(done.stderr).toMatch(/[\u2580\u2584\u2588]/);
    const validate = await fetch(`${server.url}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${String(lines[1]!["Jwt"])}` } });
    expect(validate.status).toBe(200);
  }, 120_000);
});

describe("loginWithDeviceCode to a device code's expiry, against a server whose codes live 2 s", () => {
  let expiring: ShortLivedDeviceServer;
  const EXPIRED = "The code expired before the player entered it. Start the login again.";

  beforeAll(async () => {
    expiring = await startShortLivedDeviceServer("game-sdk-bridge e2e");
  }, 180_000);

  afterAll(async () => {
    await expiring?.server.close();
  });

  it("a code nobody enters ends in code_expired once the server answers expired_token", async () => {
    const prompts: DeviceCodePrompt[] = [];
    const started = Date.now();
    const result = await loginWithDeviceCode({ ClientId: expiring.clientId, SlotgateUrl: expiring.server.url }, { onUserCode: (p) => void prompts.push(p) });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ ExpiresIn: SHORT_DEVICE_CODE_SECONDS, VerificationUri: `${expiring.server.url}/oauth/device` });
    expect(result).toEqual({
      Success: false,
      Jwt: null,
      ErrorCode: "code_expired",
      ErrorMessage: EXPIRED,
      success: false,
      jwt: null,
      errorCode: "code_expired",
      errorMessage: EXPIRED,
    });
    // It polled until the code's lifetime was over, not given up before.
    expect(Date.now() - started).toBeGreaterThanOrEqual(SHORT_DEVICE_CODE_SECONDS * 1000);
  }, 60_000);

  it("slotgate-login --device: the prompt line, then code_expired and exit status 1", async () => {
    const run = runCliBinary(["--device", "--client-id", expiring.clientId, "--slotgate-url", expiring.server.url]);
    const done = await run.done;
    const lines = done.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ ExpiresIn: SHORT_DEVICE_CODE_SECONDS });
    expect(lines[1]).toMatchObject({ Success: false, Jwt: null, ErrorCode: "code_expired", ErrorMessage: EXPIRED });
    expect(done.code).toBe(1);
  }, 60_000);
});
