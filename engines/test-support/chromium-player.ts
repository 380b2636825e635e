/**
 * The player in headless Chromium, shared by the engine suites (Unity C# under Mono, the Godot add-on):
 * signs in (or up, mailbox step included) on Slotgate's authorize page and decides; or enters the device
 * code on the verification page and decides. Chromium runs with the flags of shared/TOOLCHAIN.md.
 */
import { chromiumLaunchOptions, readMailbox, waitForMailedCode } from "@slotgate/server/testing";
import { type Browser, chromium, type Response } from "playwright-core";

/** Launches headless Chromium (`SLOTGATE_CHROMIUM`, default /usr/bin/chromium); each launch has a fresh profile. */
export function launchChromium(): Promise<Browser> {
  // The project's Chromium flags (TOOLCHAIN.md), with Playwright's default arguments kept as they were here.
  const { ignoreDefaultArgs: _keepDefaults, ...options } = chromiumLaunchOptions();
  return chromium.launch(options);
}

/** A player account: created on first use with `signUp`. */
export interface Player {
  email: string;
  password: string;
}

/** What the tab showed after the redirect to the game's loopback `/callback`. */
export interface LoopbackVisit {
  /** The address bar after the page's script ran (the jwt and state scrubbed). */
  finalUrl: string;
  /** The page's `<h1>`. */
  heading: string | null;
  /** The raw `/callback` response as the engine's listener sent it. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Opens `authorizeUrl` as the system browser would, signs in as `player` (signing up first when `signUp`,
 * the mailed code read from the server's development mailbox in `dataDir`), clicks `decision`, and waits for
 * the loopback page.
 */
export async function decideOnAuthorizePage(
  browser: Browser,
  authorizeUrl: string,
  options: { player: Player; decision: "approve" | "deny"; signUp?: boolean; dataDir: string },
): Promise<LoopbackVisit> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const callback = new Promise<Response>((resolve) => {
      page.on("response", (response) => {
        if (/^http:\/\/127\.0\.0\.1:\d+\/callback\?/.test(response.url())) resolve(response);
      });
    });
    await page.goto(authorizeUrl);
    const { email, password } = options.player;
    await page.fill('[name="email"]', email);
    await page.fill('[name="password"]', password);
    if (options.signUp) await page.locator('[name="intent"][value="signup"]').check();
    const mailedBefore = readMailbox(options.dataDir, { to: email, limit: 1 })[0]?.id;
    await page.locator(`[name="decision"][value="${options.decision}"]`).click();
    if (options.signUp && options.decision === "approve") {
      await page.waitForSelector('[name="otp"]');
      await page.fill('[name="otp"]', await waitForMailedCode(options.dataDir, email, mailedBefore === undefined ? {} : { after: mailedBefore }));
      await page.locator('[name="decision"][value="approve"]').click();
    }
    const response = await callback;
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
    await page.waitForLoadState("load");
    return {
      finalUrl: page.url(),
      heading: await page.locator("h1").textContent(),
      status: response.status(),
      headers: await response.allHeaders(),
      body: (await response.body()).toString("utf8"),
    };
  } finally {
    await context.close();
  }
}

/** The player on a phone: opens the verification URL with the code filled in, signs in, decides; returns the page's result marker. */
export async function decideOnDevicePage(
  browser: Browser,
  verificationUriComplete: string,
  player: Player,
  decision: "approve" | "deny",
): Promise<string | null> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(verificationUriComplete);
    await page.fill('[name="email"]', player.email);
    await page.fill('[name="password"]', player.password);
    await page.locator(`[name="decision"][value="${decision}"]`).click();
    return await page.locator("#slotgate-device-result").getAttribute("data-result");
  } finally {
    await context.close();
  }
}
