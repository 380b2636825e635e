/** The launch options {@link chromiumLaunchOptions} answers (a subset of playwright-core's `LaunchOptions`). */
export interface ChromiumLaunchOptions {
  executablePath: string;
  headless: true;
  args: string[];
  ignoreDefaultArgs: string[];
}

/**
 * Launch options for headless Chromium in browser tests, with the flags of shared/TOOLCHAIN.md: Debian's
 * `/usr/bin/chromium` (or `SLOTGATE_CHROMIUM`), no sandbox, GPU, QUIC, first-run, background networking,
 * component updates or sync. Popup blocking stays on (a real browser's default; Playwright turns it off unless
 * told), so `window.open` outside a click is refused as for a user. Plain data: this package does not depend on
 * playwright-core; pass the result to its `chromium.launch`.
 *
 * @example
 * ```ts
 * import { chromium } from "playwright-core";
 * const browser = await chromium.launch(chromiumLaunchOptions());
 * ```
 */
export function chromiumLaunchOptions(): ChromiumLaunchOptions {
  return {
    executablePath: process.env["SLOTGATE_CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    ignoreDefaultArgs: ["--disable-popup-blocking"],
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  };
}
