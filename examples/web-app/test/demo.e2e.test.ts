import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { waitForMailedCode } from "@slotgate/server/testing";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Drives the demo that `npm start` serves, from popup sign-up to release, in headless Chromium, and
// saves a screenshot per step (test-results/screenshots; docs/images with SLOTGATE_UPDATE_SCREENSHOTS=1).

const repo = resolve(import.meta.dirname, "../../..");
const shots = process.env["SLOTGATE_UPDATE_SCREENSHOTS"] === "1" ? join(repo, "docs/images") : join(import.meta.dirname, "../test-results/screenshots");

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

let start: ChildProcess;
let dataDir: string;
let service: string;
let web: string;
let slotAddress = "";
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Runs scripts/start.mjs (what `npm start` runs after building) and waits for its banner. */
async function bootDemo(port: number, webPort: number): Promise<void> {
  start = spawn(process.execPath, [join(repo, "scripts/start.mjs")], {
    // ANVIL_PORT=0: the development chain on a free port (a developer's own chain may hold 8545).
    env: { ...process.env, PORT: String(port), WEB_PORT: String(webPort), LOCAL_IDP_PORT: String(idpPort), SLOTGATE_DATA_DIR: dataDir, RATE_LIMIT: "off", ANVIL_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  start.stderr?.on("data", (d: Buffer) => {
    log += d.toString();
  });
  await new Promise<void>((ok, fail) => {
    let out = "";
    start.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("Press Ctrl-C to stop.")) ok();
    });
    start.once("exit", (code) => fail(new Error(`npm start exited with ${code}:\n${log}`)));
  });
}

let ports: [number, number];
let idpPort: number;

/**
 * A virtual authenticator (Chrome DevTools Protocol) on a popup, holding `credentials` (to carry a passkey
 * from one popup to the next: each page target has its own authenticator).
 */
async function authenticatorOn(target: Page, credentials: unknown[] = []): Promise<void> {
  const cdp = await context.newCDPSession(target);
  await cdp.send("WebAuthn.enable");
  cdp.on("WebAuthn.credentialAdded", (event) => passkeys.push(event.credential));
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  for (const credential of credentials) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: credential as never });
}
const passkeys: unknown[] = [];

