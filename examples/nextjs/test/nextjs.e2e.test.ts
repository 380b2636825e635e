import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromiumLaunchOptions, freeLoopbackPort, type ReferenceServer, registerWebClient, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

/**
 * The built Next.js example (`next start`) against the real reference server, driven in headless Chromium: popup
 * login and redirect login (@slotgate/react), slot info through the route handler (backend SDK `getSlotInfo`,
 * its callback on another route handler), status sync on login and logout read back from the service.
 */
const root = join(import.meta.dirname, "..");
let service: ReferenceServer;
let next: ChildProcess;
let nextLog = "";
let appUrl: string;
let browser: Browser;
let context: BrowserContext;
const player = { email: `next-${randomBytes(6).toString("hex")}@example.test`, password: randomBytes(12).toString("base64url") };

beforeAll(async () => {
  [service, browser] = await Promise.all([startReferenceServer({ chain: "off", timeoutMs: 100_000 }), chromium.launch(chromiumLaunchOptions())]);
  const port = await freeLoopbackPort();
  const origin = `http://127.0.0.1:${port}`;
  const client = await registerWebClient(service.url, {
    name: "nextjs example",
    redirectUris: [`${origin}/auth/callback`, `${origin}/api/slotgate/callback`],
  });
  const signUp = await signUpPlayer(service.url, service.dataDir, {
    client_id: client.clientId,
    redirect_uri: `${origin}/auth/callback`,
    state: "sign-up",
    ...player,
  });
  expect(signUp.status).toBe(302);
  appUrl = origin;
  next = spawn(
    process.execPath,
    [join(createRequire(join(root, "package.json")).resolve("next/package.json"), "../dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: {
        ...process.env,
        SLOTGATE_URL: service.url,
        SLOTGATE_CLIENT_ID: client.clientId,
        SLOTGATE_CLIENT_SECRET: client.clientSecret,
        APP_URL: origin,
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const collect = (d: Buffer): void => {
    nextLog += d.toString();
  };
  next.stdout?.on("data", collect);
  next.stderr?.on("data", collect);
  await waitForNext();
});
afterAll(async () => {
  await browser?.close();
  if (next && next.exitCode === null) {
    const exited = new Promise((resolve) => next.once("exit", resolve));
    next.kill("SIGTERM");
    await exited;
  }
  await service?.close();
});
beforeEach(async (ctx) => {
  context = await browser.newContext();
  ctx.onTestFinished(async () => {
    await context.close();
    if (ctx.task.result?.state === "fail") console.error(`next start output:\n${nextLog}`);
  });
});

async function waitForNext(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (next.exitCode !== null) throw new Error(`next start exited ${next.exitCode} (did \`npm run build\` run?):\n${nextLog}`);
    if (
      await fetch(appUrl).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer within 60 s:\n${nextLog}`);
}

async function home(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(appUrl);
  await expect.poll(() => page.textContent("#status")).toBe("logged_out");
  return page;
}
async function signIn(form: Page): Promise<void> {
  await form.waitForSelector('input[name="email"]');
  await form.fill('input[name="email"]', player.email);
  await form.fill('input[name="password"]', player.password);
  await form.click('button[name="decision"][value="approve"]');
}
/** Logged in: the slot from the route handler, the service's status "logged_in"; then log out and see it synced. */
async function slotThenLogout(page: Page): Promise<void> {
  await expect.poll(() => page.textContent("#status")).toBe("logged_in");
  await expect.poll(() => page.textContent("#service-status"), { timeout: 20_000 }).toBe("logged_in");
  const jwt = await page.evaluate(() => localStorage.getItem("slotgate_access_token"));
  const sub = JSON.parse(Buffer.from(String(jwt).split(".")[1] ?? "", "base64url").toString()).sub as string;
  expect(await page.textContent("#slot-id")).toBe(sub);
  expect(await page.textContent("#transfer")).toBe(" (transfer disabled)");
  await page.click("#logout");
  await expect.poll(() => page.textContent("#status")).toBe("logged_out");
  await expect.poll(() => page.textContent("#service-status")).toBe("logged_out");
  expect(await page.textContent("#transfer")).toBe(" (transfer enabled)");
  expect(await page.$("#error")).toBeNull();
  // The status flips when storage is cleared; the revoke follows a moment later.
  await expect.poll(async () => (await fetch(`${service.url}/v1/oauth/validate`, { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(401);
}

describe("examples/nextjs (next start) in Chromium against the reference server", () => {
  it("server-renders the page as loading (no window on the server), then shows logged_out in the browser", async () => {
    const html = await (await fetch(appUrl)).text();
    expect(html).toContain('<b id="status">loading</b>');
    await home();
  });

  it("popup login: slot info through the route handler, status logged_in on the service; logout syncs logged_out", async () => {
    const page = await home();
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#login-popup")]);
    await signIn(popup);
    await slotThenLogout(page);
  });

  it("redirect login: the tab goes to the service and back through /auth/callback, then the same slot and sync", async () => {
    const page = await home();
    await page.click("#login-redirect");
    await page.waitForURL(`${service.url}/oauth/authorize?**`);
    await signIn(page);
    await page.waitForURL(`${appUrl}/`);
    expect(context.pages()).toHaveLength(1);
    await slotThenLogout(page);
  });
});
