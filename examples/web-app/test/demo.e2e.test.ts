import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { waitForMailedCode } from "@slotgate/server/testing";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Drives what `npm start` serves in headless Chromium — the demo from popup sign-up to release, several
// slots per player, and the marketplace loop (list while logged out, a second player buys, the seller hands
// the slot over with the PIN, the buyer plays it with its record) — before and after a restart of the whole
// stack, and saves a screenshot per step (test-results/screenshots; docs/images with SLOTGATE_UPDATE_SCREENSHOTS=1).

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
let market: string;
let slotAddress = "";
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Runs scripts/start.mjs (what `npm start` runs after building) and waits for its banner. */
async function bootDemo(port: number, webPort: number, marketPort: number): Promise<void> {
  start = spawn(process.execPath, [join(repo, "scripts/start.mjs")], {
    // ANVIL_PORT=0: the development chain on a free port (a developer's own chain may hold 8545).
    env: {
      ...process.env,
      PORT: String(port),
      WEB_PORT: String(webPort),
      MARKET_PORT: String(marketPort),
      LOCAL_IDP_PORT: String(idpPort),
      SLOTGATE_DATA_DIR: dataDir,
      RATE_LIMIT: "off",
      ANVIL_PORT: "0",
    },
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

let ports: [number, number, number];
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
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  for (const credential of credentials) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: credential as never });
}
const passkeys: unknown[] = [];