beforeAll(async () => {
  ports = [await freePort(), await freePort()];
  idpPort = await freePort();
  const [port, webPort] = ports;
  service = `http://localhost:${port}`;
  web = `http://127.0.0.1:${webPort}`;
  dataDir = mkdtempSync(join(tmpdir(), "slotgate-demo-e2e-"));
  mkdirSync(shots, { recursive: true });
  await bootDemo(port, webPort);

  browser = await chromium.launch({
    executablePath: process.env["SLOTGATE_CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  context = await browser.newContext({ viewport: { width: 1000, height: 1400 } });
  page = await context.newPage();
  await page.goto(`${web}/`);
  await page.waitForSelector("body[data-ready=true]");
});

async function stopDemo(): Promise<void> {
  if (start && start.exitCode === null) {
    const exited = new Promise((ok) => start.once("exit", ok));
    start.kill("SIGTERM");
    await exited;
  }
}

afterAll(async () => {
  await browser?.close();
  await stopDemo();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Clicks a step's button and waits for the step to finish; returns its state and printed output. */
async function runStep(step: string, button: string): Promise<{ state: string; out: string }> {
  await page.click(`#${button}`);
  await page.waitForSelector(`#step-${step}:is([data-state=ok],[data-state=error])`, { timeout: 45_000 });
  const state = (await page.getAttribute(`#step-${step}`, "data-state")) ?? "";
  const out = (await page.textContent(`#step-${step} .out`)) ?? "";
  return { state, out };
}

async function shot(name: string, target: Page = page): Promise<void> {
  await target.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** Expects a step to succeed and returns its JSON answer. */
function expectOk(result: { state: string; out: string }): Record<string, Record<string, unknown>> {
  expect(result.state, result.out).toBe("ok");
  return JSON.parse(result.out) as Record<string, Record<string, unknown>>;
}

describe("the npm start demo, driven in headless Chromium", () => {
  const email = `player-${Date.now().toString(36)}@example.com`;

  it("1. signs a new player up in the popup (with the emailed code), adds a passkey, and shows the slot info from the backend", async () => {
    await shot("demo-00-start");
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
    await authenticatorOn(popup);
    await popup.waitForSelector('input[name="email"]');
    expect(await popup.textContent("#providers")).toContain("Continue with the local identity provider");
    expect(await popup.isVisible("#passkey-sign-in")).toBe(true);
    await popup.fill('input[name="email"]', email);
    await popup.fill('input[name="password"]', "correct horse battery");
    await popup.check('input[name="intent"][value="signup"]');
    await popup.check('input[name="add_passkey"]');
    await shot("demo-01-popup", popup);
    await popup.click('button[name="decision"][value="approve"]');
    // The mailbox step: the code goes to the development mailbox in the data directory (no SMTP_URL).
    await popup.waitForSelector('input[name="otp"]');
    await shot("demo-01-mailbox-step", popup);
    await popup.fill('input[name="otp"]', await waitForMailedCode(dataDir, email));
    await popup.click('button[name="decision"][value="approve"]');
    await popup.waitForSelector("#passkey-create");
    await shot("demo-01-passkey", popup);
    await popup.click("#passkey-create");
    await page.waitForSelector("#step-login:is([data-state=ok],[data-state=error])", { timeout: 45_000 });
    const out = (await page.textContent("#step-login .out")) ?? "";
    expect(await page.getAttribute("#step-login", "data-state"), out).toBe("ok");
    const result = JSON.parse(out) as { slot_info_from_backend: Record<string, unknown> };
    expect(result.slot_info_from_backend).toMatchObject({ user_id: expect.stringMatching(/^\d+$/), token_nickname: email.split("@")[0], tr_cnt: 0 });
    expect(result.slot_info_from_backend["content_address"]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    slotAddress = String(result.slot_info_from_backend["content_address"]);
    expect(out).not.toContain("access_token");
    await shot("demo-02-slot-info");
  });

  it("2. records the login status: the slot is not transferable while playing", async () => {
    const body = expectOk(await runStep("status", "status-login")) as unknown as { login: { status: string }; check: { status: string; transfer_enabled: boolean } };
    expect(body.login.status).toBe("logged_in");
    expect(body.check).toMatchObject({ status: "logged_in", transfer_enabled: false });
    await shot("demo-03-status-login");
  });

  it("3. buys 100 content tokens (15 % platform fee)", async () => {
    const body = expectOk(await runStep("buy", "buy"));
    expect(body["funded"]).toBe(true);
    expect(body["purchase"]).toMatchObject({ token_amount: "100", platform_fee: "15", provider_received: "85" });
    await shot("demo-04-buy");
  });

  it("4. spends 25 through the encrypted call", async () => {
    const body = expectOk(await runStep("spend", "spend"));
    expect(body["spend"]).toMatchObject({ amount: "25", balance: "75", used_balances: "25" });
    await shot("demo-05-spend");
  });

  it("5. reads the balances from the chain", async () => {
    const body = expectOk(await runStep("balance", "balance"));
    expect(body["balance"]).toMatchObject({ balance: "75", used_balances: "25" });
    // The same figures straight from the service's public balance endpoint (read from the chain).
    const direct = await fetch(`${service}/v1/development-api/balance_adex/${slotAddress}?cuid=slotgate-demo`);
    expect(await direct.json()).toMatchObject({ success: true, slot: slotAddress, balance: "75", used_balances: "25" });
    await shot("demo-06-balance");
  });

  it("6. logs out: status logged_out, transfer enabled, JWT cleared in the browser", async () => {
    const body = expectOk(await runStep("logout", "logout")) as unknown as { logout: { transfer_enabled: boolean }; check: { status: string; transfer_enabled: boolean }; browser_logged_in: boolean };
    expect(body.logout.transfer_enabled).toBe(true);
    expect(body.check).toMatchObject({ status: "logged_out", transfer_enabled: true });
    expect(body.browser_logged_in).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("slotgate_access_token"))).toBeNull();
    await shot("demo-07-logout");
  });

  it("7. releases the used tokens to the provider", async () => {
    const body = expectOk(await runStep("release", "release"));
    // release_per 50: floor(25 used * 15 % fee * 50 %) = 1
    expect(body["release"]).toMatchObject({ released_amount: "1" });
    await shot("demo-08-release");
  });

  it("8. a second npm start on the same data directory finds the same balances and continues the journey (sign in with the passkey alone)", async () => {
    await stopDemo();
    await bootDemo(...ports);
    // The development chain kept its state: the slot has what the first run left (75 held, 25 used).
    const kept = await fetch(`${service}/v1/development-api/balance_adex/${slotAddress}?cuid=slotgate-demo`);
    expect(await kept.json()).toMatchObject({ success: true, slot: slotAddress, balance: "75", used_balances: "25" });
    page = await context.newPage();
    await page.goto(`${web}/`);
    await page.waitForSelector("body[data-ready=true]");
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
    expect(passkeys).toHaveLength(1); // the passkey created in step 1, carried to this popup's authenticator
    await authenticatorOn(popup, passkeys);
    await popup.waitForSelector("#passkey-sign-in");
    await popup.click("#passkey-sign-in");
    await page.waitForSelector("#step-login:is([data-state=ok],[data-state=error])", { timeout: 45_000 });
    expect(await page.getAttribute("#step-login", "data-state"), (await page.textContent("#step-login .out")) ?? "").toBe("ok");
    expect(expectOk(await runStep("buy", "buy"))["purchase"]).toMatchObject({ token_amount: "100" });
    const spend = expectOk(await runStep("spend", "spend"))["spend"];
    const balance = expectOk(await runStep("balance", "balance"))["balance"];
    // The same slot wallet, continuing from the first run: 75 + 100 - 25 held, 25 + 25 used.
    expect(balance).toMatchObject({ slot: slotAddress, balance: "150", used_balances: "50" });
    expect(spend).toMatchObject({ amount: "25", balance: "150", used_balances: "50" });
  });

  it("9. a new player signs in with the local identity provider: account created and linked, slot info from the backend", async () => {
    expectOk(await runStep("logout", "logout"));
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login")]);
    await popup.waitForSelector("#providers");
    await popup.click('#providers button[value="local"]');
    await popup.waitForSelector('input[name="login"]');
    await shot("demo-09-identity-provider", popup);
    await popup.fill('input[name="login"]', "idp-player");
    await popup.fill('input[name="password"]', "anything");
    await popup.click('button[type="submit"]');
    const consent = popup.locator('button[type="submit"]', { hasText: /continue/i });
    if (await consent.isVisible().catch(() => false)) await consent.click();
    await page.waitForSelector("#step-login:is([data-state=ok],[data-state=error])", { timeout: 45_000 });
    const out = (await page.textContent("#step-login .out")) ?? "";
    expect(await page.getAttribute("#step-login", "data-state"), out).toBe("ok");
    const result = JSON.parse(out) as { slot_info_from_backend: Record<string, unknown> };
    expect(result.slot_info_from_backend).toMatchObject({ user_id: expect.stringMatching(/^\d+$/), token_nickname: "idp-player" });
  });
});
