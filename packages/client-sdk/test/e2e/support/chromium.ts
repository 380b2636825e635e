import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, headless, with the flags of TOOLCHAIN.md. Popup blocking stays on (a real browser's default). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
  });
}