beforeAll(async () => {
  ports = [await freePort(), await freePort(), await freePort()];
  idpPort = await freePort();
  const [port, webPort, marketPort] = ports;
  service = `http://localhost:${port}`;
  web = `http://127.0.0.1:${webPort}`;
  market = `http://127.0.0.1:${marketPort}`;
  dataDir = mkdtempSync(join(tmpdir(), "slotgate-demo-e2e-"));
  mkdirSync(shots, { recursive: true });
  await bootDemo(port, webPort, marketPort);

  browser = await chromium.launch({
    executablePath: process.env["SLOTGATE_CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
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

/**
 * With SLOTGATE_RSS_REPORT=<file> (bench/memory/demo-rss.mjs sets it): writes the resident memory of every
 * process `npm start` runs (read from /proc, Linux only) at this point of the journey. Instrumentation, not a check.
 */
function reportMemory(when: string): void {
  const file = process.env["SLOTGATE_RSS_REPORT"];
  if (!file || !start.pid || !existsSync("/proc")) return;
  const processes: Array<{ pid: number; command: string; rss_mb: number }> = [];
  const visit = (pid: number) => {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).slice(0, 3).join(" ");
    processes.push({ pid, command, rss_mb: Math.round(rss) });
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    for (const child of children ? children.split(" ").map(Number) : []) visit(child);
  };
  visit(start.pid);
  writeFileSync(file, JSON.stringify({ when, processes }, null, 2));
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

const CUID = "slotgate-demo";

/** A slot as the demo's `/api/slots` routes answer it (the service's SlotView). */
interface SlotRow {
  cuid: string;
  meta_idx: number;
  slot: string;
  state: string;
  tr_cnt: number;
}
const PIN = "135790";

interface Account {
  email: string;
  password: string;
}

/** Opens a Slotgate popup by clicking `button` on `target` and signs in (or up, with the mailed code) with email and password. */
async function popupSignIn(target: Page, button: string, who: Account, signUp = false): Promise<void> {
  const [popup] = await Promise.all([target.context().waitForEvent("page"), target.click(button)]);
  await signInOn(popup, who, signUp);
}

/** Fills the service's sign-in form on `popup` (with the mailed code for a sign-up). */
async function signInOn(popup: Page, who: Account, signUp = false): Promise<void> {
  await popup.waitForSelector('input[name="email"]');
  await popup.fill('input[name="email"]', who.email);
  await popup.fill('input[name="password"]', who.password);
  if (signUp) await popup.check('input[name="intent"][value="signup"]');
  await popup.click('button[name="decision"][value="approve"]');
  if (signUp) {
    await popup.waitForSelector('input[name="otp"]');
    await popup.fill('input[name="otp"]', await waitForMailedCode(dataDir, who.email));
    await popup.click('button[name="decision"][value="approve"]');
  }
}

/** Clicks `button` on `target`, which opens the Slotgate wallet window, and answers the window, loaded. */
async function walletWindow(target: Page, button: string): Promise<Page> {
  const [popup] = await Promise.all([target.context().waitForEvent("page"), target.click(button)]);
  await popup.waitForLoadState();
  return popup;
}

/** In a wallet window showing the "sign in first" notice: signs `who` in to the asking client there. */
async function signInInWindow(popup: Page, who: Account): Promise<void> {
  expect(await popup.getAttribute("#wallet-notice", "data-notice")).toBe("noSession");
  await popup.click("#wallet-sign-in");
  const closed = popup.waitForEvent("close", { timeout: 45_000 });
  await signInOn(popup, who);
  await closed;
}

/** Types the PIN in a wallet window and approves; the window shows its result and closes. */
async function approveInWindow(popup: Page): Promise<void> {
  await popup.waitForSelector("#pin");
  await popup.fill("#pin", PIN);
  const closed = popup.waitForEvent("close", { timeout: 60_000 });
  await popup.click("#approve");
  await closed;
}

/** Sets the PIN up in the wallet window opened by `button`: the PIN twice, the words shown once, then closed. */
async function setUpPinInWindow(target: Page, button: string, shotName?: string): Promise<void> {
  const popup = await walletWindow(target, button);
  await popup.waitForSelector("#pin-again");
  await popup.fill("#pin", PIN);
  await popup.fill("#pin-again", PIN);
  await popup.click("#approve");
  await popup.waitForSelector("#words-section:not(.hidden)", { timeout: 45_000 });
  expect(((await popup.textContent("#words")) ?? "").trim().split(/\s+/)).toHaveLength(12);
  if (shotName) await shot(shotName, popup);
  const closed = popup.waitForEvent("close");
  await popup.click("#words-done");
  await closed;
}

/** Logs `who` in to the demo game on `target` and answers the slot info its back end got. */
async function gameLogin(target: Page, who: Account): Promise<Record<string, unknown>> {
  await popupSignIn(target, "#login", who);
  await target.waitForSelector("#step-login:is([data-state=ok],[data-state=error])", { timeout: 45_000 });
  const out = (await target.textContent("#step-login .out")) ?? "";
  expect(await target.getAttribute("#step-login", "data-state"), out).toBe("ok");
  return (JSON.parse(out) as { slot_info_from_backend: Record<string, unknown> }).slot_info_from_backend;
}

/** Runs a demo step on another player's page (`runStep` drives the first player's). */
async function stepOn(target: Page, step: string, button: string): Promise<{ state: string; out: string }> {
  const previous = page;
  page = target;
  try {
    return await runStep(step, button);
  } finally {
    page = previous;
  }
}

/** Opens the marketplace in `context` and signs `who` in with the Slotgate popup. */
async function marketSignIn(context: BrowserContext, who: Account, signUp = false): Promise<Page> {
  const mp = await context.newPage();
  await mp.goto(`${market}/`);
  await mp.waitForSelector("body[data-ready=true]");
  await popupSignIn(mp, "#login", who, signUp);
  await mp.waitForFunction(() => document.querySelector("#whoami")?.textContent?.startsWith("Signed in"), undefined, { timeout: 45_000 });
  return mp;
}

/** Clicks an action on a marketplace page and answers the message it shows (`data-kind` ok or error). */
async function marketAction(mp: Page, selector: string): Promise<{ kind: string; text: string }> {
  const before = (await mp.getAttribute("#message", "data-seq")) ?? "";
  await mp.click(selector);
  await mp.waitForFunction((seq) => (document.querySelector("#message")?.getAttribute("data-seq") ?? "") !== seq, before, { timeout: 60_000 });
  return { kind: (await mp.getAttribute("#message", "data-kind")) ?? "", text: (await mp.textContent("#message")) ?? "" };
}

/** Waits until the marketplace's own view (fed by the service's signed webhooks) shows the signed-in user's game status. */
async function marketSees(mp: Page, status: "logged_in" | "logged_out"): Promise<void> {
  await expect
    .poll(() => mp.evaluate(async () => ((await (await fetch("/api/session")).json()) as { game_status: Record<string, string> }).game_status), {
      timeout: 30_000,
      interval: 250,
    })
    .toMatchObject({ [CUID]: status });
  await mp.reload();
  await mp.waitForSelector("body[data-ready=true]");
}

/** The marketplace's listing of a slot in a state (read from its JSON API, as the page does). */
async function listingOf(mp: Page, metaIdx: number, state: string): Promise<string> {
  const listings = await mp.evaluate(
    async () => ((await (await fetch("/api/listings")).json()) as { listings: Array<{ id: string; cuid: string; meta_idx: number; state: string }> }).listings,
  );
  const found = listings.find((l) => l.cuid === CUID && l.meta_idx === metaIdx && l.state === state);
  expect(found, JSON.stringify(listings)).toBeDefined();
  return found!.id;
}

/** A slot as the service's public read gives it (from the chain). */
async function publicSlot(metaIdx: number): Promise<Record<string, unknown>> {
  const res = await fetch(`${service}/v1/slots/${CUID}/${metaIdx}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { slot: Record<string, unknown> }).slot;
}

/** Waits until the slot's `buy_slot` registration landed on chain (opened slots are registered in the background). */
async function registered(metaIdx: number): Promise<Record<string, unknown>> {
  await expect.poll(async () => (await publicSlot(metaIdx))["registered"], { timeout: 60_000, interval: 500 }).toBe(true);
  return publicSlot(metaIdx);
}

/**
 * The marketplace loop between two players: `seller` lists slot `metaIdx` (refused while logged in at the game,
 * accepted after logout), `buyer` commits, the seller confirms the hand-over with the PIN, and the chain shows the
 * new owner with one more transfer while the slot's balance and used_balances stay.
 */
async function sale(args: {
  seller: { game: Page; market: Page; account: Account };
  buyer: { market: Page };
  metaIdx: number;
  shots: string;
}): Promise<{ owner: string; tr_cnt: number }> {
  const { seller, buyer, metaIdx } = args;
  const before = await registered(metaIdx);
  // Playing: the game recorded logged_in; the marketplace refuses the listing.
  expectOk(await stepOn(seller.game, "status", "status-login"));
  await marketSees(seller.market, "logged_in");
  const refused = await marketAction(seller.market, `#list-${CUID}-${metaIdx}`);
  expect(refused).toMatchObject({ kind: "error" });
  expect(refused.text).toMatch(/log out of the game/i);
  await shot(`${args.shots}-1-listing-refused`, seller.market);
  // Logged out of the game: the listing is accepted.
  expectOk(await stepOn(seller.game, "logout", "logout"));
  await marketSees(seller.market, "logged_out");
  expect(await marketAction(seller.market, `#list-${CUID}-${metaIdx}`)).toMatchObject({ kind: "ok" });
  const id = await listingOf(seller.market, metaIdx, "listed");
  await shot(`${args.shots}-2-listed`, seller.market);
  // The buyer commits.
  await buyer.market.reload();
  await buyer.market.waitForSelector("body[data-ready=true]");
  expect(await marketAction(buyer.market, `#buy-${id}`)).toMatchObject({ kind: "ok" });
  await shot(`${args.shots}-3-bought`, buyer.market);
  // The seller hands the slot over with the PIN in the Slotgate window: one UserOperation from the slot wallet. The
  // game's client asks (only it may, for its cu_id), so the window needs the seller's session of that client in this
  // browser: without one it offers the game's sign-in first; the page then finds the confirmation still pending (the
  // sale waits) and the seller opens a second window. (In this run's browsers the game's session is present.)
  await seller.market.reload();
  await seller.market.waitForSelector("body[data-ready=true]");
  let seq = (await seller.market.getAttribute("#message", "data-seq")) ?? "";
  let window = await walletWindow(seller.market, `#confirm-${id}`);
  await window.waitForSelector("#pin, #wallet-notice");
  if (await window.$("#wallet-notice")) {
    await shot(`${args.shots}-4-window-sign-in`, window);
    await signInInWindow(window, seller.account);
    await seller.market.waitForFunction((s) => (document.querySelector("#message")?.getAttribute("data-seq") ?? "") !== s, seq, { timeout: 60_000 });
    expect(await seller.market.getAttribute("#message", "data-kind")).toBe("ok");
    expect(await listingOf(seller.market, metaIdx, "reserved")).toBe(id);
    seq = (await seller.market.getAttribute("#message", "data-seq")) ?? "";
    window = await walletWindow(seller.market, `#confirm-${id}`);
  }
  await window.waitForSelector("#pin");
  await shot(`${args.shots}-4-window`, window);
  await approveInWindow(window);
  await seller.market.waitForFunction((s) => (document.querySelector("#message")?.getAttribute("data-seq") ?? "") !== s, seq, { timeout: 60_000 });
  expect({ kind: await seller.market.getAttribute("#message", "data-kind"), text: await seller.market.textContent("#message") }).toMatchObject({
    kind: "ok",
    text: expect.stringMatching(/^Sold: /),
  });
  await seller.market.waitForSelector("#sale-result:not([hidden])");
  const shown = { owner: (await seller.market.textContent("#sale-owner")) ?? "", tr_cnt: Number(await seller.market.textContent("#sale-tr-cnt")) };
  await shot(`${args.shots}-4-handed-over`, seller.market);
  const after = await publicSlot(metaIdx);
  expect(after).toMatchObject({
    slot: before["slot"],
    balance: before["balance"],
    used_balances: before["used_balances"],
    tr_cnt: Number(before["tr_cnt"]) + 1,
    owner: shown.owner,
  });
  expect(after["owner"]).not.toBe(before["owner"]);
  expect(shown.tr_cnt).toBe(Number(before["tr_cnt"]) + 1);
  return shown;
}

describe("the npm start demo, driven in headless Chromium", () => {
  const email = `player-${Date.now().toString(36)}@example.com`;
  const seller: Account = { email, password: "correct horse battery" };
  const buyer: Account = { email: `buyer-${Date.now().toString(36)}@example.com`, password: "another horse battery" };
  let firstSlot = -1;
  let secondSlot = { metaIdx: -1, address: "" };
  let sellerMarket: Page;
  let buyerContext: BrowserContext;
  let buyerMarket: Page;
  let buyerGame: Page;

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

  it("1a. sets the wallet PIN up in the Slotgate window: the words are shown there once; the demo page gets no secret", async () => {
    await setUpPinInWindow(page, "#pin-setup", "demo-01a-pin-words");
    await page.waitForSelector("#step-pin:is([data-state=ok],[data-state=error])", { timeout: 45_000 });
    const out = (await page.textContent("#step-pin .out")) ?? "";
    expect(await page.getAttribute("#step-pin", "data-state"), out).toBe("ok");
    expect(JSON.parse(out)).toMatchObject({ status: "approved", action: "pin-setup" });
    for (const secret of ["key_share", "pin_hash", "words", "mnemonic"]) expect(out).not.toContain(secret);
  });

  it("1b. the player approves the demo's purchases in the Slotgate window (the back end created the confirmation and reads its outcome)", async () => {
    const window = await walletWindow(page, "#approve");
    await window.waitForSelector("#pin");
    expect(await window.textContent("#wallet-what")).toContain(CUID);
    await shot("demo-01b-approve-window", window);
    await approveInWindow(window);
    await page.waitForSelector("#step-approve:is([data-state=ok],[data-state=error])", { timeout: 45_000 });
    const out = (await page.textContent("#step-approve .out")) ?? "";
    expect(await page.getAttribute("#step-approve", "data-state"), out).toBe("ok");
    expect(JSON.parse(out)).toMatchObject({
      window: { status: "approved", action: "approve_purchases" },
      service: { status: "approved", kind: "approve_purchases" },
    });
  });

  it("2. records the login status: the slot is not transferable while playing", async () => {
    const body = expectOk(await runStep("status", "status-login")) as unknown as {
      login: { status: string };
      check: { status: string; transfer_enabled: boolean };
    };
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

  it("5b. a second slot: opened while playing, but switching to it is refused until logout", async () => {
    const listed = expectOk(await runStep("slots", "slots")) as unknown as { slots: SlotRow[] };
    expect(listed.slots).toHaveLength(1);
    expect(listed.slots[0]).toMatchObject({ cuid: CUID, slot: slotAddress, state: "active", balance: "75", used_balances: "25", tr_cnt: 0 });
    firstSlot = listed.slots[0]!.meta_idx;
    const opened = (expectOk(await runStep("slots", "slot-open")) as unknown as { slot: SlotRow }).slot;
    expect(opened).toMatchObject({ cuid: CUID, state: "sleeping", balance: "0", used_balances: "0", tr_cnt: 0 });
    expect(opened.slot).not.toBe(slotAddress);
    secondSlot = { metaIdx: opened.meta_idx, address: opened.slot };
    await page.fill("#slot-index", String(secondSlot.metaIdx));
    const refused = await runStep("slots", "slot-activate");
    expect(refused.state).toBe("error");
    expect(refused.out).toMatch(/^logout_required: /);
    await shot("demo-05b-slot-switch-refused");
  });

  it("6. logs out: status logged_out, transfer enabled, JWT cleared in the browser", async () => {
    const body = expectOk(await runStep("logout", "logout")) as unknown as {
      logout: { transfer_enabled: boolean };
      check: { status: string; transfer_enabled: boolean };
      browser_logged_in: boolean;
    };
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

  it("7b. after logout the player switches to the second slot; the first one sleeps", async () => {
    await page.fill("#slot-index", String(secondSlot.metaIdx));
    const body = expectOk(await runStep("slots", "slot-activate")) as unknown as { active: SlotRow };
    expect(body.active).toMatchObject({ meta_idx: secondSlot.metaIdx, slot: secondSlot.address, state: "active" });
    const listed = expectOk(await runStep("slots", "slots")) as unknown as { slots: SlotRow[] };
    expect(Object.fromEntries(listed.slots.map((row) => [row.meta_idx, row.state]))).toEqual({ [firstSlot]: "sleeping", [secondSlot.metaIdx]: "active" });
    await shot("demo-08b-slot-switched");
  });

  it("7c. marketplace: the first slot is listed (refused while playing, accepted after logout), a second player buys it, the seller hands it over with the PIN", async () => {
    // Back in the game, the slot info names the active slot: the second one.
    expect(await gameLogin(page, seller)).toMatchObject({ content_address: secondSlot.address, meta_idx: secondSlot.metaIdx, tr_cnt: 0 });
    // The seller set the PIN up in the demo (step 1a): the window keeps the key share; the marketplace holds nothing.
    sellerMarket = await marketSignIn(context, seller);
    await shot("market-1-0-pin", sellerMarket);
    buyerContext = await browser.newContext({ viewport: { width: 1000, height: 1400 } });
    buyerMarket = await marketSignIn(buyerContext, buyer, true);
    const handed = await sale({
      seller: { game: page, market: sellerMarket, account: seller },
      buyer: { market: buyerMarket },
      metaIdx: firstSlot,
      shots: "market-1",
    });
    expect(handed.tr_cnt).toBe(1);
  });

  it("7d. the buyer logs in to the game and gets the slot with its record (same used_balances, tr_cnt 1); the seller no longer has it", async () => {
    buyerGame = await buyerContext.newPage();
    await buyerGame.goto(`${web}/`);
    await buyerGame.waitForSelector("body[data-ready=true]");
    expect(await gameLogin(buyerGame, buyer)).toMatchObject({ content_address: slotAddress, meta_idx: firstSlot, tr_cnt: 1 });
    const balance = expectOk(await stepOn(buyerGame, "balance", "balance"))["balance"];
    expect(balance).toMatchObject({ slot: slotAddress, balance: "75", used_balances: "25" });
    await shot("market-1-5-buyer-plays", buyerGame);
    const mine = expectOk(await runStep("slots", "slots")) as unknown as { slots: SlotRow[] };
    expect(mine.slots.map((row) => row.slot)).toEqual([secondSlot.address]);
    expect(await gameLogin(page, seller)).toMatchObject({ content_address: secondSlot.address });
    reportMemory("after the marketplace sale (steps 1-7d)");
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
    // The player's active slot is now the second one (the first was sold): 100 bought, 25 used.
    expect(balance).toMatchObject({ slot: secondSlot.address, balance: "75", used_balances: "25" });
    expect(spend).toMatchObject({ amount: "25", balance: "75", used_balances: "25" });
  });

  it("8b. after the restart the loop runs again: the buyer sells the slot back, and the first player activates it after logout and plays it with its record (tr_cnt 2)", async () => {
    // Sessions of the demo and the marketplace live in their processes: everyone signs in again; the rest was kept.
    await buyerGame.goto(`${web}/`);
    await buyerGame.waitForSelector("body[data-ready=true]");
    expect(await gameLogin(buyerGame, buyer)).toMatchObject({ content_address: slotAddress, tr_cnt: 1 });
    buyerMarket = await marketSignIn(buyerContext, buyer);
    // The buyer sets the PIN up from the marketplace's page, in the Slotgate window.
    const before = (await buyerMarket.getAttribute("#message", "data-seq")) ?? "";
    await setUpPinInWindow(buyerMarket, "#pin-register");
    await buyerMarket.waitForFunction((s) => (document.querySelector("#message")?.getAttribute("data-seq") ?? "") !== s, before, { timeout: 60_000 });
    expect(await buyerMarket.getAttribute("#message", "data-kind")).toBe("ok");
    sellerMarket = await marketSignIn(context, seller);
    const handed = await sale({
      seller: { game: buyerGame, market: buyerMarket, account: buyer },
      buyer: { market: sellerMarket },
      metaIdx: firstSlot,
      shots: "market-2",
    });
    expect(handed.tr_cnt).toBe(2);
    // The first player already has an active slot: the bought one arrives sleeping; after logout they switch to it.
    expect(expectOk(await runStep("logout", "logout"))["check"]).toMatchObject({ status: "logged_out" });
    await page.fill("#slot-index", String(firstSlot));
    expect((expectOk(await runStep("slots", "slot-activate")) as unknown as { active: SlotRow }).active).toMatchObject({
      slot: slotAddress,
      state: "active",
      tr_cnt: 2,
    });
    expect(await gameLogin(page, seller)).toMatchObject({ content_address: slotAddress, meta_idx: firstSlot, tr_cnt: 2 });
    expect(expectOk(await runStep("balance", "balance"))["balance"]).toMatchObject({ slot: slotAddress, balance: "75", used_balances: "25" });
    await shot("market-2-5-back-to-the-first-player");
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
